package review_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

// conflictOf returns the reason and the "since" detail of a refused rollback.
func conflictOf(t *testing.T, err error) (string, *review.Since) {
	t.Helper()
	wantCode(t, err, errs.Conflict)
	e := errs.As(err)
	reason, _ := e.Details["reason"].(string)
	s, ok := e.Details["since"].(review.Since)
	if !ok {
		return reason, nil
	}
	return reason, &s
}

func TestConflictShowsWhatChangedSince(t *testing.T) {
	tests := []struct {
		name       string
		before     string // "" = no file before the tool
		toolLeft   string
		now        string // "" with gone = the user removed the file
		gone       bool
		wantStatus string
		wantAdd    int
		wantDel    int
		wantLines  []string
	}{
		{name: "later edit", before: "one\ntwo\nthree\n", toolLeft: "one\nTWO\nthree\n", now: "one\nTWO\nthree\nfour by the user\n",
			wantStatus: review.StatusModified, wantAdd: 1, wantDel: 0, wantLines: []string{" one", " TWO", " three", "+four by the user"}},
		{name: "CRLF file", before: "a\r\nb\r\nc\r\n", toolLeft: "a\r\nB\r\nc\r\n", now: "a\r\nB\r\nC\r\n",
			wantStatus: review.StatusModified, wantAdd: 1, wantDel: 1, wantLines: []string{" a", " B", "-c", "+C"}},
		{name: "no final newline", before: "x\ny", toolLeft: "x\ny\nz", now: "x\ny\nzz",
			wantStatus: review.StatusModified, wantAdd: 1, wantDel: 1, wantLines: []string{" x", " y", "-z", "+zz"}},
		{name: "created file edited", toolLeft: "hello\n", now: "hello\nworld\n",
			wantStatus: review.StatusModified, wantAdd: 1, wantLines: []string{" hello", "+world"}},
		{name: "file removed since", before: "k\n", toolLeft: "k\nl\n", gone: true,
			wantStatus: review.StatusDeleted, wantDel: 2, wantLines: []string{"-k", "-l"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.before != "" {
				f.write("f.txt", tt.before)
			}
			ch := f.mutate("m1", "f.txt", []byte(tt.toolLeft))
			if tt.gone {
				if err := os.Remove(f.path("f.txt")); err != nil {
					t.Fatal(err)
				}
			} else {
				f.write("f.txt", tt.now)
			}
			_, err := f.rollback(ch.SnapshotID)
			reason, since := conflictOf(t, err)
			wantReason := review.ReasonChanged
			if tt.gone {
				wantReason = review.ReasonMissing
			}
			if reason != wantReason {
				t.Errorf("reason = %q, want %q", reason, wantReason)
			}
			if since == nil {
				t.Fatalf("no since detail in %v", errs.As(err).Details)
			}
			var lines []string
			for _, h := range since.Hunks {
				lines = append(lines, h.Lines...)
			}
			if since.Status != tt.wantStatus || since.Additions != tt.wantAdd || since.Deletions != tt.wantDel || !slices.Equal(lines, tt.wantLines) {
				t.Errorf("since = %+v, lines %q", since, lines)
			}
			// Nothing was touched, and the record stays active.
			if tt.gone {
				f.wantAbsent(f.path("f.txt"))
			} else {
				f.wantContent(f.path("f.txt"), tt.now)
			}
			if got := f.state(ch.SnapshotID); got != review.StateActive {
				t.Errorf("state %s after a refused rollback", got)
			}
		})
	}
}

func TestConflictSinceForReusedDeletedPath(t *testing.T) {
	f := newFixture(t)
	f.write("d.txt", "old\n")
	ch := f.mutate("m1", "d.txt", nil)
	f.write("d.txt", "new one\nby the user\n")
	_, err := f.rollback(ch.SnapshotID)
	reason, since := conflictOf(t, err)
	if reason != review.ReasonExistsAgain || since == nil || since.Status != review.StatusAdded || since.Additions != 2 || since.Deletions != 0 {
		t.Fatalf("reason %q since %+v", reason, since)
	}
	f.wantContent(f.path("d.txt"), "new one\nby the user\n")
}

func TestConflictWithoutRecoverableDiffKeepsReason(t *testing.T) {
	t.Run("truncated record", func(t *testing.T) {
		f := newFixture(t)
		var before, after strings.Builder
		for i := range 3000 {
			before.WriteString("line\n")
			after.WriteString("changed " + strings.Repeat("x", i%7) + "\n")
		}
		f.write("many.txt", before.String())
		ch := f.mutate("m1", "many.txt", []byte(after.String()))
		f.write("many.txt", "user\n")
		_, err := f.rollback(ch.SnapshotID)
		reason, since := conflictOf(t, err)
		if reason != review.ReasonChanged || since != nil {
			t.Errorf("reason %q since %+v; want changed without since", reason, since)
		}
	})
	t.Run("already rolled back", func(t *testing.T) {
		f := newFixture(t)
		ch := f.mutate("m1", "n.txt", []byte("x\n"))
		f.mustRollback(ch.SnapshotID)
		_, err := f.rollback(ch.SnapshotID)
		if reason, since := conflictOf(t, err); reason != review.ReasonRolledBack || since != nil {
			t.Errorf("reason %q since %+v", reason, since)
		}
	})
	t.Run("folder in place", func(t *testing.T) {
		f := newFixture(t)
		ch := f.mutate("m1", "x", []byte("file\n"))
		os.Remove(f.path("x"))
		if err := os.Mkdir(f.path("x"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := f.rollback(ch.SnapshotID)
		if reason, since := conflictOf(t, err); reason != review.ReasonNotRegular || since != nil {
			t.Errorf("reason %q since %+v", reason, since)
		}
	})
}

// The detail reaches the UI as JSON through errs.ToPayload.
func TestConflictSincePayloadShape(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "v1\n")
	ch := f.mutate("m1", "a.txt", []byte("v2\n"))
	f.write("a.txt", "v3\n")
	_, err := f.rollback(ch.SnapshotID)
	raw, jerr := json.Marshal(errs.ToPayload(err))
	if jerr != nil {
		t.Fatal(jerr)
	}
	want := `"since":{"status":"modified","additions":1,"deletions":1,"hunks":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"lines":["-v2","+v3"]}]}`
	if !strings.Contains(string(raw), want) || !strings.Contains(string(raw), `"reason":"changed"`) {
		t.Errorf("payload = %s", raw)
	}
}
