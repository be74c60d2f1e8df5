package search

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// A pattern with no required literal gives the builtin searcher nothing to
// skip on, and Go's regexp (an NFA simulation) then walks every byte of
// every file at a few hundred MB/s. lineDFA answers the only question
// Grep asks of a line, "does it hold a match anywhere", with a lazily built
// DFA over the same compiled program regexp runs: each state is the set of
// threads waiting for the next rune, plus what the empty-width assertions
// need to know of the rune before (line start, word character), so one
// table lookup per ASCII byte replaces the NFA's thread list. Only states
// the input reaches are built, at most maxDFAStates of them; past that the
// search goes back to regexp, which answers the same.

// Most bytes of most lines leave the search where it was: no match under
// way, only the program's start waiting (an idle state, with no threads
// of its own). Such a state is "accelerated": all its ASCII transitions
// are built at once, and the bytes that lead back to it are skipped by a
// table scan instead of a transition each (for a date pattern, everything
// but digits, newlines and non-ASCII bytes). The rune before a position is
// tracked only as far as the program asks (^ and \b), so that one idle
// state serves the whole line.

// maxDFAStates bounds the states (about 1 KB each) one lineDFA builds.
const maxDFAStates = 2048

type dfaState struct {
	pcs   []uint32 // threads waiting on a rune: the Out of the rune instructions that matched
	begin bool     // no rune before on this line (only when the program has ^ or \A)
	word  bool     // the rune before is a word character (only when it has \b or \B)
	next  [utf8.RuneSelf]*dfaState
	other map[rune]*dfaState // after non-ASCII runes, up to maxOtherRunes of them
	end   int8               // a match ends at the end of the line: 0 not known yet, 1 yes, -1 no
	// stay, for an accelerated state, marks the bytes after which the
	// search is still in this state (not '\n', nor a non-ASCII byte).
	stay *[256]bool
}

// maxOtherRunes bounds the non-ASCII transitions kept per state.
const maxOtherRunes = 256

type lineDFA struct {
	prog    *syntax.Prog
	states  map[string]*dfaState
	start   *dfaState
	matched *dfaState // sentinel: a match ends before the rune
	full    bool      // maxDFAStates reached: regexp takes over
	// needBegin and needWord: the program tests line starts (^, \A) or
	// word boundaries (\b, \B), so states must know the rune before.
	needBegin, needWord bool
	// asciiOnly: no rune instruction can match a non-ASCII rune, so any
	// such rune (or invalid byte) leaves an idle state idle.
	asciiOnly bool

	// scratch for step
	seen  []bool
	stack []uint32
	runes []uint32
	key   []byte
}

func newLineDFA(prog *syntax.Prog) *lineDFA {
	d := &lineDFA{prog: prog, states: map[string]*dfaState{}, matched: &dfaState{}, seen: make([]bool, len(prog.Inst)), asciiOnly: true}
	for i := range prog.Inst {
		in := &prog.Inst[i]
		switch in.Op {
		case syntax.InstEmptyWidth:
			op := syntax.EmptyOp(in.Arg)
			d.needBegin = d.needBegin || op&(syntax.EmptyBeginLine|syntax.EmptyBeginText) != 0
			d.needWord = d.needWord || op&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			d.asciiOnly = d.asciiOnly && matchesOnlyASCII(in)
		}
	}
	d.start = d.state(nil, true, false)
	return d
}

// state returns the state for pcs (sorted) after a rune of the given kind.
func (d *lineDFA) state(pcs []uint32, begin, word bool) *dfaState {
	begin, word = begin && d.needBegin, word && d.needWord
	k := d.key[:0]
	k = append(k, boolByte(begin), boolByte(word))
	for _, pc := range pcs {
		k = append(k, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	d.key = k
	if s, ok := d.states[string(k)]; ok {
		return s
	}
	if len(d.states) >= maxDFAStates {
		d.full = true
		return nil
	}
	s := &dfaState{pcs: slices.Clone(pcs), begin: begin, word: word}
	d.states[string(k)] = s
	if len(pcs) == 0 {
		d.accelerate(s)
	}
	return s
}

// accelerate builds all of the idle state s's ASCII transitions and, if
// at least half of them lead back to s, the table the scan skips by. It
// leaves s as it is when the state budget runs out on the way.
func (d *lineDFA) accelerate(s *dfaState) {
	stay := new([256]bool)
	n := 0
	for c := range utf8.RuneSelf {
		if c == '\n' {
			continue
		}
		ns := s.next[c]
		if ns == nil {
			if ns = d.step(s, rune(c)); ns == nil {
				return
			}
			s.next[c] = ns
		}
		if ns == s {
			stay[c] = true
			n++
		}
	}
	if n < utf8.RuneSelf/2 {
		return
	}
	// When no instruction matches a non-ASCII rune, every such rune (and
	// invalid byte, decoded as U+FFFD) leads where U+FFFD does: the
	// position's context is the same for all of them.
	if d.asciiOnly && d.step(s, utf8.RuneError) == s {
		for c := utf8.RuneSelf; c < len(stay); c++ {
			stay[c] = true
		}
	}
	s.stay = stay
}

// skipsIdle reports whether the DFA's idle state (no match under way, the
// rune before neither a line start nor a word character) skips both the
// ASCII bytes that keep it idle and every non-ASCII one: most of a file
// is then scanned by table, not by transitions.
func (d *lineDFA) skipsIdle() bool {
	s := d.state(nil, false, false)
	return s != nil && s.stay != nil && s.stay[utf8.RuneSelf]
}

// matchesOnlyASCII reports whether the rune instruction in can match no
// rune above 0x7F (under case folding, 'k' and 's' match the Kelvin sign
// and the long s).
func matchesOnlyASCII(in *syntax.Inst) bool {
	switch in.Op {
	case syntax.InstRune1:
		return in.Rune[0] < utf8.RuneSelf
	case syntax.InstRune:
		if len(in.Rune) == 1 && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			return false // one folded rune: be safe rather than list its folds
		}
		for _, r := range in.Rune {
			if r >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	return false
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// before is a rune standing for what the state knows of the rune before it.
func (s *dfaState) before() rune {
	switch {
	case s.begin:
		return -1
	case s.word:
		return 'a'
	}
	return ' '
}

// closure follows the empty transitions from s's threads and from a new
// thread at the program start (the search is unanchored), where the
// position's context is flags. It fills d.runes with the rune instructions
// reached and reports whether a match ends here.
func (d *lineDFA) closure(s *dfaState, flags syntax.EmptyOp) bool {
	clear(d.seen)
	d.runes = d.runes[:0]
	d.stack = append(d.stack[:0], uint32(d.prog.Start))
	d.stack = append(d.stack, s.pcs...)
	matched := false
	for len(d.stack) > 0 {
		pc := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		if d.seen[pc] {
			continue
		}
		d.seen[pc] = true
		in := &d.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			d.stack = append(d.stack, in.Arg, in.Out)
		case syntax.InstCapture, syntax.InstNop:
			d.stack = append(d.stack, in.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^flags == 0 {
				d.stack = append(d.stack, in.Out)
			}
		case syntax.InstMatch:
			matched = true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			d.runes = append(d.runes, pc)
		}
	}
	return matched
}

// step returns the state after r from s, d.matched when a match ends
// before r, or nil when the state budget is spent.
func (d *lineDFA) step(s *dfaState, r rune) *dfaState {
	if d.closure(s, syntax.EmptyOpContext(s.before(), r)) {
		return d.matched
	}
	var next []uint32
	for _, pc := range d.runes {
		in := &d.prog.Inst[pc]
		ok := false
		switch in.Op {
		case syntax.InstRuneAny:
			ok = true
		case syntax.InstRuneAnyNotNL:
			ok = r != '\n'
		default:
			ok = in.MatchRune(r)
		}
		if ok {
			next = append(next, in.Out)
		}
	}
	slices.Sort(next)
	next = slices.Compact(next)
	return d.state(next, false, syntax.IsWordChar(r))
}

// endMatches reports whether a match ends at the end of the line in s.
func (d *lineDFA) endMatches(s *dfaState) bool {
	if s.end == 0 {
		s.end = -1
		if d.closure(s, syntax.EmptyOpContext(s.before(), -1)) {
			s.end = 1
		}
	}
	return s.end > 0
}

// lines returns the 1-based numbers of the lines of text holding a match,
// at most max of them (0 = all), as matchLines defines lines (what follows
// the final newline is a line only when it is not empty). ok is false when
// the state budget ran out: the caller must search another way.
func (d *lineDFA) lines(text []byte, max int) (out []int, ok bool) {
	n, s := 1, d.start
	for i := 0; i < len(text); {
		if stay := s.stay; stay != nil {
			for i < len(text) && stay[text[i]] {
				i++
			}
			if i == len(text) {
				break
			}
		}
		c := text[i]
		if c == '\n' {
			if d.endMatches(s) {
				if out = append(out, n); len(out) == max {
					return out, true
				}
			}
			n, s, i = n+1, d.start, i+1
			continue
		}
		var ns *dfaState
		size := 1
		if c < utf8.RuneSelf {
			if ns = s.next[c]; ns == nil {
				if ns = d.step(s, rune(c)); ns == nil {
					return nil, false
				}
				s.next[c] = ns
			}
		} else {
			var r rune
			r, size = utf8.DecodeRune(text[i:]) // as regexp decodes: a bad byte is U+FFFD, width 1
			if ns = s.other[r]; ns == nil {
				if ns = d.step(s, r); ns == nil {
					return nil, false
				}
				if s.other == nil {
					s.other = map[rune]*dfaState{}
				}
				if len(s.other) < maxOtherRunes {
					s.other[r] = ns
				}
			}
		}
		if ns == d.matched {
			if out = append(out, n); len(out) == max {
				return out, true
			}
			j := bytes.IndexByte(text[i:], '\n')
			if j < 0 {
				return out, true
			}
			n, s, i = n+1, d.start, i+j+1
			continue
		}
		s, i = ns, i+size
	}
	if len(text) > 0 && text[len(text)-1] != '\n' && d.endMatches(s) {
		out = append(out, n)
	}
	return out, true
}
