package plugin

import (
	"encoding/json"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// The action is read with the exact key the plugin's process reads; a
// differently cased key must not pass for a plan-safe action.
func TestActionReadsTheExactKey(t *testing.T) {
	x := NewTool("dev.acme", "Acme", AgentTool{Name: "files", HasAction: true, Risk: permission.Low, PlanSafeActions: []string{"read"}}, nil)
	tests := []struct{ args, want string }{
		{`{"action":"read"}`, "read"},
		{`{"action":"delete","path":"x"}`, "delete"},
		{`{"ACTION":"read"}`, ""},
		{`{"Action":"read","action":"read"}`, ""},
		{`{"path":"x"}`, ""},
		{`{"action":7}`, ""},
		{`not json`, ""},
	}
	for _, tc := range tests {
		if got := x.Action(json.RawMessage(tc.args)); got != tc.want {
			t.Errorf("Action(%s) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
