package history

import (
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Markers highlight() puts around each match; they cannot occur in text
// the window shows, so one pass splits them out.
const (
	markOpen  = "\x01"
	markClose = "\x02"
)

// Snippet bounds, in bytes: the context kept before the first match and
// the whole snippet.
const (
	snippetBefore = 60
	snippetMax    = 240
)

// snippet cuts a highlighted body to a short window around its first match
// with white space collapsed, split into plain and matched segments.
func snippet(marked string) []api.SearchSegment {
	marked = strings.Join(strings.Fields(marked), " ")
	start := strings.Index(marked, markOpen)
	lead := ""
	if start > snippetBefore {
		lead = truncate.Ellipsis
		marked = truncate.Tail(marked[:start], snippetBefore) + marked[start:]
	}
	cut := truncate.Bytes(marked, snippetMax)
	tail := ""
	if len(cut) < len(marked) {
		tail = truncate.Ellipsis
	}
	var segs []api.SearchSegment
	add := func(text string, match bool) {
		if text != "" {
			segs = append(segs, api.SearchSegment{Text: text, Match: match})
		}
	}
	rest := lead + cut
	for rest != "" {
		open := strings.Index(rest, markOpen)
		if open < 0 {
			add(strings.ReplaceAll(rest, markClose, ""), false)
			break
		}
		add(strings.ReplaceAll(rest[:open], markClose, ""), false)
		rest = rest[open+len(markOpen):]
		end := strings.Index(rest, markClose)
		if end < 0 { // the cut fell inside a match
			end = len(rest)
		}
		add(strings.ReplaceAll(rest[:end], markOpen, ""), true)
		rest = rest[min(end+len(markClose), len(rest)):]
	}
	if tail != "" {
		add(tail, false)
	}
	return segs
}
