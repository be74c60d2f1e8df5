//go:build dev

package main

import "sync"

// orderedEvent is the one event a dev build emits: Wails' dev server sends
// each event to the browser from its own goroutine, so two events emitted
// back to back can arrive swapped. The numbered envelope lets the bridge
// (frontend/src/bridge/events.ts) deliver them in emission order.
const orderedEvent = "dev:event"

type devEnvelope struct {
	Seq  uint64 `json:"seq"`
	Name string `json:"name"`
	Data any    `json:"data"`
}

type eventOrder struct {
	mu  sync.Mutex
	seq uint64
}

func (o *eventOrder) wrap(name string, payload any) (string, any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seq++
	return orderedEvent, devEnvelope{Seq: o.seq, Name: name, Data: payload}
}
