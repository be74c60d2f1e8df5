package desktop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/platform/instance"
)

// Opens is what the app was asked to open and the window has not read
// yet: the targets of its own command line, then each later start's
// hand-off. The window drains it (Shell.PendingOpens) when it starts and
// on each app:open event.
type Opens struct {
	mu      sync.Mutex
	pending []instance.Request
}

// Push queues a start's arguments.
func (o *Opens) Push(req instance.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending = append(o.pending, req)
}

func (o *Opens) take() []instance.Request {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.pending
	o.pending = nil
	return out
}

// PendingOpens returns, once, what later starts (and this app's own
// command line) asked the window to open, in order: project folders,
// .piplug files, sessions, and arguments that name none of them.
func (s *Shell) PendingOpens() ([]api.OpenRequest, error) {
	reqs := s.opens.take()
	out := []api.OpenRequest{}
	if len(reqs) == 0 {
		return out, nil
	}
	return with(s.h, func(ctx context.Context, c *hostcore.Core) ([]api.OpenRequest, error) {
		for _, req := range reqs {
			session, targets := SplitOpenArgs(req.Args)
			if session != "" {
				out = append(out, openSession(ctx, c, session))
			}
			for _, t := range targets {
				out = append(out, ClassifyOpen(t, req.Dir))
			}
		}
		return out, nil
	})
}

func openSession(ctx context.Context, c *hostcore.Core, id string) api.OpenRequest {
	got, err := c.Session(ctx, id)
	if err != nil {
		msg := errs.ToPayload(err).Message
		if errs.CodeOf(err) == errs.SessionNotFound {
			msg = "the session " + id + " does not exist (it may have been deleted); pick one in the sidebar"
		}
		return api.OpenRequest{Kind: api.OpenRefused, Path: "--session " + id, Message: msg}
	}
	return api.OpenRequest{Kind: api.OpenSession, Session: &got}
}

// SplitOpenArgs reads a start's arguments the way main does: the session
// of --session, and the targets (every argument that is not a flag). The
// data folder flag is dropped: a hand-off only reaches the app on the same
// one.
func SplitOpenArgs(args []string) (session string, targets []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case a == "--":
			return session, append(targets, args[i+1:]...)
		case !strings.HasPrefix(a, "-") || a == "-":
			targets = append(targets, a)
		case name == "session" || name == "data-dir":
			if !hasValue && i+1 < len(args) {
				i++
				value = args[i]
			}
			if name == "session" {
				session = value
			}
		}
	}
	return session, targets
}

// ClassifyOpen says what target (relative to dir) is to the window: a
// folder to open as a project, a .piplug to install, or neither.
func ClassifyOpen(target, dir string) api.OpenRequest {
	p := target
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	refuse := func(msg string) api.OpenRequest {
		return api.OpenRequest{Kind: api.OpenRefused, Path: target, Message: msg}
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return refuse(target + " cannot be opened: it does not exist or is not readable; check the path")
	}
	fi, err := os.Stat(real)
	switch {
	case err != nil:
		return refuse(target + " cannot be opened: " + err.Error())
	case fi.IsDir():
		return api.OpenRequest{Kind: api.OpenFolder, Path: real}
	case fi.Mode().IsRegular() && strings.EqualFold(filepath.Ext(real), ".piplug"):
		return api.OpenRequest{Kind: api.OpenPlugin, Path: real}
	}
	return refuse("PI-Desktop opens a project folder or a .piplug plugin; " + target + " is neither")
}

// LooksLikeOpenTarget tells a target on the command line from a mistyped
// command: a path (with a separator, "." or ".."), a .piplug, or anything
// that exists.
func LooksLikeOpenTarget(arg string) bool {
	if strings.ContainsAny(arg, `/\`) || arg == "." || arg == ".." || strings.EqualFold(filepath.Ext(arg), ".piplug") {
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}
