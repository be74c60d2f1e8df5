package desktop

import (
	"context"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

func TestInitialSession(t *testing.T) {
	ctx := context.Background()
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: t.TempDir(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	s, err := core.CreateSession(ctx, api.CreateSessionInput{Title: "named"})
	if err != nil {
		t.Fatal(err)
	}
	shell := &Shell{h: &testApp{core: core}}

	if got, err := shell.InitialSession(); got != nil || err != nil {
		t.Fatalf("without --session: %v, %v; want nil, nil", got, err)
	}
	shell.openSession = s.ID
	got, err := shell.InitialSession()
	if err != nil || got == nil || got.ID != s.ID || got.Title != "named" {
		t.Fatalf("with --session %s: %+v, %v", s.ID, got, err)
	}
	shell.openSession = "no-such-session"
	if _, err := shell.InitialSession(); errs.CodeOf(err) != errs.SessionNotFound {
		t.Fatalf("a missing session: %v, want %s", err, errs.SessionNotFound)
	}
}
