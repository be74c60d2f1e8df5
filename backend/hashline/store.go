package hashline

import (
	"strings"
	"sync"
	"time"
)

// Snapshot is one retained version of a file (contract §2). The tag is only
// an index; Digest is what every authorization compares.
type Snapshot struct {
	Digest Digest
	Tag    string
	// Text is the canonical text, kept so a drifted file can be diffed
	// against the version the model saw. It is "" (Retained false) when the
	// version is over MaxRetainedText or the session's text budget evicted it.
	Text     string
	Retained bool
	Lines    int     // line count of the version
	Seen     LineSet // lines this session displayed in full, in this version's numbering
	At       time.Time
}

// history is one path's versions, newest first.
type history struct {
	versions []Snapshot
	used     uint64 // LRU clock
}

type register struct {
	lines []string
	used  uint64
}

// Store is one session's snapshot store: the versions of each path the
// session has seen, what it has seen of each, and its named registers. The
// caller keeps one per session (subagents get their own) and drops it with
// the session; nothing is persisted. All methods are safe for concurrent
// use, but Plan/Commit pairs must be serialized by the caller's per-session
// mutation lock so no Record lands between a validation and its write.
type Store struct {
	mu    sync.Mutex
	lim   Limits
	ol    opsLimits
	now   func() time.Time
	paths map[string]*history
	regs  map[string]*register
	clock uint64
	text  int // bytes of retained Text
}

// NewStore returns an empty store bounded by l; now stamps versions (nil
// means time.Now). Non-positive limits fall back to DefaultLimits.
func NewStore(l Limits, now func() time.Time) *Store {
	d := DefaultLimits()
	if l.Paths <= 0 {
		l.Paths = d.Paths
	}
	if l.Versions <= 0 {
		l.Versions = d.Versions
	}
	if l.TextBytes <= 0 {
		l.TextBytes = d.TextBytes
	}
	if l.Registers <= 0 {
		l.Registers = d.Registers
	}
	if now == nil {
		now = time.Now
	}
	return &Store{lim: l, ol: defaultOpsLimits(), now: now, paths: map[string]*history{}, regs: map[string]*register{}}
}

// Record notes that the session was shown version t of key, with the lines
// in seen displayed in full. Producers: Read (lines emitted in full), Grep
// content mode (match and context rows; files/count modes pass an empty
// set), Write (every line that landed). A version already stored moves to
// the front and gains seen, so paginated Reads of one file build up one tag.
func (s *Store) Record(key string, t Text, seen LineSet) {
	c := t.Canonical()
	s.RecordCanonical(key, c, digestString(c), len(t.Lines), seen)
}

// RecordCanonical is Record for a caller that already holds the canonical
// text and its digest (Read computes both once; see CanonicalOf).
func (s *Store) RecordCanonical(key, canonical string, d Digest, lines int, seen LineSet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordLocked(key, canonical, len(canonical), d, lines, seen)
}

// RecordSized is RecordCanonical for a caller that builds the canonical
// text only when the store keeps it: canonical is that text when size (its
// length) is within MaxRetainedText, and may be "" otherwise.
func (s *Store) RecordSized(key, canonical string, size int, d Digest, lines int, seen LineSet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordLocked(key, canonical, size, d, lines, seen)
}

// recordLocked records a version whose canonical text is size bytes long;
// canon holds that text when size is within MaxRetainedText (callers may
// skip building a text the store would not keep).
func (s *Store) recordLocked(key, canon string, size int, d Digest, lines int, seen LineSet) {
	s.clock++
	h := s.paths[key]
	if h == nil {
		h = &history{}
		s.paths[key] = h
	}
	h.used = s.clock
	seen = seen.Clip(lines)
	for i, v := range h.versions {
		if v.Digest == d {
			v.Seen = v.Seen.Union(seen)
			v.At = s.now()
			copy(h.versions[1:i+1], h.versions[:i])
			h.versions[0] = v
			return
		}
	}
	v := Snapshot{Digest: d, Tag: d.Tag(), Lines: lines, Seen: seen.Clone(), At: s.now()}
	if size <= MaxRetainedText && len(canon) == size {
		v.Text, v.Retained = canon, true
		s.text += len(canon)
	}
	h.versions = append([]Snapshot{v}, h.versions...)
	for len(h.versions) > s.lim.Versions {
		s.text -= len(h.versions[len(h.versions)-1].Text)
		h.versions = h.versions[:len(h.versions)-1]
	}
	for len(s.paths) > s.lim.Paths {
		s.dropLocked(s.lruLocked(""))
	}
	s.trimTextLocked(key)
}

// lruLocked returns the least recently used path other than keep.
func (s *Store) lruLocked(keep string) string {
	var victim string
	var best uint64
	for k, h := range s.paths {
		if k != keep && (victim == "" || h.used < best || (h.used == best && k < victim)) {
			victim, best = k, h.used
		}
	}
	return victim
}

func (s *Store) dropLocked(key string) {
	if h := s.paths[key]; h != nil {
		for _, v := range h.versions {
			s.text -= len(v.Text)
		}
		delete(s.paths, key)
	}
}

// trimTextLocked forgets the text (not the digest or Seen) of the oldest
// versions of the least recently used paths until the budget holds. The
// versions stay usable for direct edits; they only lose drift recovery.
func (s *Store) trimTextLocked(newest string) {
	for s.text > s.lim.TextBytes {
		var vh *history
		vi, vrank := -1, 0
		for k, h := range s.paths {
			i := len(h.versions) - 1
			for i >= 0 && !h.versions[i].Retained {
				i--
			}
			if i < 0 {
				continue
			}
			rank := 0 // other paths lose their text before the one just recorded
			if k == newest {
				rank = 1
			}
			if vh == nil || rank < vrank || rank == vrank && h.used < vh.used {
				vh, vi, vrank = h, i, rank
			}
		}
		if vh == nil {
			return
		}
		s.text -= len(vh.versions[vi].Text)
		vh.versions[vi].Text, vh.versions[vi].Retained = "", false
	}
}

// Invalidate drops key's history: a host rollback replaced the bytes the
// session's tags name, so no edit may be validated against them.
func (s *Store) Invalidate(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropLocked(key)
}

// Candidates returns key's versions whose tag equals tag (any case), newest
// first. Several can match: the tag is a 16-bit index, not an identity.
func (s *Store) Candidates(key, tag string) []Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Snapshot
	if h := s.paths[key]; h != nil {
		for _, v := range h.versions {
			if strings.EqualFold(v.Tag, tag) {
				v.Seen = v.Seen.Clone()
				out = append(out, v)
			}
		}
	}
	return out
}

// Versions returns all of key's versions, newest first.
func (s *Store) Versions(key string) []Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Snapshot
	if h := s.paths[key]; h != nil {
		for _, v := range h.versions {
			v.Seen = v.Seen.Clone()
			out = append(out, v)
		}
	}
	return out
}

// lookup returns key's version with digest d, whether it is the head, and
// whether it exists.
func (s *Store) lookup(key string, d Digest) (Snapshot, bool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.paths[key]; h != nil {
		for i, v := range h.versions {
			if v.Digest == d {
				v.Seen = v.Seen.Clone()
				return v, i == 0, true
			}
		}
	}
	return Snapshot{}, false, false
}

// isHead reports whether d is key's newest version.
func (s *Store) isHead(key string, d Digest) bool {
	_, head, ok := s.lookup(key, d)
	return ok && head
}

// register returns the committed named register name.
func (s *Store) register(name string) ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.regs[name]
	if r == nil {
		return nil, false
	}
	return append([]string(nil), r.lines...), true
}

// Commit records a successful edit after its write landed: the new text
// becomes key's head with the plan's Seen set, named registers captured by
// the call are committed, MV moves the history to moveToKey (the caller's
// canonical key for MoveTo; "" keeps key), and REM drops the history. If a
// formatter rewrote the landed bytes, the caller also Records what it re-read.
func (s *Store) Commit(key string, p *EditPlan, moveToKey string) {
	if p == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, lines := range p.regs {
		s.clock++
		s.regs[name] = &register{lines: lines, used: s.clock}
	}
	for len(s.regs) > s.lim.Registers {
		var victim string
		var best uint64
		for k, r := range s.regs {
			if victim == "" || r.used < best || (r.used == best && k < victim) {
				victim, best = k, r.used
			}
		}
		delete(s.regs, victim)
	}
	if p.Remove {
		s.dropLocked(key)
		return
	}
	target := key
	if p.MoveTo != "" && moveToKey != "" && moveToKey != key {
		s.dropLocked(moveToKey)
		if h := s.paths[key]; h != nil {
			delete(s.paths, key)
			s.paths[moveToKey] = h
		}
		target = moveToKey
	}
	s.recordLocked(target, p.canon, p.canonLen, p.NewDigest(), p.lines, p.seen)
}
