package hostcore

import (
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

func (e *editStates) drop(sessionID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.byID, sessionID)
}

// forgetEdits drops what the session's snapshot store holds for a workspace
// path, so no tag minted before a rollback can anchor an edit.
func (c *Core) forgetEdits(sessionID string, r *pathguard.Resolver, rel string) {
	res, err := r.Resolve(rel)
	if err != nil {
		return
	}
	c.edits.get(sessionID).store.Invalidate(r.Key(res))
}
