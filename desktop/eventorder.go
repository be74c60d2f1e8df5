//go:build !dev

package desktop

// EventOrder passes events through unchanged: the desktop window receives
// them in the order they are emitted.
type EventOrder struct{}

// Wrap returns the event as it is sent to the window.
func (*EventOrder) Wrap(name string, payload any) (string, any) { return name, payload }
