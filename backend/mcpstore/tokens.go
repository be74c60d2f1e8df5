package mcpstore

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// TokenKey names the OAuth token of a server for LoadToken and SaveToken:
// "user/<id>" for an app server (projectID ""), "project/<projectID>/<id>"
// for a project's server.
func TokenKey(projectID, id string) string {
	if projectID == "" {
		return "user/" + id
	}
	return "project/" + projectID + "/" + id
}

func parseTokenKey(key string) (projectID, id string, err error) {
	if rest, ok := strings.CutPrefix(key, "user/"); ok && rest != "" {
		return "", rest, nil
	}
	if rest, ok := strings.CutPrefix(key, "project/"); ok {
		if p, i, ok := strings.Cut(rest, "/"); ok && p != "" && i != "" {
			return p, i, nil
		}
	}
	return "", "", invalid("key", "an MCP token key is user/<server> or project/<projectId>/<server> (see TokenKey), not %q", key)
}

// LoadToken returns the OAuth token blob saved for key (nil when none is).
// Blobs live in the key store like the other secrets, never in SQLite.
func (s *Service) LoadToken(key string) ([]byte, error) {
	account, err := s.tokenAccountOf(context.Background(), key, false)
	if err != nil || account == "" {
		return nil, err
	}
	v, err := s.keys.Get(account)
	if err != nil || v == "" {
		return nil, err
	}
	blob, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return nil, errs.New(errs.MCPAuthRequired, "the saved sign-in of this MCP server is damaged; sign in again")
	}
	return blob, nil
}

// SaveToken keeps the OAuth token blob of key; an empty blob removes it.
// An app server must be saved first (NOT_FOUND); a project server's token
// is kept for that project.
func (s *Service) SaveToken(key string, blob []byte) error {
	account, err := s.tokenAccountOf(context.Background(), key, len(blob) > 0)
	if err != nil || account == "" {
		return err
	}
	// base64: the key store trims values, a binary blob must survive whole.
	return s.keys.Set(account, base64.StdEncoding.EncodeToString(blob))
}

// tokenAccountOf finds the account of key's token; create makes the row a
// project server needs for it. "" (no error) means nothing is saved.
func (s *Service) tokenAccountOf(ctx context.Context, key string, create bool) (string, error) {
	projectID, id, err := parseTokenKey(key)
	if err != nil {
		return "", err
	}
	var secretID string
	if projectID == "" {
		err = s.db.QueryRowContext(ctx, "SELECT secret_id FROM mcp_servers WHERE id = ?", id).Scan(&secretID)
		if errors.Is(err, sql.ErrNoRows) {
			if create {
				return "", notFound(id)
			}
			return "", nil
		}
	} else {
		if create {
			// DO NOTHING keeps the existing row and its secret id.
			_, err = s.db.ExecContext(ctx, `INSERT INTO mcp_project_servers (project_id, server_id, enabled, disabled_tools, secret_id, updated_at)
				VALUES (?, ?, 1, '[]', ?, ?) ON CONFLICT (project_id, server_id) DO NOTHING`, projectID, id, newSecretID(), s.now().UnixMilli())
			if isFKError(err) {
				return "", projectGone(projectID)
			}
			if err != nil {
				return "", storageErr(err, "save the MCP sign-in")
			}
		}
		err = s.db.QueryRowContext(ctx, "SELECT secret_id FROM mcp_project_servers WHERE project_id = ? AND server_id = ?", projectID, id).Scan(&secretID)
		if errors.Is(err, sql.ErrNoRows) {
			return "", nil
		}
	}
	if err != nil {
		return "", storageErr(err, "read the MCP sign-in")
	}
	return tokenAccount(secretID), nil
}
