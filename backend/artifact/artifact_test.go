package artifact_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/artifact"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

// clock ticks one millisecond per reading, so updated_at orders writes.
func clock() func() time.Time {
	t := time.UnixMilli(1_700_000_000_000)
	return func() time.Time { t = t.Add(time.Millisecond); return t }
}

func newStore(t *testing.T) *artifact.Store {
	t.Helper()
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pi.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return artifact.New(db.DB(), clock())
}

func TestRecordKeepsFirstWriterAndListsNewestFirst(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	steps := []struct{ session, path, msg, sum string }{
		{"s1", "a.txt", "m1", "h1"},
		{"s1", "b/c.go", "m1", "h2"},
		{"s1", "a.txt", "m2", "h3"}, // rewritten: last writer and hash change
		{"s2", "a.txt", "m9", "h9"}, // another session's row is its own
	}
	for _, st := range steps {
		if err := s.Record(ctx, st.session, st.path, st.msg, st.sum); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.List(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("s1 artifacts = %+v; want 2", got)
	}
	a := got[0]
	if a.Path != "a.txt" || a.FirstMessageID != "m1" || a.LastMessageID != "m2" || a.SHA256 != "h3" || a.UpdatedAt <= a.CreatedAt {
		t.Errorf("newest = %+v; want a.txt first written by m1, last by m2, hash h3", a)
	}
	if got[1].Path != "b/c.go" {
		t.Errorf("second = %+v; want b/c.go", got[1])
	}
	if err := s.Record(ctx, "s1", "", "m1", "h"); err == nil {
		t.Error("a row without a path was accepted")
	}
}

func TestRehashForgetAndDeleteSession(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	for _, p := range []string{"a", "b"} {
		if err := s.Record(ctx, "s1", p, "m1", "old"); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := s.Rehash(ctx, "s1", "a", "new"); err != nil || !ok {
		t.Fatalf("Rehash a = %v, %v", ok, err)
	}
	if ok, err := s.Rehash(ctx, "s1", "missing", "new"); err != nil || ok {
		t.Fatalf("Rehash of an unrecorded path = %v, %v; want false", ok, err)
	}
	if err := s.Forget(ctx, "s1", "b"); err != nil {
		t.Fatal(err)
	}
	got, _ := s.List(ctx, "s1")
	if len(got) != 1 || got[0].Path != "a" || got[0].SHA256 != "new" {
		t.Fatalf("after rehash and forget = %+v", got)
	}
	if err := s.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.List(ctx, "s1"); len(got) != 0 {
		t.Errorf("after DeleteSession = %+v", got)
	}
}
