package hostcore

import (
	"context"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// callKey names one tool call of one session.
type callKey struct{ session, call string }

type cancelRecord struct {
	tool   string
	cancel context.CancelFunc
}

// tombstoneLimit bounds the remembered aborts of calls that had not been
// registered yet (a Stop that raced ahead of its call).
const tombstoneLimit = 4096

// cancels registers every call before anything else happens to it, so a
// Stop reaches a call wherever it waits: approval, admission or running.
type cancels struct {
	mu         sync.Mutex
	live       map[callKey]cancelRecord
	tombstones map[callKey]string // aborted before registration → tool name
	order      []callKey          // tombstone insertion order, for the bound
}

func newCancels() *cancels {
	return &cancels{live: map[callKey]cancelRecord{}, tombstones: map[callKey]string{}}
}

// register ties (session, call) to tool and returns a context cancelled by
// abort. A call id already in flight, or aborted before it arrived for the
// same tool, is refused with TOOL_ABORTED; a record never carries over to a
// different tool that reuses the id.
func (c *cancels) register(ctx context.Context, session, call, tool string) (context.Context, func(), error) {
	k := callKey{session, call}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.tombstones[k]; ok && t == tool {
		delete(c.tombstones, k)
		return nil, nil, errs.New(errs.ToolAborted, "%s was stopped before it started", tool)
	}
	if rec, ok := c.live[k]; ok {
		return nil, nil, errs.New(errs.Conflict, "tool call %s is already running as %s; use a new call id", call, rec.tool).With("toolCallId", call)
	}
	ctx, cancel := context.WithCancel(ctx)
	c.live[k] = cancelRecord{tool: tool, cancel: cancel}
	release := func() {
		c.mu.Lock()
		if rec, ok := c.live[k]; ok && rec.tool == tool {
			delete(c.live, k)
		}
		c.mu.Unlock()
		cancel()
	}
	return ctx, release, nil
}

// abort cancels one call. tool must match the registered call; an unknown
// call leaves a tombstone so it cannot start later.
func (c *cancels) abort(session, call, tool string) bool {
	k := callKey{session, call}
	c.mu.Lock()
	defer c.mu.Unlock()
	if rec, ok := c.live[k]; ok {
		if rec.tool != tool {
			return false
		}
		rec.cancel()
		return true
	}
	if _, ok := c.tombstones[k]; !ok {
		c.order = append(c.order, k)
	}
	c.tombstones[k] = tool
	for len(c.order) > tombstoneLimit {
		delete(c.tombstones, c.order[0])
		c.order = c.order[1:]
	}
	return false
}

// stopSession cancels every in-flight call of a session.
func (c *cancels) stopSession(session string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, rec := range c.live {
		if k.session == session {
			rec.cancel()
			n++
		}
	}
	return n
}

// stopAll cancels every in-flight call (shutdown).
func (c *cancels) stopAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rec := range c.live {
		rec.cancel()
	}
}
