package main

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
	app := &App{core: core}

	if got, err := app.InitialSession(); got != nil || err != nil {
		t.Fatalf("without --session: %v, %v; want nil, nil", got, err)
	}
	app.openSession = s.ID
	got, err := app.InitialSession()
	if err != nil || got == nil || got.ID != s.ID || got.Title != "named" {
		t.Fatalf("with --session %s: %+v, %v", s.ID, got, err)
	}
	app.openSession = "no-such-session"
	if _, err := app.InitialSession(); errs.CodeOf(err) != errs.SessionNotFound {
		t.Fatalf("a missing session: %v, want %s", err, errs.SessionNotFound)
	}
}
