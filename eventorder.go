//go:build !dev

package main

// eventOrder passes events through unchanged: the desktop window receives
// them in the order they are emitted.
type eventOrder struct{}

func (*eventOrder) wrap(name string, payload any) (string, any) { return name, payload }
