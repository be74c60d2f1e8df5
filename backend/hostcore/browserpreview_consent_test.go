package hostcore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func (p *pane) answerWith(o permission.Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answer = o
}

// cardsShown is the number of approval cards so far and the last one.
func (p *pane) cardsShown() (int, permission.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.asked) == 0 {
		return 0, permission.Request{}
	}
	return len(p.asked), p.asked[len(p.asked)-1]
}

// A page the session wrote opens without a card; a page it did not write
// (the repository's, another session's, or its own changed since) asks
// first, with the reason and the page grant on the card.
func TestBrowserPreviewAsksForPagesTheSessionDidNotWrite(t *testing.T) {
	e := newPreviewEnv(t, guardReady, pageReport)
	e.configure(api.ModeAgent, api.PermissionAcceptEdits) // Write runs without a card
	if r := e.call(e.session.ID, "Write", map[string]any{"path": "mine.html", "content": "<title>mine</title>"}); !r.OK {
		t.Fatalf("Write = %+v", r)
	}
	if r := e.call(e.other.ID, "Write", map[string]any{"path": "theirs.html", "content": "<title>theirs</title>"}); !r.OK {
		t.Fatalf("Write in the other session = %+v", r)
	}
	if res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "mine.html"}); !res.OK {
		t.Fatalf("own page = %+v", res)
	}
	if n, _ := e.pane.cardsShown(); n != 0 {
		t.Fatalf("the session's own page showed %d cards", n)
	}

	// The other project's session wrote theirs.html in its own workspace:
	// copy it here under the same name, unwritten by this session.
	write(t, filepath.Join(e.project, "theirs.html"), "<title>theirs</title>")
	tests := []struct {
		name string
		path string
		prep func()
	}{
		{"repository page", "site", nil},
		{"another session's page", "theirs.html", nil},
		{"own page changed since", "mine.html", func() { write(t, filepath.Join(e.project, "mine.html"), "<title>changed</title>") }},
	}
	for i, tt := range tests {
		if tt.prep != nil {
			tt.prep()
		}
		res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": tt.path})
		n, card := e.pane.cardsShown()
		if !res.OK || n != i+1 {
			t.Fatalf("%s: %+v after %d cards", tt.name, res, n)
		}
		if card.Tool != tools.BrowserPreview || card.Grant != permission.PageGrant || !strings.Contains(card.Reason, "did not write") {
			t.Errorf("%s: card = %+v", tt.name, card)
		}
	}
}

func TestBrowserPreviewUnwrittenPageAnswers(t *testing.T) {
	t.Run("denied", func(t *testing.T) {
		e := newPreviewEnv(t, guardReady, pageReport)
		e.pane.answerWith(permission.Denied)
		res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site"})
		if res.OK || res.Code != errs.ToolDenied {
			t.Fatalf("denied = %+v", res)
		}
		if events, _ := e.pane.snapshot(); len(events) != 0 {
			t.Errorf("a denied page opened the pane: %v", events)
		}
	})
	t.Run("allowed for the session", func(t *testing.T) {
		e := newPreviewEnv(t, guardReady, pageReport)
		write(t, filepath.Join(e.project, "b.html"), "<title>b</title>")
		e.pane.answerWith(permission.AllowSession)
		if res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site"}); !res.OK {
			t.Fatalf("first = %+v", res)
		}
		e.pane.answerWith("") // a card now would stay open: the call must not need one
		res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "b.html"})
		if n, _ := e.pane.cardsShown(); !res.OK || n != 1 {
			t.Fatalf("after allow-session: %+v, %d cards", res, n)
		}
		if res.Approval == nil || res.Approval.By != tools.ApprovedBySession {
			t.Errorf("approval = %+v", res.Approval)
		}
		// The grant is the session's: the other session still asks.
		write(t, filepath.Join(e.otherWS, "x.html"), "<title>x</title>")
		e.pane.answerWith(permission.AllowOnce)
		if res := e.call(e.other.ID, tools.BrowserPreview, map[string]any{"path": "x.html"}); !res.OK {
			t.Fatalf("other session = %+v", res)
		}
		if n, _ := e.pane.cardsShown(); n != 2 {
			t.Errorf("the other session showed no card (%d cards)", n)
		}
	})
	t.Run("auto", func(t *testing.T) {
		e := newPreviewEnv(t, guardReady, pageReport)
		e.configure(api.ModeAgent, api.PermissionAuto)
		e.pane.answerWith("")
		res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site"})
		if n, _ := e.pane.cardsShown(); !res.OK || n != 0 {
			t.Fatalf("auto: %+v, %d cards", res, n)
		}
		if res.Approval == nil || res.Approval.By != tools.ApprovedByMode {
			t.Errorf("approval = %+v", res.Approval)
		}
	})
	for _, mode := range []string{api.ModePlan, api.ModeGoal} {
		t.Run(mode, func(t *testing.T) {
			e := newPreviewEnv(t, guardReady, pageReport)
			e.configure(mode, api.PermissionAsk)
			res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site"})
			if n, _ := e.pane.cardsShown(); !res.OK || n != 1 {
				t.Fatalf("%s: %+v, %d cards", mode, res, n)
			}
		})
	}
	t.Run("failing call shows no card", func(t *testing.T) {
		e := newPreviewEnv(t, guardReady, pageReport)
		if err := os.WriteFile(filepath.Join(e.project, "x.txt"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "x.txt"})
		if n, _ := e.pane.cardsShown(); res.OK || res.Code != errs.InvalidArgument || n != 0 {
			t.Fatalf("%+v, %d cards", res, n)
		}
	})
}
