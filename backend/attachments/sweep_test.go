package attachments_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
)

func age(t *testing.T, path string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Sweep removes old files nothing refers to, and partial writes; it keeps
// referenced and young files and names the store never writes.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	s := attachments.New(dir)
	put := func(data string) string {
		sha, err := s.Put([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Join(dir, sha)
	}
	referenced, unreferenced, young := put("referenced"), put("unreferenced"), put("young")
	age(t, referenced, time.Hour)
	age(t, unreferenced, time.Hour)
	partial := filepath.Join(dir, ".put-123")
	foreign := filepath.Join(dir, "notes.txt")
	for _, p := range []string{partial, foreign} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		age(t, p, time.Hour)
	}
	refs := map[string]bool{filepath.Base(referenced): true}
	n, err := s.Sweep(t.Context(), func(sha string) bool { return refs[sha] }, time.Now().Add(-10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{referenced: true, unreferenced: false, young: true, partial: false, foreign: true} {
		if exists(path) != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(path), !want, want)
		}
	}
	if n != 2 {
		t.Errorf("removed %d, want 2", n)
	}
	if n, err := attachments.New(filepath.Join(dir, "never-made")).Sweep(t.Context(), func(string) bool { return false }, time.Now()); n != 0 || err != nil {
		t.Errorf("a store not made yet: %d, %v", n, err)
	}
}

// Storing bytes already stored makes the file young again, so a sweep
// between the store and the row that refers to it keeps it.
func TestPutRefreshesAStoredFile(t *testing.T) {
	dir := t.TempDir()
	s := attachments.New(dir)
	sha, err := s.Put([]byte("again"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, sha)
	age(t, path, time.Hour)
	if _, err := s.Put([]byte("again")); err != nil {
		t.Fatal(err)
	}
	n, err := s.Sweep(t.Context(), func(string) bool { return false }, time.Now().Add(-10*time.Minute))
	if err != nil || n != 0 || !exists(path) {
		t.Errorf("swept %d (%v); the file stored again exists = %v", n, err, exists(path))
	}
}
