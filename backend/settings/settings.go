// Package settings persists the application settings and refuses invalid
// values before they are stored.
package settings

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// MaxPermissionTimeoutSeconds bounds the opt-in approval deadline (one day).
const MaxPermissionTimeoutSeconds = 86400

// Service reads and writes settings for one platform.
type Service struct {
	db   *sql.DB
	goos string
	// Available reports whether a catalog shell resolves on this machine;
	// nil accepts every shell of the platform (tests, other platforms).
	Available func(id string) bool
}

// New returns a Service; goos selects the command-shell catalog.
func New(db *sql.DB, goos string) *Service { return &Service{db: db, goos: goos} }

// Defaults are the settings of a fresh install.
func (s *Service) Defaults() api.Settings {
	return api.Settings{
		DefaultPermissionMode:    api.PermissionAsk,
		DefaultCommandShell:      shells.ForPlatform(s.goos)[0].ID,
		InlineVisualizations:     false,
		PermissionTimeoutSeconds: 0,
		Theme:                    api.ThemeSystem,
		EnvPassthrough:           []string{},
		EnvDrop:                  []string{},
	}
}

// The row key: one JSON document, so a settings write is atomic.
const key = "app"

// Get returns the stored settings over the defaults. A stored value that is
// no longer valid (a shell from another platform, say) falls back to its
// default rather than failing the app.
func (s *Service) Get(ctx context.Context) (api.Settings, error) {
	st, err := s.Load(ctx)
	if err != nil {
		return api.Settings{}, err
	}
	return s.Decode(st), nil
}

// Stored is the settings row as read, before Decode checks it against this
// machine. It is what a caller may cache: Decode is re-run on every use, so
// a shell uninstalled since is still noticed.
type Stored struct {
	raw   string
	saved bool
}

// Load reads the stored settings row.
func (s *Service) Load(ctx context.Context) (Stored, error) {
	var raw string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", key).Scan(&raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Stored{}, nil
	case err != nil:
		return Stored{}, errs.Wrap(err, errs.StorageUnavailable, "could not read settings: the database did not answer; restart PI-Desktop")
	}
	return Stored{raw: raw, saved: true}, nil
}

// Decode returns st over the defaults, each field that is no longer valid
// reset to its default.
func (s *Service) Decode(st Stored) api.Settings {
	out := s.Defaults()
	if !st.saved {
		return out
	}
	if err := json.Unmarshal([]byte(st.raw), &out); err != nil {
		return s.Defaults()
	}
	// Keep each valid field; reset only the ones that are no longer valid.
	def := s.Defaults()
	if s.checkPermission(out.DefaultPermissionMode) != nil {
		out.DefaultPermissionMode = def.DefaultPermissionMode
	}
	if s.checkShell(out.DefaultCommandShell) != nil {
		out.DefaultCommandShell = def.DefaultCommandShell
	}
	if s.checkTimeout(out.PermissionTimeoutSeconds) != nil {
		out.PermissionTimeoutSeconds = def.PermissionTimeoutSeconds
	}
	if s.checkTheme(out.Theme) != nil {
		out.Theme = def.Theme
	}
	out.EnvPassthrough, out.EnvDrop = s.cleanEnvLists(out.EnvPassthrough, out.EnvDrop)
	return out
}

// Update validates every field and stores the whole set, or nothing.
func (s *Service) Update(ctx context.Context, in api.Settings) (api.Settings, error) {
	if err := s.check(&in); err != nil {
		return api.Settings{}, err
	}
	if in.EnvPassthrough == nil {
		in.EnvPassthrough = []string{}
	}
	if in.EnvDrop == nil {
		in.EnvDrop = []string{}
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return api.Settings{}, fmt.Errorf("encode settings: %w", err)
	}
	if _, err := s.db.ExecContext(ctx,
		"INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		key, string(raw)); err != nil {
		return api.Settings{}, errs.Wrap(err, errs.StorageUnavailable, "could not save settings: the database did not answer; check free disk space")
	}
	return in, nil
}

func (s *Service) check(v *api.Settings) error {
	return errors.Join(
		s.checkPermission(v.DefaultPermissionMode),
		s.checkShell(v.DefaultCommandShell),
		s.checkTimeout(v.PermissionTimeoutSeconds),
		s.checkTheme(v.Theme),
		s.checkEnvLists(v.EnvPassthrough, v.EnvDrop),
	)
}

func (s *Service) checkPermission(mode string) error {
	switch mode {
	case api.PermissionAsk, api.PermissionAcceptEdits, api.PermissionAuto:
		return nil
	}
	return errs.New(errs.InvalidArgument, "defaultPermissionMode must be ask, accept-edits or auto, not %q", mode).With("field", "defaultPermissionMode")
}

func (s *Service) checkShell(id string) error {
	if shells.Supported(s.goos, id) && (s.Available == nil || s.Available(id)) {
		return nil
	}
	var ids []string
	for _, e := range shells.ForPlatform(s.goos) {
		ids = append(ids, e.ID)
	}
	if shells.Supported(s.goos, id) {
		return errs.New(errs.CommandShellInvalid, "%q is not installed on this machine; install it or choose another of %s", id, strings.Join(ids, ", ")).With("field", "defaultCommandShell")
	}
	return errs.New(errs.CommandShellInvalid, "%q is not a command shell on %s; choose one of %s", id, s.goos, strings.Join(ids, ", ")).With("field", "defaultCommandShell")
}

func (s *Service) checkTimeout(seconds int) error {
	if seconds >= 0 && seconds <= MaxPermissionTimeoutSeconds {
		return nil
	}
	return errs.New(errs.InvalidArgument, "permissionTimeoutSeconds must be 0 (no deadline) to %d, not %d", MaxPermissionTimeoutSeconds, seconds).With("field", "permissionTimeoutSeconds")
}

func (s *Service) checkTheme(theme string) error {
	switch theme {
	case api.ThemeSystem, api.ThemeLight, api.ThemeDark:
		return nil
	}
	return errs.New(errs.InvalidArgument, "theme must be system, light or dark, not %q", theme).With("field", "theme")
}
