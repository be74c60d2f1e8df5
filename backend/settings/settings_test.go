package settings_test

import (
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/settings"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

func newService(t *testing.T, goos string) (*settings.Service, *store.Store) {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return settings.New(st.DB(), goos), st
}

func TestDefaults(t *testing.T) {
	for goos, shell := range map[string]string{"linux": "bash", "darwin": "bash", "windows": "windows-powershell"} {
		svc, _ := newService(t, goos)
		got, err := svc.Get(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		want := api.Settings{DefaultPermissionMode: "ask", DefaultCommandShell: shell, Theme: "system"}
		if got != want {
			t.Errorf("%s defaults = %+v; want %+v", goos, got, want)
		}
	}
}

func TestUpdateValidates(t *testing.T) {
	svc, _ := newService(t, "linux")
	good := api.Settings{DefaultPermissionMode: "accept-edits", DefaultCommandShell: "bash", InlineVisualizations: true, PermissionTimeoutSeconds: 120, Theme: "dark"}
	tests := []struct {
		name   string
		change func(*api.Settings)
		code   errs.Code
		field  string
	}{
		{"permission", func(s *api.Settings) { s.DefaultPermissionMode = "inherit" }, errs.InvalidArgument, "defaultPermissionMode"},
		{"shell of another platform", func(s *api.Settings) { s.DefaultCommandShell = "cmd" }, errs.CommandShellInvalid, "defaultCommandShell"},
		{"executable path as shell", func(s *api.Settings) { s.DefaultCommandShell = "/bin/sh" }, errs.CommandShellInvalid, "defaultCommandShell"},
		{"negative timeout", func(s *api.Settings) { s.PermissionTimeoutSeconds = -1 }, errs.InvalidArgument, "permissionTimeoutSeconds"},
		{"huge timeout", func(s *api.Settings) { s.PermissionTimeoutSeconds = settings.MaxPermissionTimeoutSeconds + 1 }, errs.InvalidArgument, "permissionTimeoutSeconds"},
		{"theme", func(s *api.Settings) { s.Theme = "neon" }, errs.InvalidArgument, "theme"},
	}
	if _, err := svc.Update(t.Context(), good); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := good
			bad.InlineVisualizations = false // a valid change riding along must not be stored either
			tt.change(&bad)
			_, err := svc.Update(t.Context(), bad)
			e := errs.As(err)
			if e == nil || e.Code != tt.code || e.Details["field"] != tt.field {
				t.Fatalf("Update = %v; want %s on %s", err, tt.code, tt.field)
			}
			if got, _ := svc.Get(t.Context()); got != good {
				t.Errorf("a rejected update changed settings: %+v", got)
			}
		})
	}
}

func TestPersistsAndRepairsStaleValues(t *testing.T) {
	svc, st := newService(t, "linux")
	want := api.Settings{DefaultPermissionMode: "auto", DefaultCommandShell: "bash", PermissionTimeoutSeconds: 30, Theme: "light"}
	if _, err := svc.Update(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	if got, _ := settings.New(st.DB(), "linux").Get(t.Context()); got != want {
		t.Errorf("persisted = %+v; want %+v", got, want)
	}
	// The same database opened on Windows: only the shell is reset.
	got, err := settings.New(st.DB(), "windows").Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want.DefaultCommandShell = "windows-powershell"
	if got != want {
		t.Errorf("on another platform = %+v; want %+v", got, want)
	}
}

func TestUnavailableShellRefused(t *testing.T) {
	svc, _ := newService(t, "windows")
	svc.Available = func(id string) bool { return id != "windows-pwsh" }
	in := svc.Defaults()
	in.DefaultCommandShell = "windows-pwsh"
	if _, err := svc.Update(t.Context(), in); !errs.Is(err, errs.CommandShellInvalid) {
		t.Errorf("an uninstalled shell = %v; want COMMAND_SHELL_INVALID", err)
	}
	in.DefaultCommandShell = "git-bash"
	if _, err := svc.Update(t.Context(), in); err != nil {
		t.Errorf("an installed shell = %v", err)
	}
}

// A loaded row is checked against the machine when decoded, not when
// loaded: a cached row still notices a shell uninstalled since.
func TestDecodeChecksTheMachineEachTime(t *testing.T) {
	svc, _ := newService(t, "windows")
	in := svc.Defaults()
	in.DefaultCommandShell = "windows-pwsh"
	in.DefaultPermissionMode = "auto"
	if _, err := svc.Update(t.Context(), in); err != nil {
		t.Fatal(err)
	}
	stored, err := svc.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := svc.Decode(stored); got != in {
		t.Errorf("Decode = %+v; want %+v", got, in)
	}
	svc.Available = func(id string) bool { return id != "windows-pwsh" }
	want := in
	want.DefaultCommandShell = "windows-powershell"
	if got := svc.Decode(stored); got != want {
		t.Errorf("Decode after the shell went away = %+v; want %+v", got, want)
	}
	if got := svc.Decode(settings.Stored{}); got != svc.Defaults() {
		t.Errorf("Decode of nothing saved = %+v; want the defaults", got)
	}
}
