package hashline

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Reveals (error details) and previews (success results) display lines to
// the model. A line counts as seen only when it was shown in full and byte
// faithfully, so rows are clipped visibly and the caller learns exactly which
// rows were complete.

const (
	// RevealLines is the most lines an error reveal shows.
	RevealLines = 40
	// RevealRunes clips each revealed line.
	RevealRunes = 512
	// PreviewRows and PreviewBytes bound a success preview; only rows it
	// actually shows join Seen.
	PreviewRows  = 60
	PreviewBytes = 16 << 10
)

// RevealLine is one row of an EDIT_LINES_UNSEEN reveal.
type RevealLine struct {
	Line    int    `json:"line"`
	Text    string `json:"text"`
	Clipped bool   `json:"clipped"`
}

// ContextRows is one EDIT_TAG_MISMATCH context entry: live rows around an
// anchor, rendered like Read ("N:text", "N~:…" when clipped).
type ContextRows struct {
	Anchor int      `json:"anchor"`
	Rows   []string `json:"rows"`
}

// clipLine returns s cut to n runes and whether it is not shown in full.
// A line holding a lone \r is never shown byte-faithfully, so it is treated
// as clipped even when short.
func clipLine(s string, n int) (string, bool) {
	if c := truncate.Runes(s, n); len(c) < len(s) {
		return c, true
	}
	return s, strings.IndexByte(s, '\r') >= 0
}

// row renders line n like Read: "N:text", or "N~:<clipped> …[+K chars]".
func row(n int, s string, limit int) (string, bool) {
	c, clipped := clipLine(s, limit)
	if !clipped {
		return strconv.Itoa(n) + ":" + s, true
	}
	if len(c) == len(s) { // short but not faithful (lone \r)
		return strconv.Itoa(n) + "~:" + strings.ReplaceAll(s, "\r", "␍"), false
	}
	more := utf8.RuneCountInString(s) - utf8.RuneCountInString(c)
	return strconv.Itoa(n) + "~:" + c + " …[+" + strconv.Itoa(more) + " chars]", false
}

// reveal lists the unseen anchors from the live lines. It is complete only
// when every unseen anchor is listed in full.
func reveal(lines []string, unseen LineSet) ([]RevealLine, LineSet, bool) {
	var out []RevealLine
	var full LineSet
	complete := true
	for _, r := range unseen.Intervals() {
		for n := r[0]; n <= r[1]; n++ {
			if len(out) == RevealLines {
				return out, LineSet{}, false
			}
			text, clipped := clipLine(lines[n-1], RevealRunes)
			out = append(out, RevealLine{Line: n, Text: text, Clipped: clipped})
			if clipped {
				complete = false
			} else {
				full.Add(n, n)
			}
		}
	}
	if !complete {
		return out, LineSet{}, false // an incomplete reveal merges nothing
	}
	return out, full, true
}

// contextRows renders ±2 live lines around each anchor point, at most
// RevealLines rows in all. It returns the rows shown in full.
func contextRows(lines []string, points [][2]int) ([]ContextRows, LineSet) {
	var out []ContextRows
	var full LineSet
	total := 0
	for _, p := range points {
		lo, hi := max(1, p[0]-2), min(len(lines), p[1]+2)
		e := ContextRows{Anchor: p[0], Rows: []string{}}
		for n := lo; n <= hi && total < RevealLines; n++ {
			r, ok := row(n, lines[n-1], RevealRunes)
			e.Rows = append(e.Rows, r)
			total++
			if ok {
				full.Add(n, n)
			}
		}
		out = append(out, e)
	}
	return out, full
}

// preview renders the rows around the changes in the new text: inserted
// ranges with one line of context, and the two lines either side of each
// deletion. Groups are separated by a "…" row. It returns the rows shown in
// full, which join the session's Seen set.
func preview(lines []Line, inserted [][2]int, points []int) (string, LineSet) {
	var want LineSet
	for _, r := range inserted {
		want.Add(r[0]-1, r[1]+1)
	}
	for _, p := range points {
		want.Add(p-1, p)
	}
	want = want.Clip(len(lines))
	var b strings.Builder
	var full LineSet
	rows := 0
	for i, r := range want.Intervals() {
		if i > 0 {
			b.WriteString("\n…")
		}
		for n := r[0]; n <= r[1]; n++ {
			s, ok := row(n, lines[n-1].Text, RevealRunes)
			if rows == PreviewRows || b.Len()+len(s)+1 > PreviewBytes {
				b.WriteString("\n…[+" + strconv.Itoa(want.Len()-rows) + " rows]")
				return b.String(), full
			}
			if rows > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s)
			rows++
			if ok {
				full.Add(n, n)
			}
		}
	}
	return b.String(), full
}
