package desktop

import (
	"context"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Shell is the app itself: what it is, the native folder picker and the
// session the window opens on.
type Shell struct {
	h           Handle
	openSession string // named by --session
	opens       *Opens // what starts asked to open (open.go)
}

// Info describes the app; it fails with the startup error when the backend
// could not start, so the UI can show why.
func (s *Shell) Info() (api.AppInfo, error) {
	return with(s.h, func(_ context.Context, c *hostcore.Core) (api.AppInfo, error) { return c.Info(), nil })
}

// ChooseFolder opens the native folder picker; "" means the user cancelled.
func (s *Shell) ChooseFolder(title string) (string, error) {
	ctx := s.h.Window()
	if ctx == nil {
		return "", errs.New(errs.Internal, "the window is not ready yet; try again")
	}
	return wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
}

// InitialSession is the session the window opens on at start (the
// --session flag), or nil when none was named. A named session that no
// longer exists is an error the window shows, with what to do instead.
func (s *Shell) InitialSession() (*api.Session, error) {
	if s.openSession == "" {
		return nil, nil
	}
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (*api.Session, error) {
		got, err := c.Session(ctx, s.openSession)
		if err != nil {
			if errs.CodeOf(err) == errs.SessionNotFound {
				return nil, errs.New(errs.SessionNotFound, "the session %s named by --session does not exist (it may have been deleted); pick one in the sidebar", s.openSession)
			}
			return nil, err
		}
		return &got, nil
	})
}
