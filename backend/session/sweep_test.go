package session_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
)

func age(t *testing.T, root string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	err := filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func TestSweep(t *testing.T) {
	f := newFixture(t)
	*f.clock = time.Now() // file mtimes are real, so the sweep's clock must be too
	p, _ := f.svc.AddProject(t.Context(), projectDir(t, "p"))
	live, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	idle, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	oldButTouched, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	sixDays, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	const gone = "0190aaaa-dead-7000-8000-000000000000"

	scratch := func(id string) string { return filepath.Join(f.layout.Scratch(), id) }
	viz := func(id string) string { return filepath.Join(f.layout.Visualizations(), id) }
	review := func(id string) string { return filepath.Join(f.layout.Reviews(), id) }
	for _, d := range []string{scratch(live.ID), scratch(idle.ID), scratch(oldButTouched.ID), scratch(sixDays.ID), scratch(gone), viz(idle.ID), viz(gone), review(live.ID), review(gone)} {
		mkdirWithFile(t, d)
	}
	age(t, scratch(idle.ID), 8*24*time.Hour)
	age(t, scratch(sixDays.ID), 6*24*time.Hour)
	age(t, viz(idle.ID), 30*24*time.Hour) // a live card never expires by age
	age(t, scratch(oldButTouched.ID), 8*24*time.Hour)
	writeFile(t, filepath.Join(scratch(oldButTouched.ID), "fresh")) // touched deep inside

	// A planted link in place of a dead session's folder points at user data.
	victim := projectDir(t, "victim")
	precious := writeFile(t, filepath.Join(victim, "precious"))
	age(t, victim, 30*24*time.Hour)
	plantedScratch := scratch("0190bbbb-dead-7000-8000-000000000000")
	plantedViz := viz("0190cccc-dead-7000-8000-000000000000")
	for _, l := range []string{plantedScratch, plantedViz} {
		if err := os.Symlink(victim, l); err != nil {
			t.Fatal(err)
		}
	}

	report, err := f.svc.Sweep(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Errors) > 0 {
		t.Errorf("sweep errors: %v", report.Errors)
	}
	want := map[string]bool{
		scratch(live.ID):          true,
		scratch(idle.ID):          false, // untouched > 7 days
		scratch(oldButTouched.ID): true,
		scratch(sixDays.ID):       true,  // within 7 days
		scratch(gone):             false, // session gone
		viz(idle.ID):              true,
		viz(gone):                 false,
		review(live.ID):           true,
		review(gone):              false,
		plantedScratch:            false, // the link is removed as a link
		plantedViz:                false,
	}
	for p, keep := range want {
		if exists(p) != keep {
			t.Errorf("%s: exists=%v, want %v", p, exists(p), keep)
		}
	}
	if !exists(precious) {
		t.Fatal("the sweep followed a planted link and deleted user data")
	}
}

func TestSweepSkipsRedirectedBase(t *testing.T) {
	f := newFixture(t)
	victim := projectDir(t, "victim")
	precious := filepath.Join(victim, "0190dddd-dead-7000-8000-000000000000")
	mkdirWithFile(t, precious)
	if err := os.RemoveAll(f.layout.Visualizations()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, f.layout.Visualizations()); err != nil {
		t.Fatal(err)
	}
	report, err := f.svc.Sweep(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !exists(precious) {
		t.Fatal("the sweep traversed a redirected visualization base")
	}
	if len(report.Skipped) != 1 {
		t.Errorf("skipped = %v; want the redirected base reported", report.Skipped)
	}
}
