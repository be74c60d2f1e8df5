package mcpstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// The user's switches and trust. projectID "" names the app's servers;
// otherwise a project's server by its id in that project's files, whose
// switches live here so the user can turn a repository's server or tool off
// without editing the repository.

func projectGone(projectID string) error {
	return errs.New(errs.ProjectNotFound, "no project has the id %q; it may have been removed: reopen it from the sidebar", projectID).
		With("field", "projectId")
}

// isFKError tells a write refused for a missing project.
func isFKError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

// SetEnabled turns a server on or off.
func (s *Service) SetEnabled(ctx context.Context, projectID, id string, enabled bool) error {
	if projectID == "" {
		res, err := s.db.ExecContext(ctx, "UPDATE mcp_servers SET enabled = ?, updated_at = ? WHERE id = ?", enabled, s.now().UnixMilli(), id)
		if err != nil {
			return storageErr(err, "switch the MCP server")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(id)
		}
		return nil
	}
	return s.upsertProject(ctx, projectID, id, "enabled = excluded.enabled", enabled, "[]")
}

// SetToolEnabled turns one of a server's tools (its own name) on or off.
func (s *Service) SetToolEnabled(ctx context.Context, projectID, id, tool string, enabled bool) error {
	if err := checkTool(tool); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err, "switch the MCP tool")
	}
	defer func() { _ = tx.Rollback() }()
	var raw string
	if projectID == "" {
		err = tx.QueryRowContext(ctx, "SELECT disabled_tools FROM mcp_servers WHERE id = ?", id).Scan(&raw)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(id)
		}
	} else {
		err = tx.QueryRowContext(ctx, "SELECT disabled_tools FROM mcp_project_servers WHERE project_id = ? AND server_id = ?", projectID, id).Scan(&raw)
		if errors.Is(err, sql.ErrNoRows) {
			raw, err = "[]", nil
		}
	}
	if err != nil {
		return storageErr(err, "switch the MCP tool")
	}
	var list []string
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		list = nil // a damaged list is rewritten whole
	}
	list = setTools(list, tool, enabled)
	now := s.now().UnixMilli()
	if projectID == "" {
		_, err = tx.ExecContext(ctx, "UPDATE mcp_servers SET disabled_tools = ?, updated_at = ? WHERE id = ?", jsonText(list), now, id)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO mcp_project_servers (project_id, server_id, enabled, disabled_tools, secret_id, updated_at)
			VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (project_id, server_id) DO UPDATE SET disabled_tools = excluded.disabled_tools, updated_at = excluded.updated_at`,
			projectID, id, jsonText(list), newSecretID(), now)
	}
	if isFKError(err) {
		return projectGone(projectID)
	}
	if err != nil {
		return storageErr(err, "switch the MCP tool")
	}
	if err := tx.Commit(); err != nil {
		return storageErr(err, "switch the MCP tool")
	}
	return nil
}

// upsertProject writes a project server's row, creating it (with a secret
// id of its own) when missing; update says which columns change.
func (s *Service) upsertProject(ctx context.Context, projectID, id, update string, enabled bool, disabled string) error {
	if err := validServerID(id); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO mcp_project_servers (project_id, server_id, enabled, disabled_tools, secret_id, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, server_id) DO UPDATE SET `+update+`, updated_at = excluded.updated_at`,
		projectID, id, enabled, disabled, newSecretID(), s.now().UnixMilli())
	if isFKError(err) {
		return projectGone(projectID)
	}
	if err != nil {
		return storageErr(err, "save the project's MCP server settings")
	}
	return nil
}

func validServerID(id string) error {
	if strings.TrimSpace(id) == "" || len(id) > 128 {
		return invalid("id", "name the MCP server (its name in the project's .mcp.json or .agents/servers)")
	}
	return nil
}

// hashPattern is the form of mcp.Server.DefinitionHash.
var hashPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// Trust records that the user trusts the project's server id with exactly
// the definition whose hash is given (the one the trust card showed). It
// replaces an earlier trust of another definition.
func (s *Service) Trust(ctx context.Context, projectID, id, hash string) error {
	if projectID == "" {
		return invalid("projectId", "only a project's server needs trust; the app's own servers are trusted when saved")
	}
	if err := validServerID(id); err != nil {
		return err
	}
	if !hashPattern.MatchString(hash) {
		return invalid("definitionHash", "the definition hash must be the sha256:<hex> the server's listing shows; list the project's servers again")
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO mcp_trust (project_id, server_id, definition_hash, trusted_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (project_id, server_id) DO UPDATE SET definition_hash = excluded.definition_hash, trusted_at = excluded.trusted_at`,
		projectID, id, hash, s.now().UnixMilli())
	if isFKError(err) {
		return projectGone(projectID)
	}
	if err != nil {
		return storageErr(err, "trust the MCP server")
	}
	return nil
}

// Trusted reports whether the user trusts the project's server id with the
// definition hash. Any doubt (another hash, no row, a database that does
// not answer) is false: an untrusted server never starts.
func (s *Service) Trusted(ctx context.Context, projectID, id, hash string) bool {
	if projectID == "" || hash == "" {
		return false
	}
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM mcp_trust WHERE project_id = ? AND server_id = ? AND definition_hash = ?",
		projectID, id, hash).Scan(&n)
	return err == nil && n == 1
}

// Untrust forgets the trust in a project's server (no error when there was
// none).
func (s *Service) Untrust(ctx context.Context, projectID, id string) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM mcp_trust WHERE project_id = ? AND server_id = ?", projectID, id); err != nil {
		return storageErr(err, "untrust the MCP server")
	}
	return nil
}

// projectRow is what the user decided about one project server.
type projectRow struct {
	enabled  bool
	disabled []string
	secretID string
}

func (s *Service) projectRows(ctx context.Context, projectID string) (map[string]projectRow, map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT server_id, enabled, disabled_tools, secret_id FROM mcp_project_servers WHERE project_id = ?", projectID)
	if err != nil {
		return nil, nil, storageErr(err, "read the project's MCP server settings")
	}
	defer rows.Close()
	out := map[string]projectRow{}
	for rows.Next() {
		var id, raw string
		var r projectRow
		if err := rows.Scan(&id, &r.enabled, &raw, &r.secretID); err != nil {
			return nil, nil, storageErr(err, "read the project's MCP server settings")
		}
		_ = json.Unmarshal([]byte(raw), &r.disabled) // a damaged list leaves every tool on
		out[id] = r
	}
	if err := rows.Err(); err != nil {
		return nil, nil, storageErr(err, "read the project's MCP server settings")
	}
	trust := map[string]string{}
	trows, err := s.db.QueryContext(ctx, "SELECT server_id, definition_hash FROM mcp_trust WHERE project_id = ?", projectID)
	if err != nil {
		return nil, nil, storageErr(err, "read the project's MCP trust")
	}
	defer trows.Close()
	for trows.Next() {
		var id, hash string
		if err := trows.Scan(&id, &hash); err != nil {
			return nil, nil, storageErr(err, "read the project's MCP trust")
		}
		trust[id] = hash
	}
	return out, trust, trows.Err()
}

// WithProjectState applies what the user decided for projectID to servers
// read from its files (ProjectServers): Trusted for the exact hash, the
// enabled switch and the disabled tools. The list is changed in place and
// returned.
func (s *Service) WithProjectState(ctx context.Context, projectID string, servers []ProjectServer) ([]ProjectServer, error) {
	rows, trust, err := s.projectRows(ctx, projectID)
	if err != nil {
		return nil, err
	}
	for i := range servers {
		p := &servers[i]
		if p.Problem != nil {
			continue
		}
		p.Trusted = p.Hash != "" && trust[p.Server.ID] == p.Hash
		if r, ok := rows[p.Server.ID]; ok {
			p.Server.Enabled = r.enabled
			p.Server.DisabledTools = nil
			for _, t := range r.disabled {
				if p.Server.DisabledTools == nil {
					p.Server.DisabledTools = map[string]bool{}
				}
				p.Server.DisabledTools[t] = true
			}
		}
	}
	return servers, nil
}

// ForgetProject removes what this package keeps about a project: its
// servers' OAuth tokens, switches and trust. Call it before the project's
// row goes (the rows would cascade, the keychain entries would not).
func (s *Service) ForgetProject(ctx context.Context, projectID string) error {
	rows, _, err := s.projectRows(ctx, projectID)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := s.keys.Set(tokenAccount(r.secretID), ""); err != nil {
			return err
		}
	}
	for _, q := range []string{"DELETE FROM mcp_project_servers WHERE project_id = ?", "DELETE FROM mcp_trust WHERE project_id = ?"} {
		if _, err := s.db.ExecContext(ctx, q, projectID); err != nil {
			return storageErr(err, "forget the project's MCP servers")
		}
	}
	return nil
}

// ProjectCatalog is ProjectServers(root) with projectID's state applied:
// what Settings lists and what the host may start (a server with a Problem,
// untrusted, or switched off never starts). It runs nothing.
func (s *Service) ProjectCatalog(ctx context.Context, projectID, root string) ([]ProjectServer, error) {
	list, err := ProjectServers(root)
	if err != nil {
		return nil, err
	}
	return s.WithProjectState(ctx, projectID, list)
}
