package review

import (
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
)

// Bounds of the review evidence.
const (
	// MaxDiffBytes is the largest side (before or after) that is diffed.
	// A larger text side gives truncated:true and no hunks.
	MaxDiffBytes = 1 << 20
	// MaxHunkLines caps the lines kept across all hunks of one change; the
	// rest is cut and the record says truncated:true. Additions and
	// deletions still count the whole diff.
	MaxHunkLines = 2000
	// MaxSnapshotBytes is the largest file kept for rollback. A change with
	// either side larger is recorded with reversible:false (and its
	// snapshot is not kept), which also bounds what a rollback reads.
	MaxSnapshotBytes = 16 << 20
	// contextLines is the unified-diff context around each change.
	contextLines = 3
	// diffTimeout bounds go-diff on pathological input; past it the diff
	// is still correct, only less minimal.
	diffTimeout = 2 * time.Second
)

// Hunk is one unified-diff hunk. Lines carry their text without the line
// terminator ("\n" or "\r\n"), prefixed "+" (added), "-" (removed) or " "
// (context). Lines are compared with their terminators, so a change of line
// ending or of the final newline alone shows as a "-" and "+" pair of
// identical-looking lines. Starts are 1-based; an empty side names the line
// before it (0 at the top), as unified diff does.
type Hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// evidence is the diff part of a record.
type evidence struct {
	hunks     []Hunk
	additions int
	deletions int
	binary    bool
	truncated bool
}

// side is one version of a file for diffing. big marks content that was
// too large to keep in memory (data is then nil).
type side struct {
	present bool
	data    []byte
	big     bool
}

// describe computes the review evidence of before → after.
func describe(before, after side) evidence {
	var ev evidence
	for _, s := range []side{before, after} {
		// Over MaxSnapshotBytes a file is binary for the edit contract
		// (hashline.MaxTextBytes), so a side not held in memory is too.
		if s.present && (s.big || hashline.IsBinary(s.data)) {
			ev.binary = true
		}
	}
	if ev.binary {
		ev.hunks = []Hunk{}
		return ev
	}
	if len(before.data) > MaxDiffBytes || len(after.data) > MaxDiffBytes {
		ev.truncated = true
		ev.hunks = []Hunk{}
		// Whole-file additions and deletions are still exact.
		if !before.present {
			ev.additions = countLines(after.data)
		}
		if !after.present {
			ev.deletions = countLines(before.data)
		}
		return ev
	}
	ops := lineDiff(string(before.data), string(after.data))
	for _, o := range ops {
		switch o.kind {
		case '+':
			ev.additions++
		case '-':
			ev.deletions++
		}
	}
	ev.hunks, ev.truncated = cut(group(ops, contextLines), MaxHunkLines)
	return ev
}

// lineOp is one line of a line-mode diff.
type lineOp struct {
	kind byte // ' ', '-', '+'
	text string
}

// lineDiff diffs two texts line by line with go-diff's line mode.
func lineDiff(a, b string) []lineOp {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var ops []lineOp
	for _, d := range diffs {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			kind = '+'
		case diffmatchpatch.DiffDelete:
			kind = '-'
		}
		for _, l := range splitLines(d.Text) {
			ops = append(ops, lineOp{kind: kind, text: l})
		}
	}
	return ops
}

// splitLines splits text into lines without their terminators ("\n" or
// "\r\n"). A final line without a newline is still a line.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	parts := strings.SplitAfter(text, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	for i, p := range parts {
		p = strings.TrimSuffix(p, "\n")
		parts[i] = strings.TrimSuffix(p, "\r")
	}
	return parts
}

// countLines counts lines the way splitLines does.
func countLines(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	n := strings.Count(string(data), "\n")
	if data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// group turns a line diff into hunks with ctx lines of context. Two changes
// closer than 2*ctx+1 unchanged lines share a hunk, as in GNU diff.
func group(ops []lineOp, ctx int) []Hunk {
	// oldAt[i] and newAt[i] count the old and new lines before ops[i].
	oldAt := make([]int, len(ops)+1)
	newAt := make([]int, len(ops)+1)
	for i, o := range ops {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if o.kind != '+' {
			oldAt[i+1]++
		}
		if o.kind != '-' {
			newAt[i+1]++
		}
	}
	hunks := []Hunk{}
	n, i := len(ops), 0
	for i < n {
		for i < n && ops[i].kind == ' ' {
			i++
		}
		if i == n {
			break
		}
		// The previous hunk ended at least ctx+1 lines before this
		// change, so hunks never overlap.
		start := max(i-ctx, 0)
		end := i // one past the last change seen
		for j := i; j < n; j++ {
			if ops[j].kind != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*ctx {
				break
			}
		}
		stop := min(end+ctx, n)
		h := Hunk{Lines: make([]string, 0, stop-start)}
		for _, o := range ops[start:stop] {
			h.Lines = append(h.Lines, string(o.kind)+o.text)
		}
		h.OldLines = oldAt[stop] - oldAt[start]
		h.NewLines = newAt[stop] - newAt[start]
		h.OldStart = startOf(oldAt[start], h.OldLines)
		h.NewStart = startOf(newAt[start], h.NewLines)
		hunks = append(hunks, h)
		i = stop
	}
	return hunks
}

// startOf is the unified-diff start of a range beginning after `before`
// lines: 1-based, or the preceding line for an empty range.
func startOf(before, count int) int {
	if count == 0 {
		return before
	}
	return before + 1
}

// linesBefore inverts startOf.
func linesBefore(start, count int) int {
	if count == 0 {
		return start
	}
	return start - 1
}

// cut keeps at most limit hunk lines, shortening the hunk that crosses the
// limit (its counts recomputed) and dropping the rest.
func cut(hunks []Hunk, limit int) ([]Hunk, bool) {
	total := 0
	for i, h := range hunks {
		if total+len(h.Lines) <= limit {
			total += len(h.Lines)
			continue
		}
		keep := limit - total
		if keep <= 0 {
			return hunks[:i], true
		}
		oldBefore, newBefore := linesBefore(h.OldStart, h.OldLines), linesBefore(h.NewStart, h.NewLines)
		h.Lines = h.Lines[:keep]
		h.OldLines, h.NewLines = 0, 0
		for _, l := range h.Lines {
			if l[0] != '+' {
				h.OldLines++
			}
			if l[0] != '-' {
				h.NewLines++
			}
		}
		h.OldStart = startOf(oldBefore, h.OldLines)
		h.NewStart = startOf(newBefore, h.NewLines)
		out := append(hunks[:i:i], h)
		return out, true
	}
	return hunks, false
}
