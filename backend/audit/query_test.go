package audit_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

// seed writes n rows for session "s" (and a few for "other") through a
// Writer: tools cycle Read, Write, Bash; every third row failed.
func seed(t *testing.T, n int) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := audit.NewWriter(st.DB(), func(err error) { t.Error(err) })
	tools := []string{"Read", "Write", "Bash"}
	for i := range n {
		r := audit.Row{TraceID: fmt.Sprint(i), SessionID: "s", Tool: tools[i%3], ArgsHash: "h", ArgsPreview: fmt.Sprintf("call %d", i),
			Decision: "allow", OK: true, DurationMs: int64(i), CreatedAt: int64(1000 + i)}
		if i%3 == 2 {
			r.OK, r.ErrorCode, r.Decision = false, "TOOL_FAILED", "granted"
		}
		if i%10 == 9 {
			r.OK, r.ErrorCode, r.Decision, r.Prompted = false, "TOOL_DENIED", "deny", true
		}
		w.Record(r)
	}
	for i := range 5 {
		w.Record(audit.Row{TraceID: fmt.Sprint("o", i), SessionID: "other", Tool: "Glob", ArgsHash: "h", Decision: "ask", OK: true})
	}
	w.Close()
	return st
}

func previews(rows []audit.Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ArgsPreview
	}
	return out
}

func TestQueryPagesNewestFirstWithoutGapsOrRepeats(t *testing.T) {
	st := seed(t, 230)
	var got []string
	cursor, pages := int64(0), 0
	for {
		p, err := audit.Query(t.Context(), st.DB(), "s", audit.Filter{Cursor: cursor, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if (pages == 1) != (p.Summary != nil) {
			t.Errorf("page %d: summary %v; want it on the first page only", pages, p.Summary)
		}
		got = append(got, previews(p.Rows)...)
		if p.NextCursor == 0 {
			break
		}
		cursor = p.NextCursor
	}
	if pages != 3 || len(got) != 230 {
		t.Fatalf("%d pages, %d rows; want 3 pages, 230 rows", pages, len(got))
	}
	for i, g := range got {
		if want := fmt.Sprintf("call %d", 229-i); g != want {
			t.Fatalf("row %d = %q, want %q (newest first, no gap)", i, g, want)
		}
	}
}

func TestQueryFilters(t *testing.T) {
	st := seed(t, 60)
	tests := []struct {
		name    string
		f       audit.Filter
		want    int
		eachRow func(audit.Row) bool
		newest  string
	}{
		{"all", audit.Filter{}, 60, func(audit.Row) bool { return true }, "call 59"},
		{"tool", audit.Filter{Tool: "Write"}, 20, func(r audit.Row) bool { return r.Tool == "Write" }, "call 58"},
		{"ok", audit.Filter{Result: audit.ResultOK}, 36, func(r audit.Row) bool { return r.OK }, "call 58"},
		{"failed", audit.Filter{Result: audit.ResultFailed}, 24, func(r audit.Row) bool { return !r.OK }, "call 59"},
		{"error code", audit.Filter{Result: "TOOL_DENIED"}, 6, func(r audit.Row) bool { return r.ErrorCode == "TOOL_DENIED" }, "call 59"},
		{"decision", audit.Filter{Decision: "granted"}, 18, func(r audit.Row) bool { return r.Decision == "granted" }, "call 56"},
		{"combined", audit.Filter{Tool: "Bash", Result: "TOOL_FAILED"}, 18, func(r audit.Row) bool { return r.Tool == "Bash" && r.ErrorCode == "TOOL_FAILED" }, "call 56"},
		{"no match", audit.Filter{Tool: "Edit"}, 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.f.Limit = 7
			p, err := audit.Query(t.Context(), st.DB(), "s", tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if p.Summary == nil || p.Summary.Matching != tt.want {
				t.Fatalf("summary = %+v, want %d matching", p.Summary, tt.want)
			}
			if len(p.Rows) != min(7, tt.want) || (tt.want > 7) != (p.NextCursor != 0) {
				t.Fatalf("%d rows, next %d", len(p.Rows), p.NextCursor)
			}
			if tt.want > 0 && p.Rows[0].ArgsPreview != tt.newest {
				t.Errorf("newest = %q, want %q", p.Rows[0].ArgsPreview, tt.newest)
			}
			// Follow the cursor to the end: every row matches, none from another session.
			n := 0
			for {
				for _, r := range p.Rows {
					n++
					if r.SessionID != "s" || !tt.eachRow(r) {
						t.Errorf("row %+v does not match %+v", r, tt.f)
					}
				}
				if p.NextCursor == 0 {
					break
				}
				tt.f.Cursor = p.NextCursor
				if p, err = audit.Query(t.Context(), st.DB(), "s", tt.f); err != nil {
					t.Fatal(err)
				}
			}
			if n != tt.want {
				t.Errorf("paged through %d rows, want %d", n, tt.want)
			}
		})
	}
}

func TestQuerySummaryAndBounds(t *testing.T) {
	st := seed(t, 450)
	p, err := audit.Query(t.Context(), st.DB(), "s", audit.Filter{Limit: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rows) != audit.MaxPageSize || p.NextCursor == 0 {
		t.Errorf("a huge limit returned %d rows; want the %d-row bound", len(p.Rows), audit.MaxPageSize)
	}
	s := p.Summary
	if !slices.Equal(s.Tools, []string{"Bash", "Read", "Write"}) || !slices.Equal(s.Decisions, []string{"allow", "deny", "granted"}) ||
		!slices.Equal(s.ErrorCodes, []string{"TOOL_DENIED", "TOOL_FAILED"}) || s.Matching != 450 {
		t.Errorf("summary = %+v", s)
	}
	if d, err := audit.Query(t.Context(), st.DB(), "s", audit.Filter{}); err != nil || len(d.Rows) != audit.DefaultPageSize {
		t.Errorf("default page = %d rows, %v", len(d.Rows), err)
	}
	empty, err := audit.Query(t.Context(), st.DB(), "nobody", audit.Filter{})
	if err != nil || empty.Rows == nil || len(empty.Rows) != 0 || empty.NextCursor != 0 || empty.Summary.Tools == nil {
		t.Errorf("unknown session = %+v, %v; want an empty page with empty lists", empty, err)
	}
}

func TestQueryRejectsBadFilters(t *testing.T) {
	st := seed(t, 3)
	for _, f := range []audit.Filter{{Cursor: -1}, {Limit: -5}, {Result: "ok; DROP TABLE audit"}, {Result: "tool_denied"}} {
		if _, err := audit.Query(t.Context(), st.DB(), "s", f); !errs.Is(err, errs.InvalidArgument) {
			t.Errorf("filter %+v: err = %v, want INVALID_ARGUMENT", f, err)
		}
	}
}
