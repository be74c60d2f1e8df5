package hostcore

import (
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// sessionEdits is one session's in-memory edit state: the snapshot store
// (tags and seen lines, edit-contract §2) and the loop guard (§8). It is
// never persisted and goes with the session.
type sessionEdits struct {
	store *hashline.Store
	guard *hashline.Guard
}

type editStates struct {
	mu   sync.Mutex
	byID map[string]*sessionEdits
}

func (e *editStates) get(sessionID string) *sessionEdits {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.byID == nil {
		e.byID = map[string]*sessionEdits{}
	}
	s := e.byID[sessionID]
	if s == nil {
		s = &sessionEdits{store: hashline.NewStore(hashline.DefaultLimits(), nil), guard: hashline.NewGuard()}
		e.byID[sessionID] = s
	}
	return s
}

// drop forgets a session's edit state and its delegates'.
func (e *editStates) drop(sessionID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k := range e.byID {
		if k == sessionID || strings.HasPrefix(k, sessionID+"\x00") {
			delete(e.byID, k)
		}
	}
}

// dropDelegation forgets one delegate run's edit state (it ended).
func (e *editStates) dropDelegation(sessionID, delegationID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.byID, editScope(ToolRequest{SessionID: sessionID, DelegationID: delegationID}))
}

// each runs f on the edit state of a session and its delegates.
func (e *editStates) each(sessionID string, f func(*sessionEdits)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, s := range e.byID {
		if k == sessionID || strings.HasPrefix(k, sessionID+"\x00") {
			f(s)
		}
	}
}

// forgetEdits drops what the session's snapshot store holds for a workspace
// path, so no tag minted before a rollback can anchor an edit.
func (c *Core) forgetEdits(sessionID string, r *pathguard.Resolver, rel string) {
	res, err := r.Resolve(rel)
	if err != nil {
		return
	}
	key := r.Key(res)
	c.edits.each(sessionID, func(s *sessionEdits) { s.store.Invalidate(key) })
}
