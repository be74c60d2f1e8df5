package review

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/internal/golden"
)

func TestHunksGolden(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 30; i++ {
		long.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	base := long.String()
	cases := []struct {
		name          string
		before, after string
		absent        string // "before" or "after": that side does not exist
	}{
		{name: "modify_one_line", before: "a\nb\nc\nd\ne\nf\ng\n", after: "a\nb\nc\nD\ne\nf\ng\n"},
		{name: "two_hunks", before: base,
			after: strings.Replace(strings.Replace(base, "line 3\n", "line three\n", 1), "line 25\n", "", 1)},
		{name: "merged_hunks", before: base,
			after: strings.Replace(strings.Replace(base, "line 10\n", "line ten\n", 1), "line 16\n", "line sixteen\n", 1)},
		{name: "insert_at_top", before: "x\ny\n", after: "new\nx\ny\n"},
		{name: "delete_at_end", before: "x\ny\nz\n", after: "x\ny\n"},
		{name: "no_final_newline", before: "x\ny", after: "x\ny\n"},
		{name: "crlf", before: "a\r\nb\r\nc\r\n", after: "a\r\nB\r\nc\r\n"},
		{name: "added_file", before: "", after: "one\ntwo\n", absent: "before"},
		{name: "deleted_file", before: "one\ntwo\n", after: "", absent: "after"},
		{name: "empty_to_content", before: "", after: "now\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := side{present: c.absent != "before", data: []byte(c.before)}
			a := side{present: c.absent != "after", data: []byte(c.after)}
			ev := describe(b, a)
			got, err := json.MarshalIndent(struct {
				Additions int    `json:"additions"`
				Deletions int    `json:"deletions"`
				Truncated bool   `json:"truncated"`
				Hunks     []Hunk `json:"hunks"`
			}{ev.additions, ev.deletions, ev.truncated, ev.hunks}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden.Assert(t, filepath.Join("testdata", c.name+".golden"), got)
			checkHunks(t, ev.hunks, c.before, c.after)
		})
	}
}

// checkHunks verifies that the hunks, applied to before, give after, and
// that their counts and starts agree with their lines.
func checkHunks(t *testing.T, hunks []Hunk, before, after string) {
	t.Helper()
	old := splitLines(before)
	var out []string
	next := 0 // next old line (0-based) to copy
	for _, h := range hunks {
		o, n := 0, 0
		for _, l := range h.Lines {
			if l[0] != '+' {
				o++
			}
			if l[0] != '-' {
				n++
			}
		}
		if o != h.OldLines || n != h.NewLines {
			t.Errorf("hunk %+v: counts disagree with lines (%d/%d)", h, o, n)
		}
		from := linesBefore(h.OldStart, h.OldLines)
		out = append(out, old[next:from]...)
		next = from
		for _, l := range h.Lines {
			switch l[0] {
			case ' ':
				if old[next] != l[1:] {
					t.Errorf("context %q does not match old line %d %q", l, next+1, old[next])
				}
				out = append(out, l[1:])
				next++
			case '-':
				if old[next] != l[1:] {
					t.Errorf("deletion %q does not match old line %d %q", l, next+1, old[next])
				}
				next++
			case '+':
				out = append(out, l[1:])
			}
		}
		if want := linesBefore(h.NewStart, h.NewLines) + h.NewLines; len(out) != want {
			t.Errorf("hunk %+v ends at new line %d, want %d", h, len(out), want)
		}
	}
	out = append(out, old[next:]...)
	if got, want := strings.Join(out, "\n"), strings.Join(splitLines(after), "\n"); got != want {
		t.Errorf("patched text = %q, want %q", got, want)
	}
}

func TestCutKeepsCountsConsistent(t *testing.T) {
	ops := []lineOp{{' ', "a"}, {'-', "b"}, {'+', "B"}, {'+', "C"}, {' ', "d"}}
	hunks, truncated := cut(group(ops, 3), 3)
	if !truncated || len(hunks) != 1 {
		t.Fatalf("cut = %+v, %v", hunks, truncated)
	}
	h := hunks[0]
	if len(h.Lines) != 3 || h.OldStart != 1 || h.OldLines != 2 || h.NewStart != 1 || h.NewLines != 2 {
		t.Errorf("cut hunk = %+v", h)
	}
	if _, truncated := cut(group(ops, 3), 5); truncated {
		t.Error("a diff within the bound was truncated")
	}
}
