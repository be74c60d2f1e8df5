package main

import (
	"github.com/pi-desktop/pi-desktop/backend/agent"
)

// TranscriptPage returns one page of a session's stored conversation, whole
// turns only: the newest turns holding at least limit messages when before
// and since are empty; the turns older than the turn before (scrolling up);
// or every turn from the turn since on (re-reading what the window shows).
// A long session opens without shipping all of its history to the window.
func (a *App) TranscriptPage(sessionID, before, since string, limit int) (agent.Page, error) {
	c, err := a.ready()
	if err != nil {
		return agent.Page{}, err
	}
	return c.Agent.LoadPage(a.bg(), sessionID, agent.PageQuery{Before: before, Since: since, Limit: limit})
}
