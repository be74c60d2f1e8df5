package tools

import (
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/skills"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// A skill's body may hold up to 128 KiB, more than one result (48 KB), and
// a single-file skill's file is not readable by Read (it has no folder to
// be a root). So Skill pages the body itself, by whole lines as Read does:
// each page is the header, the lines that fit, and a trailer naming the
// next offset.

// skillPageReserve is room kept for the trailer line.
const skillPageReserve = 160

type skillPage struct {
	text         string
	first, total int  // the page's first line; the body's line count
	next         int  // the next page's first line, 0 at the end
	paged        bool // the body did not fit in one result, or offset > 1
}

// pageSkill is the page of k's body starting at line offset (1-based, 0 =
// 1). A line too long for a page on its own is clipped, and said so.
func pageSkill(k skills.Skill, offset int) (skillPage, error) {
	head := skillHeader(k)
	lines := strings.Split(k.Body, "\n")
	total := len(lines)
	if offset == 0 {
		offset = 1
	}
	if offset < 1 || offset > total {
		return skillPage{}, errs.New(errs.InvalidArgument, "offset %d is not a line of the skill %q, which has %d; call Skill with an offset from 1 to %d, or without one",
			offset, k.Name, total, total).With("field", "offset")
	}
	budget := ResultMaxBytes - len(head) - skillPageReserve
	maxLines := ResultMaxLines - strings.Count(head, "\n") - 2
	var body strings.Builder
	i, clipped := offset-1, 0
	for ; i < total && i-(offset-1) < maxLines; i++ {
		line := lines[i] + "\n"
		if body.Len()+len(line) <= budget {
			body.WriteString(line)
			continue
		}
		if body.Len() == 0 { // one line longer than a page: its head, marked
			kept := truncate.Bytes(lines[i], budget-skillPageReserve)
			clipped = len(lines[i]) - len(kept)
			body.WriteString(kept + "\n")
			i++
		}
		break
	}
	p := skillPage{first: offset, total: total, paged: offset > 1 || i < total}
	if i < total {
		p.next = i + 1
	}
	text := head + body.String()
	if clipped > 0 {
		text += fmt.Sprintf("[line %d clipped: %d more bytes of it are not shown]\n", offset, clipped)
	}
	switch {
	case p.next > 0:
		text += fmt.Sprintf("\n[lines %d-%d of %d; next offset=%d]\n", offset, i, total, p.next)
	case p.paged:
		text += fmt.Sprintf("\n[lines %d-%d of %d; the end of the skill]\n", offset, i, total)
	}
	p.text = text
	return p, nil
}
