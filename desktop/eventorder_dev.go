//go:build dev

package desktop

import (
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/api"
)

// orderedEvent is the one event a dev build emits: Wails' dev server sends
// each event to the browser from its own goroutine, so two events emitted
// back to back can arrive swapped. The numbered envelope lets the bridge
// (frontend/src/bridge/events.ts) deliver them in emission order.
const orderedEvent = api.EventDevOrdered

type devEnvelope struct {
	Seq  uint64 `json:"seq"`
	Name string `json:"name"`
	Data any    `json:"data"`
}

// EventOrder numbers the events of a dev build.
type EventOrder struct {
	mu  sync.Mutex
	seq uint64
}

// Wrap puts the event in the next numbered envelope.
func (o *EventOrder) Wrap(name string, payload any) (string, any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seq++
	return orderedEvent, devEnvelope{Seq: o.seq, Name: name, Data: payload}
}
