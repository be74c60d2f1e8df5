package preview_test

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/preview"
)

func TestDebouncerFiresOnceAfterTheBurst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var fired atomic.Int32
		d := preview.NewDebouncer(preview.ReloadDelay, func() { fired.Add(1) })
		for range 5 { // a burst, 100 ms apart: never quiet for 250 ms
			d.Trigger()
			time.Sleep(100 * time.Millisecond)
		}
		synctest.Wait()
		if n := fired.Load(); n != 0 {
			t.Fatalf("fired %d times during the burst", n)
		}
		time.Sleep(preview.ReloadDelay - 100*time.Millisecond - time.Millisecond)
		synctest.Wait()
		if n := fired.Load(); n != 0 {
			t.Fatalf("fired %d times before 250 ms of quiet", n)
		}
		time.Sleep(2 * time.Millisecond)
		synctest.Wait()
		if n := fired.Load(); n != 1 {
			t.Fatalf("fired %d times after the quiet period, want 1", n)
		}
		d.Trigger()
		d.Stop()
		time.Sleep(time.Second)
		synctest.Wait()
		if n := fired.Load(); n != 1 {
			t.Fatalf("fired after Stop (%d)", n)
		}
	})
}

func TestWatchReloadsOnChangesBelowTheFolder(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"css", "node_modules/pkg"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	changed := make(chan struct{}, 10)
	w, err := preview.Watch(dir, func() { changed <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	expect := func(what string, want bool) {
		t.Helper()
		select {
		case <-changed:
			if !want {
				t.Fatalf("%s: reloaded", what)
			}
		case <-time.After(wait(want)):
			if want {
				t.Fatalf("%s: no reload", what)
			}
		}
	}
	write := func(rel string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(time.Now().String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html")
	write("index.html") // a burst is one reload
	expect("a page written twice", true)
	expect("after the burst", false)
	write("css/site.css")
	expect("a file in a subfolder", true)
	write("node_modules/pkg/x.js")
	expect("node_modules", false)
	if err := os.Mkdir(filepath.Join(dir, "new"), 0o755); err != nil {
		t.Fatal(err)
	}
	expect("a new folder", true)
	write("new/a.js")
	expect("a file in a folder made after the watch began", true)
}

// wait is how long to wait for a reload: generous when one is due, long
// enough past the 250 ms delay when none is.
func wait(want bool) time.Duration {
	if want {
		return 3 * time.Second
	}
	return time.Second
}
