package settings_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/envpolicy"
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
		want := api.Settings{DefaultPermissionMode: "ask", DefaultCommandShell: shell, Theme: "system", EnvPassthrough: []string{}, EnvDrop: []string{}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s defaults = %+v; want %+v", goos, got, want)
		}
	}
}

func TestUpdateValidates(t *testing.T) {
	svc, _ := newService(t, "linux")
	good := api.Settings{DefaultPermissionMode: "accept-edits", DefaultCommandShell: "bash", InlineVisualizations: true, PermissionTimeoutSeconds: 120, Theme: "dark",
		EnvPassthrough: []string{"GITHUB_TOKEN"}, EnvDrop: []string{"DATABASE_URL"}}
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
		{"env name with a space", func(s *api.Settings) { s.EnvPassthrough = []string{"GITHUB TOKEN"} }, errs.InvalidArgument, "envPassthrough"},
		{"env name with =", func(s *api.Settings) { s.EnvDrop = []string{"A=B"} }, errs.InvalidArgument, "envDrop"},
		{"env name empty", func(s *api.Settings) { s.EnvDrop = []string{""} }, errs.InvalidArgument, "envDrop"},
		{"env name starting with a digit", func(s *api.Settings) { s.EnvPassthrough = []string{"1PASSWORD"} }, errs.InvalidArgument, "envPassthrough"},
		{"env pattern", func(s *api.Settings) { s.EnvDrop = []string{"*_TOKEN"} }, errs.InvalidArgument, "envDrop"},
		{"env name twice", func(s *api.Settings) { s.EnvDrop = []string{"X", "X"} }, errs.InvalidArgument, "envDrop"},
		{"env name in both lists", func(s *api.Settings) { s.EnvPassthrough = []string{"X"}; s.EnvDrop = []string{"X"} }, errs.InvalidArgument, "envDrop"},
		{"too many env names", func(s *api.Settings) { s.EnvDrop = manyNames(envpolicy.MaxNames + 1) }, errs.InvalidArgument, "envDrop"},
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
			if got, _ := svc.Get(t.Context()); !reflect.DeepEqual(got, good) {
				t.Errorf("a rejected update changed settings: %+v", got)
			}
		})
	}
}

func TestPersistsAndRepairsStaleValues(t *testing.T) {
	svc, st := newService(t, "linux")
	want := api.Settings{DefaultPermissionMode: "auto", DefaultCommandShell: "bash", PermissionTimeoutSeconds: 30, Theme: "light",
		EnvPassthrough: []string{"NPM_TOKEN"}, EnvDrop: []string{"DATABASE_URL", "KUBECONFIG"}}
	if _, err := svc.Update(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	if got, _ := settings.New(st.DB(), "linux").Get(t.Context()); !reflect.DeepEqual(got, want) {
		t.Errorf("persisted = %+v; want %+v", got, want)
	}
	// The same database opened on Windows: only the shell is reset.
	got, err := settings.New(st.DB(), "windows").Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want.DefaultCommandShell = "windows-powershell"
	if !reflect.DeepEqual(got, want) {
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
	if got := svc.Decode(stored); !reflect.DeepEqual(got, in) {
		t.Errorf("Decode = %+v; want %+v", got, in)
	}
	svc.Available = func(id string) bool { return id != "windows-pwsh" }
	want := in
	want.DefaultCommandShell = "windows-powershell"
	if got := svc.Decode(stored); !reflect.DeepEqual(got, want) {
		t.Errorf("Decode after the shell went away = %+v; want %+v", got, want)
	}
	if got := svc.Decode(settings.Stored{}); !reflect.DeepEqual(got, svc.Defaults()) {
		t.Errorf("Decode of nothing saved = %+v; want the defaults", got)
	}
}

func manyNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("VAR_%d", i)
	}
	return out
}

// The environment lists round-trip through the database, nil is stored as
// empty, and names compare as the OS does.
func TestEnvListsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		goos       string
		pass, drop []string
		ok         bool
	}{
		{"linux", []string{"GITHUB_TOKEN", "github_token"}, []string{"KUBECONFIG"}, true},
		{"windows", []string{"GITHUB_TOKEN", "github_token"}, nil, false},
		{"windows", []string{"Path"}, []string{"PATH"}, false},
		{"linux", []string{"Path"}, []string{"PATH"}, true},
		{"linux", nil, nil, true},
	} {
		t.Run(fmt.Sprintf("%s %v %v", tc.goos, tc.pass, tc.drop), func(t *testing.T) {
			svc, st := newService(t, tc.goos)
			in := svc.Defaults()
			in.EnvPassthrough, in.EnvDrop = tc.pass, tc.drop
			_, err := svc.Update(t.Context(), in)
			if (err == nil) != tc.ok {
				t.Fatalf("Update = %v, want ok=%v", err, tc.ok)
			}
			got, err := settings.New(st.DB(), tc.goos).Get(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			want := []string{}
			if tc.ok && tc.pass != nil {
				want = tc.pass
			}
			if !reflect.DeepEqual(got.EnvPassthrough, want) || got.EnvDrop == nil {
				t.Errorf("read back %#v / %#v", got.EnvPassthrough, got.EnvDrop)
			}
			b, _ := json.Marshal(got)
			if !strings.Contains(string(b), `"envDrop":[`) {
				t.Errorf("JSON %s: the lists must be arrays, never null", b)
			}
		})
	}
}

// A stored row whose lists no longer validate (written by hand or by
// another version) keeps its valid names; a name in both lists stays
// dropped: a damaged row never exposes a dropped variable.
func TestEnvListsRepairedFailingClosed(t *testing.T) {
	svc, st := newService(t, "linux")
	raw := `{"defaultPermissionMode":"ask","defaultCommandShell":"bash","theme":"system",` +
		`"envPassthrough":["GITHUB_TOKEN","bad name","DATABASE_URL","GITHUB_TOKEN"],"envDrop":["DATABASE_URL","x=y",null]}`
	if _, err := st.DB().ExecContext(t.Context(), "INSERT INTO settings (key, value) VALUES ('app', ?)", raw); err != nil {
		t.Fatal(err)
	}
	got, err := svc.Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.EnvPassthrough, []string{"GITHUB_TOKEN"}) || !reflect.DeepEqual(got.EnvDrop, []string{"DATABASE_URL"}) {
		t.Errorf("repaired lists = %#v / %#v", got.EnvPassthrough, got.EnvDrop)
	}
	if got.DefaultPermissionMode != "ask" {
		t.Errorf("the other fields were lost: %+v", got)
	}
}
