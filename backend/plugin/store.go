package plugin

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Record is one installed plugin as stored.
type Record struct {
	ID            string
	Version       string
	Path          string
	ManifestBytes []byte
	ContentHash   string
	Enabled       bool
	ConsentHash   string
	ConsentedAt   time.Time // zero: never
	InstalledAt   time.Time
	// Projects holds the projects' own choices (project id → enabled).
	Projects map[string]bool
}

// Consented reports whether the user consented to exactly what is
// installed.
func (r Record) Consented() bool { return r.ConsentHash != "" && r.ConsentHash == r.ContentHash }

// EnabledIn reports whether the plugin is on in projectID ("" = no
// project): the project's own choice, else the app-wide one.
func (r Record) EnabledIn(projectID string) bool {
	if on, ok := r.Projects[projectID]; ok && projectID != "" {
		return on
	}
	return r.Enabled
}

// Manifest parses the stored manifest.
func (r Record) Manifest() (Manifest, error) { return ParseManifest(r.ManifestBytes) }

// Store keeps the installed plugins (migration 0022).
type Store struct {
	db  *sql.DB
	now func() time.Time
}

// NewStore returns the store over db.
func NewStore(db *sql.DB, now func() time.Time) *Store { return &Store{db: db, now: now} }

// Put records s as installed at dir. A consent given with it (consent
// true) is to s.Hash; otherwise an earlier consent stays, which counts
// only while the hash is the same. A new plugin starts enabled.
func (st *Store) Put(ctx context.Context, s *Staged, dir string, consent bool) error {
	now := st.now().UnixMilli()
	consentHash, consentedAt := "", int64(0)
	if consent {
		consentHash, consentedAt = s.Hash, now
	}
	_, err := st.db.ExecContext(ctx, `
INSERT INTO plugins (id, version, path, manifest, content_hash, enabled, consent_hash, consented_at, installed_at)
VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET version = excluded.version, path = excluded.path, manifest = excluded.manifest,
  content_hash = excluded.content_hash, installed_at = excluded.installed_at,
  consent_hash = CASE WHEN ? THEN excluded.consent_hash ELSE plugins.consent_hash END,
  consented_at = CASE WHEN ? THEN excluded.consented_at ELSE plugins.consented_at END`,
		s.Manifest.ID, s.Manifest.Version, dir, s.ManifestBytes, s.Hash, consentHash, consentedAt, now, consent, consent)
	if err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot record the plugin %q", s.Manifest.ID)
	}
	return nil
}

// Consent records the user's consent to the plugin as installed, given to
// hash (the one they were shown): a plugin that changed since is refused
// with CONFLICT.
func (st *Store) Consent(ctx context.Context, id, hash string) error {
	r, err := st.Get(ctx, id)
	if err != nil {
		return err
	}
	if r.ContentHash != hash {
		return errs.New(errs.Conflict, "plugin %q changed since it was shown; review what it contributes again before consenting", id).With("plugin", id)
	}
	_, err = st.db.ExecContext(ctx, `UPDATE plugins SET consent_hash = ?, consented_at = ? WHERE id = ?`, hash, st.now().UnixMilli(), id)
	if err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot record the consent to plugin %q", id)
	}
	return nil
}

// SetEnabled turns a plugin on or off, app-wide (projectID "") or in one
// project.
func (st *Store) SetEnabled(ctx context.Context, id, projectID string, on bool) error {
	if _, err := st.Get(ctx, id); err != nil {
		return err
	}
	var err error
	if projectID == "" {
		_, err = st.db.ExecContext(ctx, `UPDATE plugins SET enabled = ? WHERE id = ?`, on, id)
	} else {
		_, err = st.db.ExecContext(ctx, `INSERT INTO plugin_projects (plugin_id, project_id, enabled) VALUES (?, ?, ?)
ON CONFLICT (plugin_id, project_id) DO UPDATE SET enabled = excluded.enabled`, id, projectID, on)
	}
	if err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot change plugin %q", id)
	}
	return nil
}

// ClearProject drops projectID's own choice for a plugin, so the project
// follows the app-wide one again. Clearing a project that made no choice
// changes nothing.
func (st *Store) ClearProject(ctx context.Context, id, projectID string) error {
	if _, err := st.Get(ctx, id); err != nil {
		return err
	}
	if _, err := st.db.ExecContext(ctx, `DELETE FROM plugin_projects WHERE plugin_id = ? AND project_id = ?`, id, projectID); err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot change plugin %q", id)
	}
	return nil
}

// Remove forgets a plugin (its project choices go with it).
func (st *Store) Remove(ctx context.Context, id string) error {
	res, err := st.db.ExecContext(ctx, `DELETE FROM plugins WHERE id = ?`, id)
	if err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot remove plugin %q", id)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(id)
	}
	return nil
}

func notFound(id string) error {
	return errs.New(errs.PluginNotFound, "no plugin %q is installed; see `pi-desktop plugins list` or Settings → Plugins", clip(id)).With("plugin", id)
}

// Get is one plugin's record; PLUGIN_NOT_FOUND when none.
func (st *Store) Get(ctx context.Context, id string) (Record, error) {
	list, err := st.list(ctx, `WHERE id = ?`, id)
	if err != nil {
		return Record{}, err
	}
	if len(list) == 0 {
		return Record{}, notFound(id)
	}
	return list[0], nil
}

// List is every installed plugin, by id.
func (st *Store) List(ctx context.Context) ([]Record, error) { return st.list(ctx, "") }

func (st *Store) list(ctx context.Context, where string, args ...any) ([]Record, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT id, version, path, manifest, content_hash, enabled, consent_hash, consented_at, installed_at
FROM plugins `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot read the installed plugins")
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var r Record
		var consented, installed int64
		if err := rows.Scan(&r.ID, &r.Version, &r.Path, &r.ManifestBytes, &r.ContentHash, &r.Enabled, &r.ConsentHash, &consented, &installed); err != nil {
			return nil, errs.Wrap(err, errs.StorageCorrupt, "cannot read the installed plugins")
		}
		if consented > 0 {
			r.ConsentedAt = time.UnixMilli(consented)
		}
		r.InstalledAt = time.UnixMilli(installed)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot read the installed plugins")
	}
	rows.Close()
	for i := range out {
		if out[i].Projects, err = st.projects(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (st *Store) projects(ctx context.Context, id string) (map[string]bool, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT project_id, enabled FROM plugin_projects WHERE plugin_id = ?`, id)
	if err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot read the plugin's project choices")
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var p string
		var on bool
		if err := rows.Scan(&p, &on); err != nil {
			return nil, errs.Wrap(err, errs.StorageCorrupt, "cannot read the plugin's project choices")
		}
		out[p] = on
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot read the plugin's project choices")
	}
	return out, nil
}
