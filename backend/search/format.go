package search

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/names"
)

// Output budget of a Glob or Grep result (shared/design/decisions.md).
const (
	MaxOutputBytes = 48 << 10
	MaxOutputLines = 2000
)

// trailerReserve keeps room for the blank line and the notice after a cut.
const trailerReserve = 512

// budget accumulates whole lines within MaxOutputBytes/MaxOutputLines,
// leaving room for the trailer.
type budget struct {
	b     strings.Builder
	lines int
	cut   bool
}

// add appends all of lines or, when they do not fit, none and marks the
// output as cut. Callers group a header with its first row so a header is
// never left dangling.
func (w *budget) add(lines ...string) bool {
	if w.cut {
		return false
	}
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	if w.b.Len()+n > MaxOutputBytes-trailerReserve || w.lines+len(lines) > MaxOutputLines-2 {
		w.cut = true
		return false
	}
	for _, l := range lines {
		if w.lines > 0 {
			w.b.WriteByte('\n')
		}
		w.b.WriteString(l)
		w.lines++
	}
	return true
}

// finish joins the body and the notice (a blank line, then "[notice]").
func (w *budget) finish(notice string) string {
	if notice == "" {
		return w.b.String()
	}
	if w.lines == 0 {
		return "[" + notice + "]"
	}
	return w.b.String() + "\n\n[" + notice + "]"
}

// FormatGrep renders res as the text the model reads, within the output
// budget. display maps a result path (relative to the root's directory,
// and "." for the root itself) to the path the model sees. It returns the
// text (ending with a "[notice]" trailer when there is one), the tags of
// the files whose header or path made it into the text keyed by displayed
// path, whether anything was left out, and the notice alone.
func FormatGrep(res GrepResult, display func(rel string) string) (text string, tags map[string]string, truncated bool, notice string) {
	text, tags, truncated, notice, _ = FormatGrepShown(res, display)
	return text, tags, truncated, notice
}

// Shown is what a content-mode Grep displayed of one file: the rows shown
// in full and byte-faithfully (not clipped, no lone \r), and the digest of
// the file version they came from. Edit provenance is recorded from this,
// never by parsing the text.
type Shown struct {
	Digest hashline.Digest
	Lines  []int
}

// FormatGrepShown is FormatGrep that also reports, per displayed path, the
// rows that made it into the text in full.
func FormatGrepShown(res GrepResult, display func(rel string) string) (text string, tags map[string]string, truncated bool, notice string, shown map[string]Shown) {
	tags, shown = map[string]string{}, map[string]Shown{}
	if len(res.Files) == 0 {
		// Never a bare "No matches" when files went unsearched.
		notice = skippedNotice(res.Skipped, display)
		text = noMatches(res, display)
		if notice != "" {
			text += "\n\n[" + notice + "]"
		}
		return text, tags, false, notice, shown
	}
	w := &budget{}
	shownFiles, shownMatches, clipped := 0, 0, 0
	switch res.Mode {
	case ModeContent:
		for i, f := range res.Files {
			p := display(f.Path)
			rows := grepRows(f, res.Context)
			first := []string{hashline.Header(p, f.Tag)}
			if f.Tag == "" {
				first[0] = "[" + names.Escape(p) + "]"
			}
			if i > 0 {
				first = append([]string{""}, first...)
			}
			for j, row := range rows {
				lines := []string{row.text}
				if j == 0 {
					lines = append(first, row.text)
				}
				if !w.add(lines...) {
					break
				}
				if j == 0 {
					shownFiles++
					if f.Tag != "" {
						tags[p] = f.Tag
					}
				}
				if row.match {
					shownMatches++
				}
				if row.clipped {
					clipped++
				} else if row.n > 0 && f.Tag != "" && !strings.ContainsRune(row.text, '\r') {
					s := shown[p]
					s.Digest = f.Digest
					s.Lines = append(s.Lines, row.n)
					shown[p] = s
				}
			}
			if w.cut {
				break
			}
		}
	default:
		total := 0
		for _, f := range res.Files {
			p := display(f.Path)
			line := names.Escape(p)
			if res.Mode == ModeCount {
				line += ":" + strconv.Itoa(f.Count)
			}
			if !w.add(line) {
				break
			}
			shownFiles++
			total += f.Count
			if f.Tag != "" {
				tags[p] = f.Tag
			}
		}
		if res.Mode == ModeCount && !w.cut {
			w.add("", fmt.Sprintf("Total: %d matching %s in %d %s", total, plural(total, "line", "lines"), shownFiles, plural(shownFiles, "file", "files")))
		}
	}
	notice = grepNotice(res, w.cut, shownFiles, shownMatches, clipped)
	if sk := skippedNotice(res.Skipped, display); sk != "" {
		notice = strings.TrimSpace(notice + " " + sk)
	}
	return w.finish(notice), tags, res.Truncated || w.cut, notice, shown
}

type grepRow struct {
	text           string
	n              int // line number; 0 for a "--" separator
	match, clipped bool
}

// grepRows renders one file's rows: "N:text" for matches, "N-text" for
// context, "N~:" / "N~-" for clipped lines, and "--" between hunks when
// context was asked for.
func grepRows(f GrepFile, context int) []grepRow {
	rows := make([]grepRow, 0, len(f.Lines))
	prev := 0
	for _, l := range f.Lines {
		if context > 0 && prev > 0 && l.N != prev+1 {
			rows = append(rows, grepRow{text: "--"})
		}
		prev = l.N
		sep := ":"
		if l.Context {
			sep = "-"
		}
		text := strconv.Itoa(l.N)
		if l.Clipped {
			text += "~" + sep + l.Text + " …[+" + strconv.Itoa(l.Omitted) + " chars]"
		} else {
			text += sep + l.Text
		}
		rows = append(rows, grepRow{text: text, n: l.N, match: !l.Context, clipped: l.Clipped})
	}
	return rows
}

func noMatches(res GrepResult, display func(string) string) string {
	s := fmt.Sprintf("No matches for %q in %s", res.Pattern, names.Escape(display(res.Scope)))
	if res.Include != "" {
		s += fmt.Sprintf(" (include %q)", res.Include)
	}
	return s
}

func grepNotice(res GrepResult, cut bool, shownFiles, shownMatches, clipped int) string {
	var parts []string
	unit, limitName := "files", "headLimit"
	if res.Mode == ModeContent {
		unit = "matches"
	}
	if cut {
		if res.Mode == ModeContent {
			parts = append(parts, fmt.Sprintf("Output cut at %d KB / %d lines after %d matches in %d files.", MaxOutputBytes>>10, MaxOutputLines, shownMatches, shownFiles))
		} else {
			parts = append(parts, fmt.Sprintf("Output cut at %d KB / %d lines after %d of %d files.", MaxOutputBytes>>10, MaxOutputLines, shownFiles, len(res.Files)))
		}
		next := "Narrow the pattern, path or include, or lower " + limitName
		if res.Context > 0 {
			next += " or context"
		}
		parts = append(parts, next+".")
	} else if res.Truncated {
		parts = append(parts, fmt.Sprintf("Showing the first %d %s; more exist. Narrow the pattern, path or include, or raise %s.", res.HeadLimit, unit, limitName))
	}
	if clipped > 0 {
		parts = append(parts, fmt.Sprintf("%d %s clipped at %d chars (~); Read the file to see %s in full.", clipped, plural(clipped, "line", "lines"), MaxGrepLineRunes, plural(clipped, "it", "them")))
	}
	return strings.Join(parts, " ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// FormatGlob renders res as the text the model reads, one displayed path
// per line, within the output budget, with the same trailer convention as
// FormatGrep.
func FormatGlob(res GlobResult, display func(rel string) string) (text string, truncated bool, notice string) {
	if len(res.Files) == 0 {
		return fmt.Sprintf("No files match %q in %s", res.Pattern, names.Escape(display("."))), false, ""
	}
	w := &budget{}
	shown := 0
	for _, f := range res.Files {
		if !w.add(names.Escape(display(f))) {
			break
		}
		shown++
	}
	switch {
	case w.cut:
		notice = fmt.Sprintf("Output cut at %d KB / %d lines after %d of %d files. Narrow the pattern or path.", MaxOutputBytes>>10, MaxOutputLines, shown, len(res.Files))
	case res.Truncated:
		notice = fmt.Sprintf("Showing the first %d files; more exist. Narrow the pattern or path, or raise limit (max %d).", len(res.Files), MaxGlobLimit)
	}
	return w.finish(notice), res.Truncated || w.cut, notice
}
