package main

import (
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// InitialSession is the session the window opens on at start (the
// --session flag), or nil when none was named. A named session that no
// longer exists is an error the window shows, with what to do instead.
func (a *App) InitialSession() (*api.Session, error) {
	if a.openSession == "" {
		return nil, nil
	}
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	s, err := c.Sessions.Get(a.bg(), a.openSession)
	if err != nil {
		if errs.CodeOf(err) == errs.SessionNotFound {
			return nil, errs.New(errs.SessionNotFound, "the session %s named by --session does not exist (it may have been deleted); pick one in the sidebar", a.openSession)
		}
		return nil, err
	}
	return &s, nil
}
