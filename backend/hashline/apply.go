package hashline

import (
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Lowering turns parsed ops into per-line deletes and per-gap inserts in the
// numbering of the tagged snapshot. Because every number refers to that one
// snapshot, ops never shift each other and their order only matters for
// registers; anything that would make the result depend on order (a line
// consumed twice, a gap given two bodies, an insert beside a consumed line)
// is rejected rather than merged.

const (
	edgeHead = 0 // `<1`: follows the live file's head
	edgeNone = 1 // anchored gap: follows the anchor's offset
	edgeTail = 2 // `>$`: follows the live file's end
)

type gapIns struct {
	gap   int // 0..L in snapshot numbering
	edge  int
	lines []string
	op    int
}

type cut struct{ a, b, op int }

// lowered is a validated, order-independent edit on a snapshot.
type lowered struct {
	cuts    []cut    // consumed spans, sorted, disjoint
	ins     []gapIns // sorted by gap
	anchors LineSet
	blocks  []ResolvedBlock
	regs    map[string][]string // named captures, committed on success
	mv      string
	rem     bool
	content bool // any PUT or CUT
}

type capture struct {
	lines  []string
	pasted bool
}

// edgesOnly reports whether every op is anchor-free and follows the live
// file's ends (branch B): `<1`, `>$`, a paste into those gaps, or MV.
func edgesOnly(p *parsedOps) bool {
	for _, o := range p.ops {
		switch {
		case o.kind == opMv:
		case o.kind == opPut && (o.loc == locEnd || o.loc == locBefore && o.a == 1):
		default:
			return false
		}
	}
	return true
}

// lower resolves p against the snapshot base (its lines and canonical text).
func lower(p *parsedOps, base []string, canon, display string, st *Store, ol opsLimits) (*lowered, *EditError) {
	L := len(base)
	low := &lowered{}
	res := &resolver{lang: blockLang(display), canon: canon, lines: base, limit: ol.blockParse}
	var anon []*capture
	pending := map[string][]string{}
	gapOwner := map[int]int{}
	type gapRef struct{ lo, hi, op int }
	var refs []gapRef
	expanded := p.rows
	pastLast := func(o op, n int) *EditError {
		if L == 0 {
			return rangeErr(o.opsLine, "`%s`: the file is empty; only `PUT <1:` or `PUT >$:` (or REM, MV) apply", o.src)
		}
		return rangeErr(o.opsLine, "`%s`: line %d is past the end of the file (%d lines); the last line is %d, `>$` is the end", o.src, n, L, L)
	}
	block := func(o op) (int, int, *EditError) {
		if o.a > L {
			return 0, 0, pastLast(o, o.a)
		}
		s, e, err := res.resolve(o)
		if err != nil {
			return 0, 0, err
		}
		low.blocks = append(low.blocks, ResolvedBlock{Line: o.a, Start: s, End: e, Lang: res.lang})
		return s, e, nil
	}
	for idx, o := range p.ops {
		switch o.kind {
		case opRem:
			low.rem = true
			continue
		case opMv:
			low.mv = o.dest
			continue
		}
		low.content = true
		a, b, gap, edge := 0, 0, -1, edgeNone
		ref := gapRef{op: idx}
		switch o.loc {
		case locSpan:
			if o.a > o.b {
				return nil, rangeErr(o.opsLine, "`%s`: a span `N.=M` needs N ≤ M; write `%d.=%d`", o.src, o.b, o.a)
			}
			if o.b > L {
				return nil, pastLast(o, o.b)
			}
			a, b = o.a, o.b
		case locBlock:
			s, e, err := block(o)
			if err != nil {
				return nil, err
			}
			a, b = s, e
		case locBefore:
			switch {
			case o.a == 1:
				gap, edge = 0, edgeHead
			case o.a > L:
				return nil, rangeErr(o.opsLine, "`%s`: line %d is past the end of the file (%d lines); append with `PUT >$:`", o.src, o.a, L)
			default:
				gap = o.a - 1
				ref.lo, ref.hi = o.a, o.a
			}
		case locAfter:
			if o.a > L {
				return nil, pastLast(o, o.a)
			}
			gap = o.a
			ref.lo, ref.hi = o.a, o.a
		case locEnd:
			gap, edge = L, edgeTail
		case locAfterBlock:
			s, e, err := block(o)
			if err != nil {
				return nil, err
			}
			gap = e
			ref.lo, ref.hi = s, e
		}
		if o.kind == opCut {
			lines := slices.Clone(base[a-1 : b])
			if len(lines) > ol.regLines {
				return nil, limitErr("register capture in lines", ol.regLines, len(lines))
			}
			if n := textBytes(lines); n > ol.regBytes {
				return nil, limitErr("register capture in bytes", ol.regBytes, n)
			}
			if o.hasReg && o.reg != "" {
				pending[o.reg] = lines
			} else {
				anon = append(anon, &capture{lines: lines})
			}
			low.cuts = append(low.cuts, cut{a, b, idx})
			low.anchors.Add(a, b)
			continue
		}
		body := o.body
		if !o.hasBody {
			var err *EditError
			if body, err = paste(o, anon, pending, st); err != nil {
				return nil, err
			}
			expanded += len(body)
			if expanded > ol.expandedLines {
				return nil, limitErr("expanded lines", ol.expandedLines, expanded)
			}
		}
		if a > 0 {
			low.cuts = append(low.cuts, cut{a, b, idx})
			low.anchors.Add(a, b)
			gap = a - 1
		}
		if prev, ok := gapOwner[gap]; ok {
			return nil, rangeErr(o.opsLine, "`%s` and `%s` (ops line %d) both insert at the gap after line %d; merge their rows into one body",
				o.src, p.ops[prev].src, p.ops[prev].opsLine, gap)
		}
		gapOwner[gap] = idx
		low.ins = append(low.ins, gapIns{gap: gap, edge: edge, lines: body, op: idx})
		if ref.lo > 0 {
			refs = append(refs, ref)
			low.anchors.Add(ref.lo, ref.hi)
		}
	}
	slices.SortFunc(low.cuts, func(x, y cut) int { return x.a - y.a })
	for i := 1; i < len(low.cuts); i++ {
		if x, y := low.cuts[i-1], low.cuts[i]; y.a <= x.b {
			o, q := p.ops[y.op], p.ops[x.op]
			return nil, rangeErr(o.opsLine, "line %d is consumed twice, by `%s` (ops line %d) and `%s` (ops line %d); overlapping ops are never merged",
				y.a, q.src, q.opsLine, o.src, o.opsLine)
		}
	}
	for _, r := range refs {
		i, _ := slices.BinarySearchFunc(low.cuts, r.hi, func(c cut, n int) int {
			if c.a > n {
				return 1
			}
			return -1
		})
		if i == 0 {
			continue
		}
		c := low.cuts[i-1] // the last cut starting at or before r.hi
		if c.b < r.lo {
			continue
		}
		o, q := p.ops[r.op], p.ops[c.op]
		hint := "anchor the insert on a line that is not consumed"
		switch {
		case q.kind == opPut:
			hint = "put these rows into the body of `" + q.src + "`"
		case o.loc == locAfter && c.b < L:
			hint = "if line " + itoa(c.b) + " is cut, write `<" + itoa(c.b+1) + "`"
		case o.loc == locAfter:
			hint = "write `>$`"
		case o.loc == locBefore && c.a > 1:
			hint = "write `>" + itoa(c.a-1) + "`"
		case o.loc == locBefore:
			hint = "write `<1`"
		}
		return nil, rangeErr(o.opsLine, "`%s` names line %d, which `%s` (ops line %d) consumes; %s", o.src, max(r.lo, c.a), q.src, q.opsLine, hint)
	}
	slices.SortFunc(low.ins, func(x, y gapIns) int { return x.gap - y.gap })
	if len(pending) > 0 {
		low.regs = pending
	}
	return low, nil
}

// paste resolves a register read for o. Registers hold copies taken from
// the snapshot, so a paste never sees another op's output.
func paste(o op, anon []*capture, pending map[string][]string, st *Store) ([]string, *EditError) {
	if o.reg != "" {
		if v, ok := pending[o.reg]; ok {
			return v, nil
		}
		if v, ok := st.register(o.reg); ok {
			return v, nil
		}
		return nil, newErr(errs.EditRegisterEmpty, RetryFixOps,
			"`%s`: register @%s is unset; capture it first with `CUT N.=M @%s` (in this call, before the paste, or in an earlier successful call)", o.src, o.reg, o.reg).
			with("opsLine", o.opsLine).with("register", o.reg)
	}
	var un []*capture
	for _, c := range anon {
		if !c.pasted {
			un = append(un, c)
		}
	}
	switch {
	case len(un) == 1:
		un[0].pasted = true
		return un[0].lines, nil
	case len(un) > 1 || len(un) == 0 && len(anon) > 1:
		return nil, newErr(errs.EditRegisterAmbiguous, RetryFixOps,
			"`%s`: `@` is ambiguous with %d anonymous captures before it; name them (`CUT N.=M @a`, `PUT … @a`)", o.src, max(len(un), len(anon))).
			with("opsLine", o.opsLine).with("captures", max(len(un), len(anon)))
	case len(anon) == 1:
		return anon[0].lines, nil
	}
	return nil, newErr(errs.EditRegisterEmpty, RetryFixOps,
		"`%s`: the anonymous register is empty; `@` lasts one call, so `CUT N.=M` must come before the paste in the same ops", o.src).
		with("opsLine", o.opsLine).with("register", "")
}

func textBytes(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	return n
}

// applied is the result of applying a lowered edit to the live text.
type applied struct {
	text     Text
	lmap     []int    // live line → new line, 0 when deleted
	inserted [][2]int // new-numbering ranges of inserted lines
	points   []int    // new line before which deleted lines used to be
}

// applyAt applies low to live with snapshot line i at live line i+d. Head and
// tail inserts follow the live file's ends. New lines take the dominant
// terminator, untouched lines keep theirs, and the final-newline property
// is preserved (contract §4 rule 7, §10).
func applyAt(live Text, low *lowered, d int) applied {
	L := len(live.Lines)
	dom := dominantCRLF(live)
	type ins struct {
		gap, edge int
		lines     []string
	}
	gaps := make([]ins, 0, len(low.ins))
	for _, g := range low.ins {
		switch g.edge {
		case edgeHead:
			gaps = append(gaps, ins{0, edgeHead, g.lines})
		case edgeTail:
			gaps = append(gaps, ins{L, edgeTail, g.lines})
		default:
			gaps = append(gaps, ins{g.gap + d, edgeNone, g.lines})
		}
	}
	slices.SortStableFunc(gaps, func(x, y ins) int {
		if x.gap != y.gap {
			return x.gap - y.gap
		}
		return x.edge - y.edge
	})
	extra := 0
	for _, g := range gaps {
		extra += len(g.lines)
	}
	r := applied{lmap: make([]int, L+1)}
	out := make([]Line, 0, L+extra)
	gi, ci := 0, 0
	emit := func(g int) {
		for gi < len(gaps) && gaps[gi].gap == g {
			start := len(out) + 1
			for _, s := range gaps[gi].lines {
				out = append(out, Line{Text: s, CRLF: dom})
			}
			r.inserted = appendRange(r.inserted, start, len(out))
			gi++
		}
	}
	emit(0)
	for i := 1; i <= L; i++ {
		for ci < len(low.cuts) && low.cuts[ci].b+d < i {
			ci++
		}
		if ci < len(low.cuts) && low.cuts[ci].a+d <= i {
			if i == low.cuts[ci].b+d {
				r.points = append(r.points, len(out)+1)
			}
		} else {
			ln := live.Lines[i-1]
			if i == L && !live.FinalNewline {
				// It gains a terminator if anything follows it.
				ln.CRLF = dom || strings.HasSuffix(ln.Text, "\r")
			}
			out = append(out, ln)
			r.lmap[i] = len(out)
		}
		emit(i)
	}
	r.text = Text{Lines: out, BOM: live.BOM, FinalNewline: live.FinalNewline || L == 0}
	if n := len(out); n == 1 && !r.text.FinalNewline && out[0].Text == "" {
		// A lone empty line must keep a terminator, or it would not exist.
		r.text.FinalNewline = true
	} else if n > 1 && !r.text.FinalNewline && out[n-1].Text == "" {
		// An empty unterminated last line cannot be written: its bytes are
		// the previous line's terminator, which Decode reads back as a final
		// newline. Say so here, so line counts and Seen match the re-read.
		r.text.Lines, r.text.FinalNewline = out[:n-1], true
		for i := range r.inserted {
			r.inserted[i][1] = min(r.inserted[i][1], n-1)
		}
		r.inserted = slices.DeleteFunc(r.inserted, func(x [2]int) bool { return x[1] < x[0] })
		for i := range r.lmap {
			if r.lmap[i] == n {
				r.lmap[i] = 0
			}
		}
		for i := range r.points {
			r.points[i] = min(r.points[i], n-1)
		}
	}
	if len(r.text.Lines) == 0 {
		r.text.FinalNewline = false
	}
	return r
}

// appendRange appends [a,b] to rs, merging with the last range when adjacent.
func appendRange(rs [][2]int, a, b int) [][2]int {
	if b < a {
		return rs
	}
	if n := len(rs); n > 0 && rs[n-1][1] >= a-1 {
		rs[n-1][1] = max(rs[n-1][1], b)
		return rs
	}
	return append(rs, [2]int{a, b})
}

// dominantCRLF reports whether most terminated lines end in CRLF (ties: LF).
func dominantCRLF(t Text) bool {
	crlf, lf := 0, 0
	for i, l := range t.Lines {
		if i == len(t.Lines)-1 && !t.FinalNewline {
			break
		}
		if l.CRLF {
			crlf++
		} else {
			lf++
		}
	}
	return crlf > lf
}

// Encode renders t as file bytes: the BOM if it had one, each line with its
// own terminator, and a terminator on the last line only with FinalNewline.
func (t Text) Encode() []byte {
	b, _ := t.encode()
	return b
}

// encode is Encode, built straight into the returned slice; plain reports
// that it wrote no BOM and no CRLF, so the bytes are the canonical text.
func (t Text) encode() (out []byte, plain bool) {
	n := 3
	for _, l := range t.Lines {
		n += len(l.Text) + 2
	}
	b := make([]byte, 0, n)
	plain = true
	// Content that itself starts with U+FEFF would be taken for a BOM and
	// stripped on the next read, so it is protected by a real BOM.
	if t.BOM || len(t.Lines) > 0 && strings.HasPrefix(t.Lines[0].Text, "\uFEFF") {
		b = append(b, bom...)
		plain = false
	}
	for i, l := range t.Lines {
		b = append(b, l.Text...)
		if i < len(t.Lines)-1 || t.FinalNewline {
			// A text ending in \r followed by a bare \n would read back as
			// a CRLF terminator and lose the \r, so it always takes CRLF.
			if l.CRLF || strings.HasSuffix(l.Text, "\r") {
				b = append(b, '\r', '\n')
				plain = false
			} else {
				b = append(b, '\n')
			}
		}
	}
	return b, plain
}

// canonLen is the length of t.Canonical() without building it.
func canonLen(t Text) int {
	n := 0
	for _, l := range t.Lines {
		n += len(l.Text) + 1
	}
	if !t.FinalNewline && n > 0 {
		n--
	}
	return n
}
