package review_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// CaptureBytes with bytes the caller read (and, when known, their sums)
// records what Capture records, and the change rolls back the same way.
func TestCaptureBytesMatchesCapture(t *testing.T) {
	before, after := []byte("one\ntwo\nthree\n"), []byte("one\nTWO\nthree\n")
	for _, tc := range []struct {
		name                string
		beforeSum, afterSum string
	}{
		{"sums computed", "", ""},
		{"sums given", hexSum(before), hexSum(after)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.go", string(before))
			if err := os.Chmod(f.path("a.go"), 0o640); err != nil {
				t.Fatal(err)
			}
			c, err := f.rs.CaptureBytes(session, "m1", "call-1", f.resolve("a.go"), f.r, before, tc.beforeSum)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f.path("a.go"), after, 0o640); err != nil {
				t.Fatal(err)
			}
			ch, err := c.FinishSum(t.Context(), review.OpEdit, after, tc.afterSum)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Status != review.StatusModified || ch.Additions != 1 || ch.Deletions != 1 || !ch.Reversible ||
				ch.AfterSHA256 != hexSum(after) || len(ch.Hunks) != 1 {
				t.Fatalf("record = %+v", ch)
			}
			f.mustRollback(ch.SnapshotID)
			f.wantContent(f.path("a.go"), string(before))
			if fi, _ := os.Stat(f.path("a.go")); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode after rollback %v", fi.Mode().Perm())
			}
		})
	}
}

func TestCaptureBytesRefusesNonFiles(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(f.path("dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := f.rs.CaptureBytes(session, "m1", "call-1", f.resolve("dir"), f.r, nil, ""); err == nil {
		t.Error("a folder was captured")
	}
	if _, err := f.rs.CaptureBytes(session, "m1", "call-1", f.resolve("missing.go"), f.r, []byte("x"), ""); err == nil {
		t.Error("a missing file was captured as present")
	}
	if _, err := f.rs.CaptureBytes(session, "", "call-1", f.resolve("dir"), f.r, nil, ""); err == nil {
		t.Error("a capture without a message id was accepted")
	}
}

// snapshotFiles lists the session's snapshot files.
func snapshotFiles(t *testing.T, f *fixture) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(f.reviews(), session))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// A snapshot started beside the write is the one the record keeps, and the
// change rolls back from it; nothing else is left in the reviews folder.
func TestStartSnapshotIsTheRecordsSnapshot(t *testing.T) {
	f := newFixture(t)
	before, after := []byte("one\ntwo\n"), []byte("one\nTWO\n")
	f.write("a.go", string(before))
	ch := snapshotEdit(t, f, before, after, func() {})
	if got := snapshotFiles(t, f); len(got) != 1 || got[0] != ch.SnapshotID {
		t.Fatalf("snapshot files %v, record's %s", got, ch.SnapshotID)
	}
	f.mustRollback(ch.SnapshotID)
	f.wantContent(f.path("a.go"), string(before))
}

// snapshotEdit is what Edit does with a review: capture a.go's bytes
// (before), run prepare, start the snapshot, replace the file with after
// by rename, and record the change.
func snapshotEdit(t *testing.T, f *fixture, before, after []byte, prepare func()) review.Change {
	t.Helper()
	c, err := f.rs.CaptureBytes(session, "m1", "call-1", f.resolve("a.go"), f.r, before, "")
	if err != nil {
		t.Fatal(err)
	}
	prepare()
	c.StartSnapshot()
	replace(t, f.path("a.go"), after)
	ch, err := c.FinishSum(t.Context(), review.OpEdit, after, "")
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// replace puts data at p the way the tools write: a new file renamed over
// the old one, which is left as it was.
func replace(t *testing.T, p string, data []byte) {
	t.Helper()
	tmp := p + ".new"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

// TestStartSnapshotKeepsThePreviousFile: on Linux the snapshot is the
// previous file itself under a second name (no copy), unless that file has
// another name already or was rewritten in place since it was read; then a
// copy of the bytes read is kept. Either way the change rolls back.
func TestStartSnapshotKeepsThePreviousFile(t *testing.T) {
	for _, tc := range []struct {
		name     string
		prepare  func(f *fixture) // after the capture, before StartSnapshot
		wantLink bool
	}{
		{"linked", func(*fixture) {}, runtime.GOOS == "linux"},
		{"another name already", func(f *fixture) {
			if err := os.Link(f.path("a.go"), f.path("twin.go")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"rewritten in place since it was read", func(f *fixture) {
			// the same bytes and size, a later modification time
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(f.path("a.go"), later, later); err != nil {
				t.Fatal(err)
			}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			before, after := []byte("one\ntwo\n"), []byte("one\nTWO\n")
			f.write("a.go", string(before))
			// Held open, the previous file's inode is not reused by a copy
			// made after the replace.
			held, err := os.Open(f.path("a.go"))
			if err != nil {
				t.Fatal(err)
			}
			defer held.Close()
			prev, err := held.Stat()
			if err != nil {
				t.Fatal(err)
			}
			ch := snapshotEdit(t, f, before, after, func() { tc.prepare(f) })
			snap, err := os.Stat(filepath.Join(f.reviews(), session, ch.SnapshotID))
			if err != nil {
				t.Fatal(err)
			}
			if linked := os.SameFile(snap, prev); linked != tc.wantLink {
				t.Errorf("snapshot is the previous file: %v, want %v", linked, tc.wantLink)
			}
			f.mustRollback(ch.SnapshotID)
			f.wantContent(f.path("a.go"), string(before))
		})
	}
}

// TestLinkedSnapshotRewrittenIsNotRestored: a process that still has the
// previous file open and writes to it changes a linked snapshot (Linux);
// the rollback checks the snapshot's SHA-256 and refuses, leaving the file.
// A copied snapshot (elsewhere) is not touched and rolls back.
func TestLinkedSnapshotRewrittenIsNotRestored(t *testing.T) {
	f := newFixture(t)
	before, after := []byte("one\ntwo\n"), []byte("one\nTWO\n")
	f.write("a.go", string(before))
	held, err := os.OpenFile(f.path("a.go"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	ch := snapshotEdit(t, f, before, after, func() {})
	if _, err := held.WriteString("appended to the old file\n"); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		f.mustRollback(ch.SnapshotID)
		f.wantContent(f.path("a.go"), string(before))
		return
	}
	if _, err := f.rollback(ch.SnapshotID); errs.CodeOf(err) != errs.ReviewNotReversible {
		t.Fatalf("rollback error %v, want %s", err, errs.ReviewNotReversible)
	}
	f.wantContent(f.path("a.go"), string(after))
}

// A change that did not happen leaves no snapshot behind, and neither does
// one too large to roll back.
func TestStartSnapshotAbandoned(t *testing.T) {
	f := newFixture(t)
	before := []byte("one\n")
	f.write("a.go", string(before))
	c, err := f.rs.CaptureBytes(session, "m1", "call-1", f.resolve("a.go"), f.r, before, "")
	if err != nil {
		t.Fatal(err)
	}
	c.StartSnapshot()
	c.Abandon()
	if got := snapshotFiles(t, f); len(got) != 0 {
		t.Errorf("an abandoned change left %v", got)
	}

	c, err = f.rs.CaptureBytes(session, "m1", "call-2", f.resolve("a.go"), f.r, before, "")
	if err != nil {
		t.Fatal(err)
	}
	c.StartSnapshot()
	huge := bytes.Repeat([]byte("x"), int(review.MaxSnapshotBytes)+1)
	ch, err := c.FinishSum(t.Context(), review.OpEdit, huge, "")
	if err != nil {
		t.Fatal(err)
	}
	if ch.Reversible {
		t.Fatal("a change to an oversized file is reversible")
	}
	if got := snapshotFiles(t, f); len(got) != 0 {
		t.Errorf("an irreversible change kept %v", got)
	}
}
