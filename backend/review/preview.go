package review

import (
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Bounds of an approval card's diff preview: enough to judge a change,
// small enough for an event payload.
const (
	PreviewMaxLines    = 200
	PreviewMaxBytes    = 16 << 10
	previewMaxLineRune = 400 // one long line (minified code) must not eat the budget
)

// Preview is the unified diff of a change that has not happened yet. Diff
// holds "@@ -a,b +c,d @@" hunk headers and " ", "-", "+" lines; Note says
// why there is no diff (binary, too large) or what it omits.
type Preview struct {
	Diff      string
	Note      string
	Additions int
	Deletions int
	Truncated bool
}

// PreviewChange diffs before → after for an approval card. A missing side
// (present false) is a created or removed file. It never fails: what it
// cannot show it names in Note.
func PreviewChange(before []byte, beforePresent bool, after []byte, afterPresent bool) Preview {
	for _, s := range [][]byte{before, after} {
		if hashline.IsBinary(s) {
			return Preview{Note: "binary file: no diff preview"}
		}
	}
	var ops []lineOp
	switch {
	case !beforePresent:
		ops = wholeFile('+', after)
	case !afterPresent:
		ops = wholeFile('-', before)
	case len(before) > MaxDiffBytes || len(after) > MaxDiffBytes:
		return Preview{Note: fmt.Sprintf("file too large to preview a diff (over %d KB)", MaxDiffBytes>>10)}
	default:
		ops = lineDiff(string(before), string(after))
	}
	p := Preview{}
	for _, o := range ops {
		switch o.kind {
		case '+':
			p.Additions++
		case '-':
			p.Deletions++
		}
	}
	p.Diff, p.Truncated = formatBounded(group(ops, contextLines))
	switch {
	case !beforePresent:
		p.Note = "new file"
	case !afterPresent:
		p.Note = "deletes the file"
	case p.Diff == "":
		p.Note = "no change to the file's content"
	}
	return p
}

// wholeFile is every line of data as one kind of change. It stops early:
// only the first lines of a large file can be shown anyway, but the count
// must be whole, so the rest are counted without their text.
func wholeFile(kind byte, data []byte) []lineOp {
	lines := splitLines(string(data))
	ops := make([]lineOp, len(lines))
	for i, l := range lines {
		ops[i] = lineOp{kind: kind}
		if i <= PreviewMaxLines {
			ops[i].text = l
		}
	}
	return ops
}

// formatBounded renders hunks as unified-diff text within PreviewMaxLines
// and PreviewMaxBytes, ending with a marker that counts the lines left out.
func formatBounded(hunks []Hunk) (string, bool) {
	var b strings.Builder
	shown, total := 0, 0
	for _, h := range hunks {
		total += len(h.Lines)
	}
	full := false
	for _, h := range hunks {
		if full {
			break
		}
		header := fmt.Sprintf("@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
		if b.Len()+len(header) > PreviewMaxBytes {
			break
		}
		b.WriteString(header)
		for _, l := range h.Lines {
			l = clipLine(l) + "\n"
			if shown >= PreviewMaxLines || b.Len()+len(l) > PreviewMaxBytes {
				full = true
				break
			}
			b.WriteString(l)
			shown++
		}
	}
	if shown == total {
		return b.String(), false
	}
	fmt.Fprintf(&b, "[diff truncated: %d more lines]\n", total-shown)
	return b.String(), true
}

// clipLine shortens one diff line to previewMaxLineRune runes.
func clipLine(l string) string {
	return truncate.RunesEllipsis(l, previewMaxLineRune)
}
