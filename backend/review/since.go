package review

import (
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Reasons of a refused rollback, in the "reason" detail of its CONFLICT, so
// the UI can say what happened without parsing the message.
const (
	ReasonChanged     = "changed"     // other content than the tool left
	ReasonMissing     = "missing"     // the file the tool left is gone
	ReasonExistsAgain = "existsAgain" // a deleted path holds a file again
	ReasonNotRegular  = "notRegular"  // a link, folder or special file is in its place
	ReasonHardLinked  = "hardLinked"  // the file gained another hard link
	ReasonRedirected  = "redirected"  // the path now resolves through a link
	ReasonRolledBack  = "alreadyRolledBack"
)

// Since is what happened to a file after a recorded change: the diff from
// the bytes the tool left to the file as it is now. It rides in the "since"
// detail of a CONFLICT, so the user sees the later work the rollback refused
// to overwrite. Status is relative to the tool's result: modified, added (a
// deleted path holds a file again) or deleted (the file is gone).
type Since struct {
	Status    string `json:"status"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Hunks     []Hunk `json:"hunks"`
	Binary    bool   `json:"binary,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

// withSince adds the "since" detail to a CONFLICT about content (changed,
// missing, exists again) when what the tool left can be recovered exactly.
// Any other error is returned as is; so is a conflict whose diff cannot be
// had, which still carries its reason.
func (s *Store) withSince(err error, sessionID string, rec record, cur current) error {
	e := errs.As(err)
	if e == nil || e.Code != errs.Conflict {
		return err
	}
	switch e.Details["reason"] {
	case ReasonChanged, ReasonMissing, ReasonExistsAgain:
	default:
		return err
	}
	after, ok := s.afterBytes(sessionID, rec)
	if !ok {
		return err
	}
	ev := describe(side{present: rec.afterPresent, data: after}, side{present: cur.present, data: cur.data, big: cur.big})
	status := StatusModified
	switch {
	case !rec.afterPresent:
		status = StatusAdded
	case !cur.present:
		status = StatusDeleted
	}
	return e.With("since", Since{Status: status, Additions: ev.additions, Deletions: ev.deletions,
		Hunks: ev.hunks, Binary: ev.binary, Truncated: ev.truncated})
}

// afterBytes recovers the bytes the tool left. Only their digest is stored,
// so they are rebuilt from the kept previous bytes and the record's hunks,
// and accepted only when they hash to the stored digest. A binary or
// truncated record has no complete hunks and cannot be rebuilt.
func (s *Store) afterBytes(sessionID string, rec record) ([]byte, bool) {
	if !rec.afterPresent {
		return nil, true
	}
	ch := rec.change
	if ch.Binary || ch.Truncated || rec.afterSize > MaxDiffBytes {
		return nil, false
	}
	var before []byte
	if rec.beforePresent {
		var err error
		if before, err = s.readSnapshot(sessionID, ch.SnapshotID, rec.beforeSum); err != nil {
			return nil, false
		}
	}
	return rebuild(before, ch.Hunks, rec.afterSum, rec.afterSize)
}

// rebuild applies hunks to before. Hunk lines carry no terminator, so the
// added lines are tried with "\n" and with "\r\n", and a final added line
// with and without one; the candidate whose size and SHA-256 match wins.
func rebuild(before []byte, hunks []Hunk, wantSum string, wantSize int64) ([]byte, bool) {
	lines := strings.SplitAfter(string(before), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for _, term := range []string{"\n", "\r\n"} {
		for _, bareEnd := range []bool{false, true} {
			out, ok := applyHunks(lines, hunks, term, bareEnd)
			if ok && int64(len(out)) == wantSize && sum(out) == wantSum {
				return out, true
			}
		}
	}
	return nil, false
}

// applyHunks writes lines with hunks applied, terminating added lines with
// term. bareEnd drops the terminator of the last line when it is an added
// one (a file without a final newline); otherwise it fails.
func applyHunks(lines []string, hunks []Hunk, term string, bareEnd bool) ([]byte, bool) {
	var b strings.Builder
	pos, lastAdded := 0, false
	for _, h := range hunks {
		start := linesBefore(h.OldStart, h.OldLines)
		if start < pos || start > len(lines) {
			return nil, false
		}
		for _, l := range lines[pos:start] {
			b.WriteString(l)
		}
		if start > pos {
			lastAdded = false
		}
		pos = start
		for _, l := range h.Lines {
			if l == "" {
				return nil, false
			}
			text := l[1:]
			switch l[0] {
			case '+':
				b.WriteString(text)
				b.WriteString(term)
				lastAdded = true
			case ' ', '-':
				if pos >= len(lines) || trimEOL(lines[pos]) != text {
					return nil, false
				}
				if l[0] == ' ' {
					b.WriteString(lines[pos])
					lastAdded = false
				}
				pos++
			default:
				return nil, false
			}
		}
	}
	for _, l := range lines[pos:] {
		b.WriteString(l)
		lastAdded = false
	}
	out := b.String()
	if bareEnd {
		if !lastAdded {
			return nil, false
		}
		out = strings.TrimSuffix(out, term)
	}
	return []byte(out), true
}

func trimEOL(l string) string {
	return strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
}
