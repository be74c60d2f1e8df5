package hostcore_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
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
// that opened last, its page is the one served, every call replaced while
// it waited says so, and no watch is left behind.
func TestBrowserPreviewConcurrentCallsOfOneSession(t *testing.T) {
	e := newPreviewEnv(t, guardReady, "")
	e.configure(api.ModeAgent, api.PermissionAuto)
	e.pane.mu.Lock()
	e.pane.noLoad = true // the calls wait for the pane: long enough to overlap
	e.pane.mu.Unlock()
	const n = 5
	for i := range n {
		dir := filepath.Join(e.project, fmt.Sprintf("p%d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "index.html"), fmt.Sprintf("<title>p%d</title>", i))
	}
	base := inotifyFDs(t)
	for round := range 3 {
		results := make([]tools.Result, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				results[i] = e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": fmt.Sprintf("p%d", i)})
			})
		}
		wg.Wait()
		events, states := e.pane.snapshot()
		last := states[len(states)-1]
		if events[len(events)-1] != api.EventPreviewOpened {
			t.Fatalf("round %d: last event %v", round, events)
		}
		cur := e.core.Preview(e.session.ID)
		if cur == nil || cur.URL != last.URL {
			t.Fatalf("round %d: the pane shows %+v, the last opened was %+v", round, cur, last)
		}
		// The page the pane shows is served; every other call's is not.
		res, err := http.Get(cur.URL)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("round %d: the shown page answers %d", round, res.StatusCode)
		}
		won := 0
		for i, r := range results {
			switch {
			case r.OK && r.Path == cur.Target:
				won++
			case r.OK:
				// Finished before the next call opened: not concurrent.
			case r.Code == errs.Conflict && strings.Contains(r.Message, "replaced in the preview pane by a later BrowserPreview call"):
			default:
				t.Errorf("round %d: call %d = %+v", round, i, r)
			}
		}
		if won != 1 {
			t.Errorf("round %d: %d calls won, want 1: %+v", round, won, results)
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
