package review_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/review"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

const session = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"

type fixture struct {
	t       *testing.T
	ws      string // workspace (canonical)
	outside string // a folder outside every root
	data    string
	dbFile  string
	db      *store.Store
	rs      *review.Store
	r       *pathguard.Resolver
}

func clock() time.Time { return time.UnixMilli(1_700_000_000_000) }

func newFixture(t *testing.T) *fixture {
	t.Helper()
	canon := func(p string) string {
		c, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	f := &fixture{t: t, ws: canon(t.TempDir()), outside: canon(t.TempDir()), data: canon(t.TempDir())}
	f.dbFile = filepath.Join(f.data, "pi.db")
	f.open()
	scratch := filepath.Join(f.data, "scratch", session)
	r, err := pathguard.New(pathguard.Roots{Workspace: f.ws, Scratch: scratch}, pathguard.Options{CaseInsensitive: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	f.r = r
	return f
}

// open (re)opens the database and the review store over it.
func (f *fixture) open() {
	f.t.Helper()
	db, err := store.Open(f.t.Context(), f.dbFile, store.Options{})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { db.Close() })
	f.db = db
	f.rs = review.New(db.DB(), f.reviews(), clock)
}

func (f *fixture) reviews() string { return filepath.Join(f.data, "reviews") }

func (f *fixture) path(rel string) string { return filepath.Join(f.ws, filepath.FromSlash(rel)) }

func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := f.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) resolve(rel string) pathguard.Resolved {
	f.t.Helper()
	res, err := f.r.Resolve(rel)
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

// mutate plays a tool call on rel: capture, change the file (after == nil
// removes it), finish.
func (f *fixture) mutate(msg, rel string, after []byte) review.Change {
	f.t.Helper()
	op := review.OpWrite
	if after == nil {
		op = review.OpDelete
	}
	c, err := f.rs.Capture(session, msg, "call-"+rel, f.resolve(rel), f.r)
	if err != nil {
		f.t.Fatal(err)
	}
	if after == nil {
		if err := os.Remove(f.path(rel)); err != nil {
			f.t.Fatal(err)
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(f.path(rel)), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(f.path(rel), after, 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
	ch, err := c.Finish(f.t.Context(), op, after)
	if err != nil {
		f.t.Fatal(err)
	}
	return ch
}

func (f *fixture) rollback(id string) ([]review.Change, error) {
	return f.rs.Rollback(f.t.Context(), session, id, f.r)
}

func (f *fixture) mustRollback(id string) []review.Change {
	f.t.Helper()
	out, err := f.rollback(id)
	if err != nil {
		f.t.Fatalf("Rollback: %v", err)
	}
	for _, c := range out {
		if c.State != review.StateRolledBack {
			f.t.Errorf("%s: state %s after rollback", c.Path, c.State)
		}
	}
	return out
}

func (f *fixture) wantContent(p, want string) {
	f.t.Helper()
	got, err := os.ReadFile(p)
	if err != nil {
		f.t.Fatalf("read %s: %v", p, err)
	}
	if string(got) != want {
		f.t.Errorf("%s = %q, want %q", p, got, want)
	}
}

func (f *fixture) wantAbsent(p string) {
	f.t.Helper()
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		f.t.Errorf("%s exists (err %v), want absent", p, err)
	}
}

func (f *fixture) state(id string) string {
	f.t.Helper()
	all, err := f.rs.List(f.t.Context(), session, "")
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range all {
		if c.SnapshotID == id {
			return c.State
		}
	}
	f.t.Fatalf("change %s not listed", id)
	return ""
}

// wantNoDebris checks that no temporary file was left in dir.
func wantNoDebris(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".pi-") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

func wantCode(t *testing.T, err error, code errs.Code) {
	t.Helper()
	if !errs.Is(err, code) {
		t.Fatalf("err = %v, want %s", err, code)
	}
}

func TestRollbackRestoresModifiedFile(t *testing.T) {
	f := newFixture(t)
	f.write("src/a.go", "one\ntwo\nthree\n")
	if err := os.Chmod(f.path("src/a.go"), 0o640); err != nil {
		t.Fatal(err)
	}
	ch := f.mutate("m1", "src/a.go", []byte("one\nTWO\nthree\n"))
	if ch.Version != 1 || ch.Status != review.StatusModified || ch.Operation != review.OpWrite || ch.State != review.StateActive ||
		ch.Path != "src/a.go" || ch.MessageID != "m1" || ch.SessionID != session || ch.ToolCallID != "call-src/a.go" ||
		ch.Additions != 1 || ch.Deletions != 1 || !ch.Reversible || ch.Binary || ch.Truncated || ch.GroupID != "" ||
		ch.CreatedAt != clock().UnixMilli() || len(ch.Hunks) != 1 {
		t.Fatalf("record = %+v", ch)
	}
	// The snapshot is private and outside the workspace.
	snap := filepath.Join(f.reviews(), session, ch.SnapshotID)
	f.wantContent(snap, "one\ntwo\nthree\n")
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(snap); fi.Mode().Perm() != 0o600 {
			t.Errorf("snapshot mode %v, want 0600", fi.Mode().Perm())
		}
		if fi, _ := os.Stat(filepath.Dir(snap)); fi.Mode().Perm() != 0o700 {
			t.Errorf("snapshot folder mode %v, want 0700", fi.Mode().Perm())
		}
	}

	out := f.mustRollback(ch.SnapshotID)
	if len(out) != 1 || out[0].SnapshotID != ch.SnapshotID || out[0].Path != "src/a.go" {
		t.Fatalf("rolled back = %+v", out)
	}
	f.wantContent(f.path("src/a.go"), "one\ntwo\nthree\n")
	if fi, _ := os.Stat(f.path("src/a.go")); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode after rollback %v, want 0640", fi.Mode().Perm())
	}
	if got := f.state(ch.SnapshotID); got != review.StateRolledBack {
		t.Errorf("listed state %s", got)
	}
	wantNoDebris(t, f.path("src"))
}

func TestRollbackConflictAfterLaterEdit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "v1\n")
	ch := f.mutate("m1", "a.txt", []byte("v2\n"))
	f.write("a.txt", "v3 by the user\n") // a later edit
	_, err := f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.Conflict)
	if msg := errs.As(err).Message; !strings.Contains(msg, "a.txt") || !strings.Contains(msg, "by hand") {
		t.Errorf("message does not name the file and the next step: %q", msg)
	}
	f.wantContent(f.path("a.txt"), "v3 by the user\n")
	if got := f.state(ch.SnapshotID); got != review.StateActive {
		t.Errorf("state %s after a refused rollback", got)
	}
	wantNoDebris(t, f.ws)

	// A later change of the same size is caught by the digest, not the size.
	f.write("a.txt", "v9\n")
	_, err = f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.Conflict)
	f.wantContent(f.path("a.txt"), "v9\n")

	// Once the file is back to what the tool left, the rollback goes through.
	f.write("a.txt", "v2\n")
	f.mustRollback(ch.SnapshotID)
	f.wantContent(f.path("a.txt"), "v1\n")
}

func TestRollbackRemovesCreatedFile(t *testing.T) {
	f := newFixture(t)
	ch := f.mutate("m1", "new/file.txt", []byte("hello\nworld\n"))
	if ch.Status != review.StatusAdded || ch.Additions != 2 || ch.Deletions != 0 || !ch.Reversible {
		t.Fatalf("record = %+v", ch)
	}
	if _, err := os.Lstat(filepath.Join(f.reviews(), session, ch.SnapshotID)); !os.IsNotExist(err) {
		t.Errorf("a created file needs no snapshot, got err %v", err)
	}
	f.mustRollback(ch.SnapshotID)
	f.wantAbsent(f.path("new/file.txt"))
	wantNoDebris(t, f.path("new"))

	// Rolling back twice is a conflict.
	_, err := f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.Conflict)
	if !strings.Contains(errs.As(err).Message, "already rolled back") {
		t.Errorf("message %q", errs.As(err).Message)
	}
}

func TestRollbackKeepsChangedCreatedFile(t *testing.T) {
	f := newFixture(t)
	ch := f.mutate("m1", "c.txt", []byte("created\n"))
	f.write("c.txt", "created and then edited\n")
	_, err := f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.Conflict)
	f.wantContent(f.path("c.txt"), "created and then edited\n")
}

func TestRollbackRecreatesDeletedFile(t *testing.T) {
	f := newFixture(t)
	f.write("dir/gone.txt", "keep me\n")
	if err := os.Chmod(f.path("dir/gone.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	ch := f.mutate("m1", "dir/gone.txt", nil)
	if ch.Status != review.StatusDeleted || ch.Operation != review.OpDelete || ch.Deletions != 1 || ch.Additions != 0 || !ch.Reversible {
		t.Fatalf("record = %+v", ch)
	}
	// The folder went too: rollback recreates it.
	if err := os.Remove(f.path("dir")); err != nil {
		t.Fatal(err)
	}
	f.mustRollback(ch.SnapshotID)
	f.wantContent(f.path("dir/gone.txt"), "keep me\n")
	if fi, _ := os.Stat(f.path("dir/gone.txt")); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestRollbackDeletionConflictWhenPathReused(t *testing.T) {
	f := newFixture(t)
	f.write("d.txt", "old\n")
	ch := f.mutate("m1", "d.txt", nil)
	f.write("d.txt", "someone made a new one\n")
	_, err := f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.Conflict)
	f.wantContent(f.path("d.txt"), "someone made a new one\n")
}

// move plays an MV of from to to.
func (f *fixture) move(msg, from, to string) []review.Change {
	f.t.Helper()
	mc, err := f.rs.CaptureMove(session, msg, "call-mv", f.resolve(from), f.resolve(to), f.r)
	if err != nil {
		f.t.Fatal(err)
	}
	data, err := os.ReadFile(f.path(from))
	if err != nil {
		f.t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(f.path(to)), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Rename(f.path(from), f.path(to)); err != nil {
		f.t.Fatal(err)
	}
	out, err := mc.Finish(f.t.Context(), nil, data)
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func TestMovePairRecords(t *testing.T) {
	f := newFixture(t)
	f.write("old.txt", "a\nb\n")
	pair := f.move("m1", "old.txt", "sub/new.txt")
	if len(pair) != 2 {
		t.Fatalf("got %d records", len(pair))
	}
	src, dst := pair[0], pair[1]
	if src.GroupID == "" || src.GroupID != dst.GroupID || src.ToolCallID != dst.ToolCallID {
		t.Errorf("pair not grouped: %+v / %+v", src, dst)
	}
	if src.Path != "old.txt" || src.Status != review.StatusDeleted || src.Deletions != 2 ||
		dst.Path != "sub/new.txt" || dst.Status != review.StatusAdded || dst.Additions != 2 ||
		src.Operation != review.OpDelete || dst.Operation != review.OpEdit {
		t.Errorf("pair = %+v / %+v", src, dst)
	}
	// Rolling back either half rolls back both.
	out := f.mustRollback(dst.SnapshotID)
	if len(out) != 2 {
		t.Fatalf("rolled back %d changes, want 2", len(out))
	}
	f.wantContent(f.path("old.txt"), "a\nb\n")
	f.wantAbsent(f.path("sub/new.txt"))
	for _, c := range pair {
		if s := f.state(c.SnapshotID); s != review.StateRolledBack {
			t.Errorf("%s: state %s", c.Path, s)
		}
	}
	wantNoDebris(t, f.ws)
	wantNoDebris(t, f.path("sub"))
}

func TestMovePairAllOrNothing(t *testing.T) {
	t.Run("second half conflicts", func(t *testing.T) {
		f := newFixture(t)
		f.write("from.txt", "payload\n")
		pair := f.move("m1", "from.txt", "to.txt")
		f.write("to.txt", "edited after the move\n")
		_, err := f.rollback(pair[0].SnapshotID)
		wantCode(t, err, errs.Conflict)
		f.wantAbsent(f.path("from.txt")) // the first half was not applied
		f.wantContent(f.path("to.txt"), "edited after the move\n")
		for _, c := range pair {
			if s := f.state(c.SnapshotID); s != review.StateActive {
				t.Errorf("%s: state %s", c.Path, s)
			}
		}
	})
	t.Run("first half conflicts", func(t *testing.T) {
		f := newFixture(t)
		f.write("from.txt", "payload\n")
		pair := f.move("m1", "from.txt", "to.txt")
		f.write("from.txt", "a new file at the source\n")
		_, err := f.rollback(pair[1].SnapshotID)
		wantCode(t, err, errs.Conflict)
		f.wantContent(f.path("from.txt"), "a new file at the source\n")
		f.wantContent(f.path("to.txt"), "payload\n")
	})
	t.Run("second step fails after the first was applied", func(t *testing.T) {
		f := newFixture(t)
		f.write("from.txt", "payload\n")
		pair := f.move("m1", "from.txt", "to.txt")
		review.SetAfterApply(f.rs, func(i int) {
			// Between the two steps someone edits the destination.
			f.write("to.txt", "raced\n")
		})
		_, err := f.rollback(pair[0].SnapshotID)
		wantCode(t, err, errs.Conflict)
		f.wantAbsent(f.path("from.txt")) // the re-created source was undone
		f.wantContent(f.path("to.txt"), "raced\n")
		wantNoDebris(t, f.ws)
		for _, c := range pair {
			if s := f.state(c.SnapshotID); s != review.StateActive {
				t.Errorf("%s: state %s", c.Path, s)
			}
		}
	})
}

func TestRollbackRefusesPlantedSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	cases := []struct {
		name  string
		setup func(f *fixture) string // returns the rel path mutated
		plant func(f *fixture, target string)
	}{
		{
			"file replaced by a link out of the workspace",
			func(f *fixture) string { return "a.txt" },
			func(f *fixture, target string) {
				os.Remove(f.path("a.txt"))
				if err := os.Symlink(target, f.path("a.txt")); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			"folder replaced by a link out of the workspace",
			func(f *fixture) string { return "sub/a.txt" },
			func(f *fixture, target string) {
				os.RemoveAll(f.path("sub"))
				if err := os.Symlink(filepath.Dir(target), f.path("sub")); err != nil {
					t.Fatal(err)
				}
			},
		},
	}
	for _, status := range []string{review.StatusModified, review.StatusAdded} {
		for _, c := range cases {
			t.Run(status+"/"+c.name, func(t *testing.T) {
				f := newFixture(t)
				rel := c.setup(f)
				if status == review.StatusModified {
					f.write(rel, "before\n")
				}
				ch := f.mutate("m1", rel, []byte("after\n"))
				// The outside file holds exactly the post-tool bytes, so
				// only the link check stands between it and the rollback.
				outside := filepath.Join(f.outside, "a.txt")
				if err := os.WriteFile(outside, []byte("after\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				c.plant(f, outside)
				_, err := f.rollback(ch.SnapshotID)
				wantCode(t, err, errs.Conflict)
				f.wantContent(outside, "after\n")
				if entries, _ := os.ReadDir(f.outside); len(entries) != 1 {
					t.Errorf("outside folder now holds %d entries", len(entries))
				}
				if s := f.state(ch.SnapshotID); s != review.StateActive {
					t.Errorf("state %s", s)
				}
			})
		}
	}
	t.Run("link to another workspace file", func(t *testing.T) {
		f := newFixture(t)
		f.write("a.txt", "before\n")
		ch := f.mutate("m1", "a.txt", []byte("after\n"))
		f.write("twin.txt", "after\n")
		os.Remove(f.path("a.txt"))
		if err := os.Symlink(f.path("twin.txt"), f.path("a.txt")); err != nil {
			t.Fatal(err)
		}
		_, err := f.rollback(ch.SnapshotID)
		wantCode(t, err, errs.Conflict)
		f.wantContent(f.path("twin.txt"), "after\n")
		if fi, err := os.Lstat(f.path("a.txt")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the planted link was replaced: %v %v", fi, err)
		}
	})
}

func TestRollbackRefusesPlantedHardlink(t *testing.T) {
	for _, status := range []string{review.StatusModified, review.StatusAdded} {
		t.Run(status+"/file replaced by a hard link to an outside file", func(t *testing.T) {
			f := newFixture(t)
			if status == review.StatusModified {
				f.write("a.txt", "before\n")
			}
			ch := f.mutate("m1", "a.txt", []byte("after\n"))
			outside := filepath.Join(f.outside, "victim.txt")
			if err := os.WriteFile(outside, []byte("after\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(f.path("a.txt"))
			if err := os.Link(outside, f.path("a.txt")); err != nil {
				t.Skipf("hard links unavailable: %v", err)
			}
			_, err := f.rollback(ch.SnapshotID)
			wantCode(t, err, errs.Conflict)
			if !strings.Contains(errs.As(err).Message, "hard link") {
				t.Errorf("message %q", errs.As(err).Message)
			}
			f.wantContent(outside, "after\n")
			f.wantContent(f.path("a.txt"), "after\n")
		})
	}
	t.Run("edited file gained a second link", func(t *testing.T) {
		f := newFixture(t)
		f.write("a.txt", "before\n")
		ch := f.mutate("m1", "a.txt", []byte("after\n"))
		extra := filepath.Join(f.outside, "alias.txt")
		if err := os.Link(f.path("a.txt"), extra); err != nil {
			t.Skipf("hard links unavailable: %v", err)
		}
		_, err := f.rollback(ch.SnapshotID)
		wantCode(t, err, errs.Conflict)
		f.wantContent(extra, "after\n")
		f.wantContent(f.path("a.txt"), "after\n")
	})
}

func TestRollbackRefusesFolderInPlace(t *testing.T) {
	f := newFixture(t)
	ch := f.mutate("m1", "x", []byte("file\n"))
	os.Remove(f.path("x"))
	if err := os.Mkdir(f.path("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.Conflict)
	if fi, err := os.Stat(f.path("x")); err != nil || !fi.IsDir() {
		t.Errorf("folder disturbed: %v", err)
	}
}

func TestBinaryRecord(t *testing.T) {
	f := newFixture(t)
	before := []byte("PNG\x00\x01\x02")
	if err := os.WriteFile(f.path("img.bin"), before, 0o644); err != nil {
		t.Fatal(err)
	}
	ch := f.mutate("m1", "img.bin", []byte("PNG\x00\x09"))
	if !ch.Binary || ch.Truncated || len(ch.Hunks) != 0 || ch.Hunks == nil || ch.Additions != 0 || ch.Deletions != 0 || !ch.Reversible {
		t.Fatalf("record = %+v", ch)
	}
	f.mustRollback(ch.SnapshotID)
	got, _ := os.ReadFile(f.path("img.bin"))
	if !bytes.Equal(got, before) {
		t.Errorf("restored %q", got)
	}
}

func TestOversizedRecords(t *testing.T) {
	t.Run("over the diff bound", func(t *testing.T) {
		f := newFixture(t)
		big := strings.Repeat("0123456789abcdef\n", review.MaxDiffBytes/17+10)
		f.write("big.txt", big)
		ch := f.mutate("m1", "big.txt", []byte(big+"tail\n"))
		if !ch.Truncated || ch.Binary || len(ch.Hunks) != 0 || !ch.Reversible {
			t.Fatalf("record = %+v", ch)
		}
		f.mustRollback(ch.SnapshotID)
		f.wantContent(f.path("big.txt"), big)
	})
	t.Run("too many hunk lines", func(t *testing.T) {
		f := newFixture(t)
		var before, after strings.Builder
		for i := range 3000 {
			before.WriteString("line\n")
			after.WriteString("changed " + strings.Repeat("x", i%7) + "\n")
		}
		f.write("many.txt", before.String())
		ch := f.mutate("m1", "many.txt", []byte(after.String()))
		if !ch.Truncated || ch.Additions != 3000 || ch.Deletions != 3000 {
			t.Fatalf("truncated=%v additions=%d deletions=%d", ch.Truncated, ch.Additions, ch.Deletions)
		}
		n := 0
		for _, h := range ch.Hunks {
			n += len(h.Lines)
			old, nw := 0, 0
			for _, l := range h.Lines {
				if l[0] != '+' {
					old++
				}
				if l[0] != '-' {
					nw++
				}
			}
			if old != h.OldLines || nw != h.NewLines {
				t.Errorf("hunk counts %d/%d, lines say %d/%d", h.OldLines, h.NewLines, old, nw)
			}
		}
		if n != review.MaxHunkLines {
			t.Errorf("kept %d hunk lines, want %d", n, review.MaxHunkLines)
		}
	})
	t.Run("over the snapshot bound", func(t *testing.T) {
		f := newFixture(t)
		huge := bytes.Repeat([]byte("z"), review.MaxSnapshotBytes+1)
		if err := os.WriteFile(f.path("huge.txt"), huge, 0o644); err != nil {
			t.Fatal(err)
		}
		ch := f.mutate("m1", "huge.txt", []byte("small\n"))
		if ch.Reversible || len(ch.Hunks) != 0 {
			t.Fatalf("record = %+v", ch)
		}
		if _, err := os.Lstat(filepath.Join(f.reviews(), session, ch.SnapshotID)); !os.IsNotExist(err) {
			t.Errorf("an oversized snapshot was kept (err %v)", err)
		}
		_, err := f.rollback(ch.SnapshotID)
		wantCode(t, err, errs.ReviewNotReversible)
		f.wantContent(f.path("huge.txt"), "small\n")
	})
}

func TestRollbackRefusesDamagedSnapshot(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "v1\n")
	ch := f.mutate("m1", "a.txt", []byte("v2\n"))
	if err := os.WriteFile(filepath.Join(f.reviews(), session, ch.SnapshotID), []byte("tampered\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.ReviewNotReversible)
	f.wantContent(f.path("a.txt"), "v2\n")
}

func TestRollbackUnknownChange(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "v1\n")
	ch := f.mutate("m1", "a.txt", []byte("v2\n"))
	_, err := f.rollback("no-such-change")
	wantCode(t, err, errs.NotFound)
	_, err = f.rs.Rollback(t.Context(), "another-session", ch.SnapshotID, f.r)
	wantCode(t, err, errs.NotFound)
	f.wantContent(f.path("a.txt"), "v2\n")
}

func TestCaptureOutsideWorkspaceRecordsNothing(t *testing.T) {
	f := newFixture(t)
	target, err := f.r.Resolve(filepath.Join(f.data, "scratch", session, "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	if target.Root != pathguard.Scratch {
		t.Fatalf("root %s", target.Root)
	}
	c, err := f.rs.Capture(session, "m1", "call", target, f.r)
	if c != nil || err != nil {
		t.Fatalf("Capture = %v, %v; want nil, nil", c, err)
	}
	ch, err := c.Finish(t.Context(), review.OpWrite, []byte("x"))
	if err != nil || ch.Version != 0 {
		t.Fatalf("nil Finish = %+v, %v", ch, err)
	}
	ext, _ := f.r.Resolve(filepath.Join(f.outside, "e.txt"))
	mc, err := f.rs.CaptureMove(session, "m1", "call", ext, ext, f.r)
	if mc != nil || err != nil {
		t.Fatalf("CaptureMove = %v, %v", mc, err)
	}
	if all, _ := f.rs.List(t.Context(), session, ""); len(all) != 0 {
		t.Errorf("listed %d records", len(all))
	}
}

func TestListByMessage(t *testing.T) {
	f := newFixture(t)
	a := f.mutate("m1", "a.txt", []byte("a\n"))
	b := f.mutate("m2", "b.txt", []byte("b\n"))
	c := f.mutate("m1", "c.txt", []byte("c\n"))
	ids := func(cs []review.Change) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.SnapshotID)
		}
		return out
	}
	m1, err := f.rs.List(t.Context(), session, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(m1), []string{a.SnapshotID, c.SnapshotID}; !slices.Equal(got, want) {
		t.Errorf("m1 = %v, want %v", got, want)
	}
	all, _ := f.rs.List(t.Context(), session, "")
	if got, want := ids(all), []string{a.SnapshotID, b.SnapshotID, c.SnapshotID}; !slices.Equal(got, want) {
		t.Errorf("all = %v, want %v", got, want)
	}
	if other, _ := f.rs.List(t.Context(), "other-session", ""); len(other) != 0 {
		t.Errorf("another session lists %d records", len(other))
	}
	// The listed record is the record Finish returned.
	want, _ := json.Marshal(b)
	m2, _ := f.rs.List(t.Context(), session, "m2")
	if got, _ := json.Marshal(m2); string(got) != "["+string(want)+"]" {
		t.Errorf("listed %s, want [%s]", got, want)
	}
}

func TestChangeJSONShape(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "x\n")
	ch := f.mutate("m1", "a.txt", []byte("y\n"))
	raw, _ := json.Marshal(ch)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := []string{"additions", "createdAt", "deletions", "hunks", "messageId", "operation", "path", "reversible",
		"sessionId", "snapshotId", "state", "status", "toolCallId", "version"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys = %v, want %v", keys, want)
	}
	hunk := m["hunks"].([]any)[0].(map[string]any)
	for _, k := range []string{"oldStart", "oldLines", "newStart", "newLines", "lines"} {
		if _, ok := hunk[k]; !ok {
			t.Errorf("hunk lacks %s: %v", k, hunk)
		}
	}
}

func TestDeleteSession(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "v1\n")
	ch := f.mutate("m1", "a.txt", []byte("v2\n"))
	// Another session's records stay.
	other := "other-session"
	oc, err := f.rs.Capture(other, "m9", "call", f.resolve("a.txt"), f.r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := oc.Finish(t.Context(), review.OpEdit, []byte("v2\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.reviews(), session, ch.SnapshotID)); err != nil {
		t.Fatal(err)
	}
	if err := f.rs.DeleteSession(t.Context(), session); err != nil {
		t.Fatal(err)
	}
	f.wantAbsent(filepath.Join(f.reviews(), session))
	if all, _ := f.rs.List(t.Context(), session, ""); len(all) != 0 {
		t.Errorf("%d records survived", len(all))
	}
	if all, _ := f.rs.List(t.Context(), other, ""); len(all) != 1 {
		t.Errorf("other session has %d records, want 1", len(all))
	}
	if _, err := os.Stat(filepath.Join(f.reviews(), other)); err != nil {
		t.Errorf("other session's snapshots removed: %v", err)
	}
	_, err = f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.NotFound)
	// Deleting again is fine.
	if err := f.rs.DeleteSession(t.Context(), session); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteSessionDoesNotFollowLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	f := newFixture(t)
	victim := filepath.Join(f.outside, "keep.txt")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(f.reviews(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.outside, filepath.Join(f.reviews(), session)); err != nil {
		t.Fatal(err)
	}
	if err := f.rs.DeleteSession(t.Context(), session); err != nil {
		t.Fatal(err)
	}
	f.wantAbsent(filepath.Join(f.reviews(), session))
	f.wantContent(victim, "keep\n")
}

func TestRolledBackStatePersists(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "v1\n")
	ch := f.mutate("m1", "a.txt", []byte("v2\n"))
	f.mustRollback(ch.SnapshotID)
	if err := f.db.Close(); err != nil {
		t.Fatal(err)
	}
	f.open()
	if s := f.state(ch.SnapshotID); s != review.StateRolledBack {
		t.Fatalf("state after reopen = %s", s)
	}
	f.write("a.txt", "v2\n") // even with the post-tool content back
	_, err := f.rollback(ch.SnapshotID)
	wantCode(t, err, errs.Conflict)
	f.wantContent(f.path("a.txt"), "v2\n")
}

func TestFinishValidates(t *testing.T) {
	f := newFixture(t)
	c, err := f.rs.Capture(session, "m1", "call", f.resolve("none.txt"), f.r)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Finish(t.Context(), "rename", []byte("x"))
	wantCode(t, err, errs.InvalidArgument)
	_, err = c.Finish(t.Context(), review.OpDelete, nil) // absent before and after
	wantCode(t, err, errs.InvalidArgument)
	_, err = c.Finish(t.Context(), review.OpWrite, nil)
	wantCode(t, err, errs.InvalidArgument)
	_, err = f.rs.Capture("../escape", "m1", "call", f.resolve("none.txt"), f.r)
	wantCode(t, err, errs.InvalidArgument)
	_, err = f.rs.Capture(session, "", "call", f.resolve("none.txt"), f.r)
	wantCode(t, err, errs.InvalidArgument)
}
