package mcpstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// SourceApp is the Source of an app server.
const SourceApp = "app"

// Service reads and writes MCP server definitions, secrets and trust.
type Service struct {
	db   *sql.DB
	keys KeyStore
	now  func() time.Time
}

// New returns the Service over db; keys holds the secret values and OAuth
// tokens. now may be nil.
func New(db *sql.DB, keys KeyStore, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, keys: keys, now: now}
}

func storageErr(err error, doing string) error {
	return errs.Wrap(err, errs.StorageUnavailable, "could not %s: the database did not answer; check free disk space and restart PI-Desktop", doing)
}

func notFound(id string) error {
	return errs.New(errs.NotFound, "no MCP server named %q is saved in the app; list them with `pi-desktop mcp list` or reopen Settings → MCP servers", id).
		With("field", "id").With("server", id)
}

const columns = "id, secret_id, transport, command, args, env, cwd, url, headers, enabled, disabled_tools, connect_timeout_ms, call_timeout_ms, created_at, updated_at"

type scanner interface{ Scan(...any) error }

func scanRecord(row scanner) (record, error) {
	var r record
	var transport, args, env, headers, disabled string
	var connectMs, callMs int64
	err := row.Scan(&r.ID, &r.SecretID, &transport, &r.Command, &args, &env, &r.Cwd, &r.URL, &headers,
		&r.Enabled, &disabled, &connectMs, &callMs, &r.CreatedAt, &r.UpdatedAt)
	if err != nil {
		return r, err
	}
	r.Transport = mcp.Transport(transport)
	r.ConnectTimeout = time.Duration(connectMs) * time.Millisecond
	r.CallTimeout = time.Duration(callMs) * time.Millisecond
	for _, f := range []struct {
		raw string
		dst any
	}{{args, &r.Args}, {env, &r.Env}, {headers, &r.Headers}, {disabled, &r.DisabledTools}} {
		if err := json.Unmarshal([]byte(f.raw), f.dst); err != nil {
			return r, errs.Wrap(err, errs.StorageCorrupt, "the saved MCP server %q is damaged; remove it and add it again", r.ID)
		}
	}
	return r, nil
}

func (s *Service) read(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (record, error) {
	r, err := scanRecord(q.QueryRowContext(ctx, "SELECT "+columns+" FROM mcp_servers WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return record{}, notFound(id)
	}
	if err != nil && errs.As(err) == nil {
		return record{}, storageErr(err, "read the MCP server")
	}
	return r, err
}

// has says whether a secret of r has a saved value.
func (s *Service) has(r record) func(kind string, p pair) bool {
	return func(kind string, p pair) bool {
		where, err := s.keys.Locate(secretAccount(r.SecretID, kind, p.Name))
		return err == nil && where != ""
	}
}

// List returns the app's servers sorted by id, secrets masked.
func (s *Service) List(ctx context.Context) ([]api.MCPServer, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+columns+" FROM mcp_servers ORDER BY id")
	if err != nil {
		return nil, storageErr(err, "list the MCP servers")
	}
	defer rows.Close()
	var recs []record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			if errs.As(err) == nil {
				err = storageErr(err, "list the MCP servers")
			}
			return nil, err
		}
		recs = append(recs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "list the MCP servers")
	}
	out := make([]api.MCPServer, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.toAPI(s.has(r)))
	}
	return out, nil
}

// Get returns one app server, secrets masked (NOT_FOUND when there is none).
func (s *Service) Get(ctx context.Context, id string) (api.MCPServer, error) {
	r, err := s.read(ctx, s.db, id)
	if err != nil {
		return api.MCPServer{}, err
	}
	return r.toAPI(s.has(r)), nil
}

// Resolve returns an app server's full definition, secret values included,
// for the host to connect. A secret whose value is gone from the key store
// fails closed with MCP_SERVER_UNAVAILABLE naming it.
func (s *Service) Resolve(ctx context.Context, id string) (mcp.Server, error) {
	r, err := s.read(ctx, s.db, id)
	if err != nil {
		return mcp.Server{}, err
	}
	var missing error
	srv := r.server(func(kind string, p pair) string {
		v, err := s.keys.Get(secretAccount(r.SecretID, kind, p.Name))
		if err != nil && missing == nil {
			missing = err
		} else if v == "" && missing == nil {
			missing = errs.New(errs.MCPServerUnavailable, "the saved value of the secret %s %q of MCP server %q is gone from the keychain; enter it again in Settings → MCP servers", kind, p.Name, r.ID).
				With("server", r.ID).With("field", kind)
		}
		return v
	})
	if missing != nil {
		return mcp.Server{}, missing
	}
	return srv, nil
}

// Save adds an app server or replaces the one with the same id. A secret
// header or env value left "" keeps the saved one; the enabled switch and
// timeouts come from in, the disabled tools are kept.
func (s *Service) Save(ctx context.Context, in api.MCPServerInput) (api.MCPServer, error) {
	return s.save(ctx, in, false)
}

// Add is Save that refuses (CONFLICT) an id already saved, as `mcp add`
// does.
func (s *Service) Add(ctx context.Context, in api.MCPServerInput) (api.MCPServer, error) {
	return s.save(ctx, in, true)
}

// secretWrite is one key-store change of a save, with the value it
// replaces so a failed row write can put it back.
type secretWrite struct{ account, value, before string }

func (s *Service) save(ctx context.Context, in api.MCPServerInput, addOnly bool) (api.MCPServer, error) {
	r, err := normalize(in)
	if err != nil {
		return api.MCPServer{}, err
	}
	old, err := s.read(ctx, s.db, r.ID)
	exists := err == nil
	switch {
	case exists && addOnly:
		return api.MCPServer{}, errs.New(errs.Conflict, "an MCP server named %q is already saved; remove it first or choose another name", r.ID).With("field", "id")
	case err != nil && !errs.Is(err, errs.NotFound):
		return api.MCPServer{}, err
	}
	r.SecretID, r.DisabledTools, r.CreatedAt = newSecretID(), []string{}, s.now().UnixMilli()
	if exists {
		r.SecretID, r.DisabledTools, r.CreatedAt = old.SecretID, old.DisabledTools, old.CreatedAt
	}
	writes, err := s.planSecrets(&r, old, exists)
	if err != nil {
		return api.MCPServer{}, err
	}
	values := map[string]string{}
	for _, w := range writes {
		values[w.account] = w.value
	}
	srv := r.server(func(kind string, p pair) string {
		if v, ok := values[secretAccount(r.SecretID, kind, p.Name)]; ok {
			return v
		}
		return "kept" // a kept secret was validated when it was saved
	})
	if err := srv.Validate(); err != nil {
		return api.MCPServer{}, err
	}
	// Secrets first: a row never names a secret that was not saved. A
	// failed row write puts the previous values back.
	for i, w := range writes {
		if err := s.keys.Set(w.account, w.value); err != nil {
			s.undo(writes[:i])
			return api.MCPServer{}, err
		}
	}
	if err := s.write(ctx, r, exists); err != nil {
		s.undo(writes)
		return api.MCPServer{}, err
	}
	if exists {
		s.dropUnused(old, r)
	}
	return s.Get(ctx, r.ID)
}

// planSecrets decides the key-store writes of a save and blanks the secret
// values in r (they never reach the row). A secret left "" keeps the value
// saved under the same name, secret or not; with none it is refused.
func (s *Service) planSecrets(r *record, old record, exists bool) ([]secretWrite, error) {
	var writes []secretWrite
	plan := func(kind string, ps []pair, olds []pair) error {
		for i, p := range ps {
			if !p.Secret {
				continue
			}
			account := secretAccount(r.SecretID, kind, p.Name)
			value := p.Value
			if value == "" {
				var err error
				if value, err = s.previous(old, exists, kind, olds, p.Name); err != nil {
					return err
				}
				if value == "" {
					return invalid(fieldOf(kind), "enter the value of the secret %s %q", kind, p.Name)
				}
			}
			before, err := s.keys.Get(account)
			if err != nil {
				return err
			}
			if before != value {
				writes = append(writes, secretWrite{account: account, value: value, before: before})
			}
			ps[i].Value = ""
		}
		return nil
	}
	if err := plan(kindEnv, r.Env, old.Env); err != nil {
		return nil, err
	}
	if err := plan(kindHeader, r.Headers, old.Headers); err != nil {
		return nil, err
	}
	return writes, nil
}

func fieldOf(kind string) string {
	if kind == kindHeader {
		return "headers"
	}
	return "env"
}

// previous is the value saved for name (secret or not) before this save.
func (s *Service) previous(old record, exists bool, kind string, olds []pair, name string) (string, error) {
	if !exists {
		return "", nil
	}
	for _, p := range olds {
		same := p.Name == name || (kind == kindHeader && strings.EqualFold(p.Name, name))
		if !same {
			continue
		}
		if !p.Secret {
			return p.Value, nil
		}
		return s.keys.Get(secretAccount(old.SecretID, kind, p.Name))
	}
	return "", nil
}

func (s *Service) undo(writes []secretWrite) {
	for _, w := range writes {
		_ = s.keys.Set(w.account, w.before)
	}
}

// dropUnused removes the secrets old had that r no longer keeps.
func (s *Service) dropUnused(old, r record) {
	keep := map[string]bool{}
	for _, a := range secretAccounts(r) {
		keep[a] = true
	}
	for _, a := range secretAccounts(old) {
		if !keep[a] {
			_ = s.keys.Set(a, "")
		}
	}
}

func secretAccounts(r record) []string {
	var out []string
	for _, p := range r.Env {
		if p.Secret {
			out = append(out, secretAccount(r.SecretID, kindEnv, p.Name))
		}
	}
	for _, p := range r.Headers {
		if p.Secret {
			out = append(out, secretAccount(r.SecretID, kindHeader, p.Name))
		}
	}
	return out
}

func jsonText(v any) string {
	b, _ := json.Marshal(v) // slices of strings and pairs always encode
	return string(b)
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

func (s *Service) write(ctx context.Context, r record, exists bool) error {
	now := s.now().UnixMilli()
	args := []any{r.ID, r.SecretID, string(r.Transport), r.Command, jsonText(nonNil(r.Args)), jsonText(nonNil(r.Env)), r.Cwd, r.URL,
		jsonText(nonNil(r.Headers)), r.Enabled, jsonText(nonNil(r.DisabledTools)), r.ConnectTimeout.Milliseconds(), r.CallTimeout.Milliseconds(), r.CreatedAt, now}
	var err error
	if exists {
		_, err = s.db.ExecContext(ctx, `UPDATE mcp_servers SET secret_id = ?2, transport = ?3, command = ?4, args = ?5, env = ?6, cwd = ?7,
			url = ?8, headers = ?9, enabled = ?10, disabled_tools = ?11, connect_timeout_ms = ?12, call_timeout_ms = ?13,
			created_at = ?14, updated_at = ?15 WHERE id = ?1`, args...)
	} else {
		_, err = s.db.ExecContext(ctx, "INSERT INTO mcp_servers ("+columns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", args...)
	}
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint failed: mcp_servers.id") {
			return errs.New(errs.Conflict, "an MCP server named %q was saved at the same time; reopen the list and try again", r.ID).With("field", "id")
		}
		return storageErr(err, "save the MCP server")
	}
	return nil
}

// Remove deletes an app server, its secret values and its OAuth token.
func (s *Service) Remove(ctx context.Context, id string) error {
	r, err := s.read(ctx, s.db, id)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, "DELETE FROM mcp_servers WHERE id = ? AND secret_id = ?", id, r.SecretID)
	if err != nil {
		return storageErr(err, "remove the MCP server")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(id)
	}
	var failed []string
	for _, a := range append(secretAccounts(r), tokenAccount(r.SecretID)) {
		if err := s.keys.Set(a, ""); err != nil {
			failed = append(failed, a)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("the MCP server %q is removed but %d of its secrets are not: %w", id, len(failed),
			errs.New(errs.StorageUnavailable, "unlock the keychain and remove the entries %s by hand", strings.Join(failed, ", ")))
	}
	return nil
}

// setTools returns list with tool switched on (removed) or off (added),
// sorted.
func setTools(list []string, tool string, enabled bool) []string {
	out := slices.DeleteFunc(slices.Clone(list), func(t string) bool { return t == tool })
	if !enabled {
		out = append(out, tool)
	}
	slices.Sort(out)
	return nonNil(out)
}

func checkTool(tool string) error {
	if strings.TrimSpace(tool) == "" || len(tool) > 1024 {
		return invalid("tool", "name the server's tool to switch (its own name, as the server lists it)")
	}
	return nil
}

// Draft is the definition the form describes, for Test before saving: a
// secret left "" takes the value saved for the same id and name, if any.
// Nothing is written.
func (s *Service) Draft(ctx context.Context, in api.MCPServerInput) (mcp.Server, error) {
	r, err := normalize(in)
	if err != nil {
		return mcp.Server{}, err
	}
	saved, serr := s.read(ctx, s.db, r.ID)
	srv := r.server(func(kind string, p pair) string {
		if p.Value != "" || serr != nil {
			return p.Value
		}
		v, _ := s.keys.Get(secretAccount(saved.SecretID, kind, p.Name))
		return v
	})
	srv.Enabled = true
	if err := srv.Validate(); err != nil {
		return mcp.Server{}, err
	}
	return srv, nil
}

// Signature changes whenever an app server is added, edited, switched or
// removed, by this process or another (`pi-desktop mcp add` while the app
// runs): a cheap way to tell that the live set needs syncing.
func (s *Service) Signature(ctx context.Context) (string, error) {
	var n, at int64
	if err := s.db.QueryRowContext(ctx, "SELECT count(*), coalesce(max(updated_at), 0) FROM mcp_servers").Scan(&n, &at); err != nil {
		return "", storageErr(err, "read the MCP servers")
	}
	return strconv.FormatInt(n, 10) + "/" + strconv.FormatInt(at, 10), nil
}
