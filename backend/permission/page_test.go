package permission_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// A page the session did not write asks in every mode but auto, in every
// operating mode (BrowserPreview stays available in Plan and Goal), until
// the user allows pages for the session; a page it wrote never asks.
func TestUnwrittenPage(t *testing.T) {
	preview := func(op, mode string) permission.Input {
		return permission.Input{Tool: "BrowserPreview", Class: permission.ClassRead, Risk: permission.Low,
			OperatingMode: op, PermissionMode: mode}
	}
	tests := []struct {
		name    string
		edit    func(*permission.Input)
		op      string
		mode    string
		want    permission.Decision
		granted string
	}{
		{"written page, ask", nil, "agent", "ask", permission.Allow, ""},
		{"unwritten, ask", func(in *permission.Input) { in.UnwrittenPage = true }, "agent", "ask", permission.Ask, permission.PageGrant},
		{"unwritten, accept-edits", func(in *permission.Input) { in.UnwrittenPage = true }, "agent", "accept-edits", permission.Ask, permission.PageGrant},
		{"unwritten, auto", func(in *permission.Input) { in.UnwrittenPage = true }, "agent", "auto", permission.Allow, ""},
		{"unwritten, plan", func(in *permission.Input) { in.UnwrittenPage = true }, "plan", "ask", permission.Ask, permission.PageGrant},
		{"unwritten, goal", func(in *permission.Input) { in.UnwrittenPage = true }, "goal", "accept-edits", permission.Ask, permission.PageGrant},
		{"unwritten, plan auto", func(in *permission.Input) { in.UnwrittenPage = true }, "plan", "auto", permission.Allow, ""},
		{"unwritten, granted", func(in *permission.Input) { in.UnwrittenPage, in.PageGranted = true, true }, "agent", "ask", permission.Allow, ""},
		// The tool-name grant (an ordinary allow-session) is not the page grant.
		{"unwritten, tool grant only", func(in *permission.Input) { in.UnwrittenPage, in.Granted = true, true }, "agent", "ask", permission.Ask, permission.PageGrant},
		// A delegate's auto override does not lift it when the session asks.
		{"unwritten, override auto", func(in *permission.Input) { in.UnwrittenPage, in.SessionMode = true, "ask" }, "agent", "auto", permission.Ask, permission.PageGrant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := preview(tt.op, tt.mode)
			if tt.edit != nil {
				tt.edit(&in)
			}
			v := permission.Evaluate(in)
			if v.Decision != tt.want || v.Grant != tt.granted {
				t.Fatalf("Evaluate = %+v, want %s (grant %q)", v, tt.want, tt.granted)
			}
			if v.Decision == permission.Ask && v.Reason == "" {
				t.Error("a card without a reason")
			}
			if v.Protected() {
				t.Error("a page card is not a protected-path card")
			}
		})
	}
}
