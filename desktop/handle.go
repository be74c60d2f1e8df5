// Package desktop is the window's side of the Wails bridge: the services
// bound to the frontend (one per domain), the visualization route and its
// frame guard, and the event ordering of dev builds. It and the root
// package (main.go, app.go) are the only Go code that imports Wails.
package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Handle is the app as the services reach it. The root package's App
// implements it.
type Handle interface {
	// Core is the running backend, or why it could not start (the window
	// shows that error with its next step).
	Core() (*hostcore.Core, error)
	// Window is the Wails context of the window: nil before startup and
	// once shutdown began.
	Window() context.Context
}

// Bind returns the services bound to the frontend, one per domain. Each
// exported method of each is a bridge call; failures reach the window as
// {code, message, details} through the error formatter in main.go.
// openSession is the session named by --session; opens is what the window
// is asked to open (nil: nothing ever is).
func Bind(h Handle, openSession string, opens *Opens) []any {
	if opens == nil {
		opens = &Opens{}
	}
	return []any{
		&Shell{h: h, openSession: openSession, opens: opens},
		&Projects{h: h},
		&Sessions{h: h},
		&Agent{h: h},
		&Review{h: h},
		&Tasks{h: h},
		&Files{h: h},
		&Settings{h: h},
		&Providers{h: h},
		&MCP{h: h},
		&Subagents{h: h},
		&Skills{h: h},
		&Commands{h: h},
		&Rules{h: h},
		&History{h: h},
		&Plugins{h: h},
		&Preview{h: h},
		&Attachments{h: h},
	}
}

// with runs f on the running core, or fails with the startup error: the
// one place a bridge call checks that the backend is up. Calls run on a
// background context: what they start belongs to the host, not the call.
func with[T any](h Handle, f func(context.Context, *hostcore.Core) (T, error)) (T, error) {
	c, err := h.Core()
	if err != nil {
		var zero T
		return zero, err
	}
	return f(context.Background(), c)
}

// do is with for calls that return only an error.
func do(h Handle, f func(context.Context, *hostcore.Core) error) error {
	_, err := with(h, func(ctx context.Context, c *hostcore.Core) (struct{}, error) { return struct{}{}, f(ctx, c) })
	return err
}
