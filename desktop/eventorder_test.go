//go:build !dev

package desktop

import "testing"

func TestEventsPassThroughOutsideDevBuilds(t *testing.T) {
	var o EventOrder
	payload := map[string]string{"delta": "a"}
	name, data := o.Wrap("agent:text", payload)
	if name != "agent:text" || data.(map[string]string)["delta"] != "a" {
		t.Errorf("wrap = %q, %v; want the event unchanged", name, data)
	}
}
