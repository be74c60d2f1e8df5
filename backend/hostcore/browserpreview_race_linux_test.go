package hostcore_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// inotifyFDs counts this process's inotify instances: one per live
// live-reload watch.
func inotifyFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && l == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

// BrowserPreview calls of one session at once: the pane ends on the call
// that opened last, only its page is served, every call replaced while it
// waited says so at once, and no watch is left behind. The pane holds every
// page until all calls have opened theirs, and the wait for a report is far
// longer than the test: each call ends on an event, never on a timeout.
func TestBrowserPreviewConcurrentCallsOfOneSession(t *testing.T) {
	const n, rounds = 5, 3
	e := newPreviewEnvWaiting(t, guardReady, `{"title":"the winner"}`, time.Minute)
	e.configure(api.ModeAgent, api.PermissionAsk)
	held := make(chan api.PreviewState, n)
	e.pane.mu.Lock()
	e.pane.held = held
	e.pane.mu.Unlock()
	for i := range n {
		dir := filepath.Join(e.project, fmt.Sprintf("p%d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "index.html"), fmt.Sprintf("<title>p%d</title>", i))
	}
	base := inotifyFDs(t)
	for round := range rounds {
		results := make([]tools.Result, n)
		var wg sync.WaitGroup
		for i := range n {
			req := hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "turn", ToolCallID: fmt.Sprintf("r%d-c%d", round, i),
				Tool: tools.BrowserPreview, Args: json.RawMessage(fmt.Sprintf(`{"path":"p%d"}`, i))}
			wg.Go(func() { results[i] = e.core.Execute(t.Context(), req) })
		}
		// Every call opens its page before the pane loads any.
		shown := make([]api.PreviewState, 0, n)
		for range n {
			select {
			case s := <-held:
				shown = append(shown, s)
			case <-time.After(30 * time.Second):
				t.Fatalf("round %d: %d of %d calls opened a page", round, len(shown), n)
			}
		}
		last := shown[n-1]
		// The n-1 replaced calls end without the pane; the last one waits
		// for its page, which the pane now loads.
		e.pane.load(last.URL)
		ended := make(chan struct{})
		go func() { wg.Wait(); close(ended) }()
		select {
		case <-ended:
		case <-time.After(30 * time.Second):
			t.Fatalf("round %d: calls still wait after the pane loaded the last page", round)
		}

		if cur := e.core.Preview(e.session.ID); cur == nil || cur.URL != last.URL || cur.Title != "the winner" {
			t.Fatalf("round %d: the pane shows %+v, the last opened was %+v", round, cur, last)
		}
		for _, s := range shown {
			res, err := http.Get(s.URL)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if want := map[bool]int{true: http.StatusOK, false: http.StatusNotFound}[s.URL == last.URL]; res.StatusCode != want {
				t.Errorf("round %d: %s answers %d, want %d", round, s.Target, res.StatusCode, want)
			}
		}
		// A replaced call names what the pane showed when it learnt: a page
		// opened after its own.
		order := map[string]int{}
		for k, s := range shown {
			order[s.Target] = k
		}
		later := func(i int, msg string) bool {
			own, ok := order[fmt.Sprintf("p%d/index.html", i)]
			for target, k := range order {
				if ok && k > own && strings.Contains(msg, "replaced in the preview pane by a later BrowserPreview call of this session (now showing "+target+")") {
					return true
				}
			}
			return false
		}
		won := 0
		for i, r := range results {
			switch {
			case r.OK && r.Path == last.Target && strings.Contains(r.Content, "Title: the winner"):
				won++
			case !r.OK && r.Code == errs.Conflict && later(i, r.Message):
			default:
				t.Errorf("round %d: call %d = %+v", round, i, r)
			}
		}
		if won != 1 {
			t.Errorf("round %d: %d calls won, want 1", round, won)
		}
		if got := inotifyFDs(t); got != base+1 {
			t.Errorf("round %d: %d inotify instances, want %d (one watch for the one pane)", round, got, base+1)
		}
		e.core.ClosePreview(e.session.ID)
		if got := inotifyFDs(t); got != base {
			t.Errorf("round %d: %d inotify instances after close, want %d", round, got, base)
		}
	}
}

// A call waiting for its page learns at once that the user closed the pane,
// and its watch ends with the pane.
func TestBrowserPreviewClosedWhileWaiting(t *testing.T) {
	e := newPreviewEnvWaiting(t, guardReady, "", time.Minute)
	held := make(chan api.PreviewState, 1)
	e.pane.mu.Lock()
	e.pane.held = held
	e.pane.mu.Unlock()
	base := inotifyFDs(t)
	done := make(chan tools.Result, 1)
	go func() { done <- e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site"}) }()
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("the call opened no page")
	}
	e.core.ClosePreview(e.session.ID)
	var res tools.Result
	select {
	case res = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the call still waits for a closed pane")
	}
	if res.OK || res.Code != errs.Conflict || !strings.Contains(res.Message, "was closed before the page reported") {
		t.Errorf("closed while waiting: %+v", res)
	}
	if got := inotifyFDs(t); got != base {
		t.Errorf("%d inotify instances after close, want %d", got, base)
	}
}
