//go:build !dev

package main

import "testing"

func TestEventsPassThroughOutsideDevBuilds(t *testing.T) {
	var o eventOrder
	payload := map[string]string{"delta": "a"}
	name, data := o.wrap("agent:text", payload)
	if name != "agent:text" || data.(map[string]string)["delta"] != "a" {
		t.Errorf("wrap = %q, %v; want the event unchanged", name, data)
	}
}
