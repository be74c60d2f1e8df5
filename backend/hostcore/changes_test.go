package hostcore_test

import (
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// announced records every event as the window would receive it: name and
// JSON payload.
type announced struct {
	mu     sync.Mutex
	events []string
}

func (a *announced) Emit(event string, payload any) {
	b, err := json.Marshal(payload)
	if err != nil {
		b = []byte("unmarshalable: " + err.Error())
	}
	a.mu.Lock()
	a.events = append(a.events, event+" "+string(b))
	a.mu.Unlock()
}

// take returns what was announced since the last take.
func (a *announced) take() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.events
	a.events = nil
	return out
}

// Every operation that changes a project, session, the settings or the
// providers announces it exactly once, from the core, with the payload the
// window has always read (field names and values are wire API).
func TestEveryChangeIsAnnouncedOnceByItsOperation(t *testing.T) {
	sink := &announced{}
	t.Setenv("PI_DESKTOP_PROVIDER", "")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: t.TempDir(), Version: "test", Sink: sink, RgPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	ctx := t.Context()

	p, err := core.AddProject(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got := sink.take(); !reflect.DeepEqual(got, []string{"projects:changed null"}) {
		t.Errorf("AddProject announced %q", got)
	}
	s, err := core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID, Title: "a"})
	if err != nil {
		t.Fatal(err)
	}
	changed := `sessions:changed {"sessionId":"` + s.ID + `","projectId":"` + p.ID + `"}`
	if got := sink.take(); !reflect.DeepEqual(got, []string{changed}) {
		t.Errorf("CreateSession announced %q, want %q", got, changed)
	}
	tmp, err := core.CreateSession(ctx, api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sink.take(), []string{`sessions:changed {"sessionId":"` + tmp.ID + `","projectId":""}`}; !reflect.DeepEqual(got, want) {
		t.Errorf("CreateSession (temporary) announced %q, want %q", got, want)
	}

	var prov providers.Profile
	tests := []struct {
		name string
		op   func() error
		want []string
	}{
		{"RenameSession", func() error { _, err := core.RenameSession(ctx, s.ID, "b"); return err }, []string{changed}},
		{"archive", func() error { _, err := core.SetSessionArchived(ctx, s.ID, true); return err }, []string{changed}},
		{"restore", func() error { _, err := core.SetSessionArchived(ctx, s.ID, false); return err }, []string{changed}},
		{"ConfigureSession", func() error {
			_, err := core.ConfigureSession(ctx, s.ID, api.SessionConfig{OperatingMode: api.ModePlan})
			return err
		}, []string{changed}},
		{"UpdateSettings", func() error {
			cur, err := core.Settings(ctx)
			if err != nil {
				return err
			}
			cur.InlineVisualizations = !cur.InlineVisualizations
			_, err = core.UpdateSettings(ctx, cur)
			return err
		}, nil}, // checked below: the payload is the stored settings
		{"SaveProvider", func() (err error) {
			prov, err = core.SaveProvider(ctx, providers.Profile{API: "anthropic", Model: "m"}, "sk-test-key-123456")
			return err
		}, []string{"providers:changed null"}},
		{"SetDefaultProvider", func() error { return core.SetDefaultProvider(ctx, prov.ID) }, []string{"providers:changed null"}},
		{"RemoveProvider", func() error { return core.RemoveProvider(ctx, prov.ID) }, []string{"providers:changed null"}},
		{"SetProjectSetup", func() error { _, err := core.SetProjectSetup(ctx, p.ID, "npm ci"); return err }, []string{"projects:changed null"}},
		{"DeleteSession", func() error { return core.DeleteSession(ctx, s.ID) }, []string{changed}},
		{"RemoveProject", func() error { return core.RemoveProject(ctx, p.ID) }, []string{"projects:changed null"}},
	}
	for _, tt := range tests {
		if err := tt.op(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := sink.take()
		if tt.name == "UpdateSettings" {
			stored, _ := core.Settings(ctx)
			b, _ := json.Marshal(stored)
			tt.want = []string{"settings:changed " + string(b)}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s announced %q, want %q", tt.name, got, tt.want)
		}
	}

	// Reading announces nothing.
	_, _ = core.ListProjects(ctx)
	_, _ = core.ListSessions(ctx, "", false)
	_, _ = core.Session(ctx, tmp.ID)
	_, _ = core.ListProviders(ctx)
	if got := sink.take(); len(got) != 0 {
		t.Errorf("reads announced %q", got)
	}
}

// The services behind the core are reachable only through its operations,
// which keep their invariants (an isolated session gets its worktree, a
// deleted one stops its calls first, each change is announced once).
func TestCoreExposesOperationsNotServices(t *testing.T) {
	typ := reflect.TypeFor[hostcore.Core]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.IsExported() {
			t.Errorf("hostcore.Core exports its field %s (%s); add an operation instead", f.Name, f.Type)
		}
	}
}
