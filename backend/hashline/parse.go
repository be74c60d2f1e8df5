package hashline

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// The ops grammar (contract §4) is parsed exactly: there are no lenient
// aliases, because a header the host "understood" differently from what the
// model meant would edit the wrong lines. Instead every rejection names the
// corrected form, so the model can fix the payload without another Read.

type opKind uint8

const (
	opPut opKind = iota + 1
	opCut
	opRem
	opMv
)

type locKind uint8

const (
	locSpan       locKind = iota + 1 // N.=M
	locBlock                         // N*
	locBefore                        // <N
	locAfter                         // >N
	locEnd                           // >$
	locAfterBlock                    // >N*
)

func (k locKind) isSpan() bool { return k == locSpan || k == locBlock }

// op is one parsed block. Line numbers refer to the tagged snapshot.
type op struct {
	kind    opKind
	opsLine int    // 1-based line of the block header in ops
	src     string // the header as written
	loc     locKind
	a, b    int // span a..b, or the N of a gap / block
	body    []string
	hasBody bool
	reg     string // register name; "" is the anonymous register
	hasReg  bool
	dest    string // MV
}

// parsedOps is the result of parseOps.
type parsedOps struct {
	ops        []op
	headerPath string // optional "[path#TAG]" first line
	headerTag  string
	hasHeader  bool
	rows       int // body rows, for the expanded-lines limit
}

var (
	headerRE    = regexp.MustCompile(`^\[(.+)#([0-9A-Fa-f]{4})\]$`)
	regNameRE   = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	pastedRowRE = regexp.MustCompile(`^([1-9][0-9]{0,8})~?[:-]`)
	// looseSpanRE catches the near-misses of "N.=M" that the grammar
	// refuses, so the error can name the exact corrected span.
	looseSpanRE = regexp.MustCompile(`^([0-9]+)\s*(?:\.\.|\.\.\.|-|–|=|,|:|\.=|\s+)\s*([0-9]+)`)
)

const maxLineNumber = 999_999_999

// parseOps parses ops under the limits in l.
func parseOps(src string, l opsLimits) (*parsedOps, *EditError) {
	if len(src) > l.opsBytes {
		return nil, limitErr("ops size in bytes", l.opsBytes, len(src))
	}
	if !utf8.ValidString(src) || strings.IndexByte(src, 0) >= 0 {
		// The result must stay a text file (contract §1), or it could
		// never be edited again.
		n := 1
		for i := 0; i < len(src); {
			r, w := utf8.DecodeRuneInString(src[i:])
			if r == 0 || r == utf8.RuneError && w == 1 {
				break
			}
			if r == '\n' {
				n++
			}
			i += w
		}
		got := strings.Split(src, "\n")[n-1]
		return nil, parseErr(n, strings.ToValidUTF8(strings.ReplaceAll(got, "\x00", "\\0"), "\uFFFD"), "UTF-8 text without NUL",
			"ops line %d holds invalid UTF-8 or a NUL byte; the file must stay text", n)
	}
	lines := strings.Split(src, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the terminator of the last line
	}
	p := &parsedOps{}
	i := 0
	if len(lines) > 0 && strings.HasPrefix(lines[0], "[") {
		h := strings.TrimRight(lines[0], " \t\r")
		m := headerRE.FindStringSubmatch(h)
		if m == nil {
			return nil, parseErr(1, lines[0], "[path#TAG]", "the ops header `%s` is malformed; write `[path#TAG]` with the 4-hex-digit tag, or omit the header", clipRunes(h, 80))
		}
		p.hasHeader, p.headerPath, p.headerTag = true, m[1], m[2]
		i = 1
	}
	isRow := func(j int) bool { return j < len(lines) && strings.HasPrefix(lines[j], "+") }
	for i < len(lines) {
		n := i + 1
		raw := lines[i]
		line := strings.TrimRight(raw, " \t\r")
		switch {
		case line == "":
			i++
			continue
		case strings.HasPrefix(raw, "+"):
			return nil, parseErr(n, raw, "PUT loc:", "row %d (`%s`) is outside a body: + rows must follow a `PUT loc:` header", n, clipRunes(raw, 60))
		}
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		o, err := parseCmd(n, line, next)
		if err != nil {
			return nil, err
		}
		i++
		if o.hasBody {
			for i < len(lines) {
				if isRow(i) {
					o.body = append(o.body, strings.TrimRight(lines[i][1:], "\r"))
					i++
					continue
				}
				// A blank line followed by more rows is an ambiguous empty
				// row; a blank line before the next header is a separator.
				if strings.TrimRight(lines[i], "\r") == "" {
					j := i
					for j < len(lines) && strings.TrimRight(lines[j], "\r") == "" {
						j++
					}
					if isRow(j) {
						return nil, parseErr(i+1, "", "+", "line %d is blank inside the body of `%s`; write `+` for an empty row", i+1, o.src)
					}
				}
				break
			}
			if len(o.body) == 0 {
				return nil, parseErr(n, o.src, o.src+"\n+…", "`%s` has no + rows; add rows (`+` is an empty line), or use `CUT` to delete lines", o.src)
			}
			if err := checkPastedRows(o); err != nil {
				return nil, err
			}
			p.rows += len(o.body)
			if p.rows > l.expandedLines {
				return nil, limitErr("expanded lines", l.expandedLines, p.rows)
			}
		}
		p.ops = append(p.ops, o)
		if len(p.ops) > l.ops {
			return nil, limitErr("ops per call", l.ops, len(p.ops))
		}
	}
	if len(p.ops) == 0 {
		return nil, parseErr(1, "", "PUT loc:", "ops is empty; send at least one op such as `PUT N.=M:` followed by + rows")
	}
	var mv, rem int
	for _, o := range p.ops {
		switch o.kind {
		case opMv:
			mv++
			if mv > 1 {
				return nil, parseErr(o.opsLine, o.src, "MV DEST", "more than one MV; an Edit renames at most once")
			}
		case opRem:
			rem++
		}
	}
	if rem > 0 && len(p.ops) > 1 {
		o := p.ops[0]
		for _, x := range p.ops {
			if x.kind == opRem {
				o = x
			}
		}
		return nil, parseErr(o.opsLine, o.src, "REM", "REM must be the only op; send REM alone")
	}
	return p, nil
}

// parseCmd parses one block header. next is the following ops line: whether
// + rows follow decides how a missing ":" is explained.
func parseCmd(n int, s, next string) (op, *EditError) {
	o := op{opsLine: n, src: s}
	nextIsRow := strings.HasPrefix(next, "+")
	word, rest, _ := strings.Cut(s, " ")
	switch word {
	case "REM":
		if s != "REM" {
			return o, parseErr(n, s, "REM", "`%s`: REM takes no arguments; write `REM`", s)
		}
		o.kind = opRem
		return o, nil
	case "MV":
		if rest == "" || strings.TrimSpace(rest) != rest {
			return o, parseErr(n, s, "MV DEST", "`%s`: write `MV DEST` with exactly one space before the destination path", s)
		}
		o.kind, o.dest = opMv, rest
		return o, nil
	case "PUT", "CUT":
	default:
		if up := strings.ToUpper(word); up == "PUT" || up == "CUT" || up == "REM" || up == "MV" {
			fixed := up + s[len(word):]
			return o, parseErr(n, s, fixed, "`%s`: op names are upper case; use `%s`", s, fixed)
		}
		if strings.HasPrefix(s, "-") {
			return o, parseErr(n, s, "+text", "line %d starts with `-`: there are no -old rows; body rows start with `+`, and lines are deleted with `CUT N.=M`", n)
		}
		if pastedRowRE.MatchString(s) {
			return o, parseErr(n, s, "+text", "line %d looks like a pasted Read row (`N:text`); body rows are `+text` without the line-number prefix", n)
		}
		return o, parseErr(n, s, "PUT|CUT|REM|MV", "line %d (`%s`) is not an op; expected `PUT`, `CUT`, `REM` or `MV`, or a `+` row inside a body", n, clipRunes(s, 60))
	}
	if word == "PUT" {
		o.kind = opPut
	} else {
		o.kind = opCut
	}
	loc, a, b, tail, ok := parseLoc(rest)
	if !ok {
		fixed := suggest(word, rest, nextIsRow)
		if fixed != "" {
			return o, parseErr(n, s, fixed, "`%s` is not a valid location; use `%s`", s, fixed)
		}
		return o, parseErr(n, s, word+" N.=M", "`%s`: the location must be `N.=M`, `N*`, `<N`, `>N`, `>N*` or `>$` (N ≥ 1, no leading zeros)", s)
	}
	o.loc, o.a, o.b = loc, a, b
	head := word + " " + rest[:len(rest)-len(tail)]
	if o.kind == opCut {
		if !loc.isSpan() {
			return o, parseErr(n, s, "CUT N.=M", "`%s`: CUT takes a span (`N.=M` or `N*`), not a gap", s)
		}
		switch {
		case tail == "":
			return o, nil
		case strings.HasPrefix(tail, " @"):
			return parseReg(o, n, s, head, tail[2:])
		case tail == ":":
			return o, parseErr(n, s, head, "`%s`: CUT takes no body; use `%s` (and `PUT` to insert text)", s, head)
		}
		return o, parseErr(n, s, head+" @r", "`%s`: after the span expected nothing or ` @register`", s)
	}
	switch {
	case tail == ":":
		o.hasBody = true
		if !nextIsRow && pastedRowRE.MatchString(next) {
			return o, parseErr(n+1, next, "+text", "the body of `%s` starts with a pasted Read row (`N:text`); write each row as `+text` without the line-number prefix", s)
		}
		if !nextIsRow {
			return o, parseErr(n, s, s+"\n+…", "`%s` has no + rows; add rows (`+` is an empty line), or use `CUT` to delete lines", s)
		}
		return o, nil
	case tail == "":
		if nextIsRow {
			return o, parseErr(n, s, head+":", "`%s` lacks `:` before + rows; use `%s:`", s, head)
		}
		return o, parseErr(n, s, head+":", "`%s` needs `:` and + rows (`%s:`), or a register (`%s @r`); to delete lines use `CUT`", s, head, head)
	case strings.HasPrefix(tail, " @"):
		if nextIsRow {
			return o, parseErr(n, s, head+":", "`%s` pastes a register but + rows follow; use `%s:` for rows, or drop the rows", s, head)
		}
		return parseReg(o, n, s, head, tail[2:])
	case strings.HasPrefix(strings.TrimLeft(tail, " "), ":") && nextIsRow:
		return o, parseErr(n, s, head+":", "`%s`: no space before `:`; use `%s:`", s, head)
	}
	return o, parseErr(n, s, head+":", "`%s`: after the location expected `:` (then + rows) or ` @register`", s)
}

func parseReg(o op, n int, s, head, name string) (op, *EditError) {
	if name != "" && !regNameRE.MatchString(name) {
		return o, parseErr(n, s, head+" @name", "`%s`: a register is `@` (anonymous) or `@name` with letters, digits, `_` or `-`", s)
	}
	o.hasReg, o.reg = true, name
	return o, nil
}

// parseLoc parses the location at the start of s and returns what follows.
func parseLoc(s string) (k locKind, a, b int, tail string, ok bool) {
	switch {
	case strings.HasPrefix(s, ">$"):
		return locEnd, 0, 0, s[2:], true
	case strings.HasPrefix(s, "<"):
		if v, r, good := parseInt(s[1:]); good {
			return locBefore, v, v, r, true
		}
		return
	case strings.HasPrefix(s, ">"):
		v, r, good := parseInt(s[1:])
		if !good {
			return
		}
		if strings.HasPrefix(r, "*") {
			return locAfterBlock, v, v, r[1:], true
		}
		return locAfter, v, v, r, true
	}
	a, r, good := parseInt(s)
	if !good {
		return
	}
	if strings.HasPrefix(r, "*") {
		return locBlock, a, a, r[1:], true
	}
	if !strings.HasPrefix(r, ".=") {
		return 0, 0, 0, "", false
	}
	b, r, good = parseInt(r[2:])
	if !good {
		return 0, 0, 0, "", false
	}
	return locSpan, a, b, r, true
}

// parseInt parses int = [1-9][0-9]* (at most 9 digits) at the start of s.
func parseInt(s string) (int, string, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 || s[0] == '0' {
		return 0, s, false
	}
	v, _ := strconv.Atoi(s[:i])
	return v, s[i:], true
}

// suggest returns the corrected header for a near-miss location such as
// "48..50", "48-50", "48:" or "048.=50", or "" when there is no single
// obvious correction.
func suggest(word, rest string, nextIsRow bool) string {
	rest = strings.TrimLeft(rest, " ")
	suffix := func(tail string) string {
		tail = strings.TrimLeft(tail, " ")
		switch {
		case strings.HasPrefix(tail, "@"):
			return " " + strings.Fields(tail)[0]
		case word == "PUT" && (nextIsRow || strings.HasPrefix(tail, ":")):
			return ":"
		}
		return ""
	}
	if m := looseSpanRE.FindStringSubmatchIndex(rest); m != nil {
		a, _ := strconv.Atoi(rest[m[2]:m[3]])
		b, _ := strconv.Atoi(rest[m[4]:m[5]])
		if a >= 1 && b >= 1 && a <= maxLineNumber && b <= maxLineNumber {
			return word + " " + strconv.Itoa(a) + ".=" + strconv.Itoa(b) + suffix(rest[m[1]:])
		}
	}
	// A single number: "PUT 48:" or "PUT 048.=…" without a second number.
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if j > 0 {
		a, _ := strconv.Atoi(rest[:j])
		if a >= 1 && a <= maxLineNumber {
			t := rest[j:]
			if strings.HasPrefix(t, "*") {
				return word + " " + strconv.Itoa(a) + "*" + suffix(t[1:])
			}
			if strings.HasPrefix(t, ".=") {
				return ""
			}
			return word + " " + strconv.Itoa(a) + ".=" + strconv.Itoa(a) + suffix(t)
		}
	}
	return ""
}

// checkPastedRows rejects a body made of pasted Read rows ("+6:\treturn …"):
// stripping the prefixes would guess at what the model meant, so the call
// fails instead (contract §10). Every row must look like a row, and the
// numbers must be consecutive; a single row must also sit at the op's anchor.
func checkPastedRows(o op) *EditError {
	prev := 0
	for i, r := range o.body {
		m := pastedRowRE.FindStringSubmatch(r)
		if m == nil {
			return nil
		}
		v, _ := strconv.Atoi(m[1])
		if i > 0 && v != prev+1 {
			return nil
		}
		prev = v
	}
	if len(o.body) == 1 {
		v := prev
		switch o.loc {
		case locEnd:
			return nil
		default:
			if v < o.a-1 || v > o.b+1 {
				return nil
			}
		}
	}
	return parseErr(o.opsLine+1, "+"+o.body[0], "+text",
		"the body of `%s` is made of pasted Read rows (`N:text`); write each row as `+text` without the line-number prefix", o.src)
}

// clipRunes shortens s to at most n runes for messages.
func clipRunes(s string, n int) string {
	return truncate.RunesEllipsis(s, n)
}
