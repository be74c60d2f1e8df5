package hashline

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParseOps: the parser never panics, and every rejection is a structured
// EDIT_PARSE_FAILED or EDIT_LIMIT naming an ops line.
func FuzzParseOps(f *testing.F) {
	for _, s := range []string{
		"PUT 6.=6:\n+x", "PUT 48.=48\n+x", "CUT 1.=2 @r\nPUT >$ @r", "PUT 3*:\n+a\n+\n++b",
		"[a.go#ABCD]\nREM", "MV x/y.go", "PUT 48..50:\n+x", "PUT >3*:\n+x", "PUT <1:\n+a\n\n+b",
		"PUT 6.=6:\n+6:x", "put 1.=1", "CUT 0.=1", "PUT 1.=2 @\nCUT 1.=1", "\n\n", "[",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ops string) {
		p, err := parseOps(ops, defaultOpsLimits())
		if err != nil {
			if p != nil {
				t.Fatal("rejected with a result")
			}
			if err.Code != "EDIT_PARSE_FAILED" && err.Code != "EDIT_LIMIT" || err.Message == "" {
				t.Fatalf("bad error %+v", err)
			}
			if err.Code == "EDIT_PARSE_FAILED" {
				if _, ok := err.Details["opsLine"].(int); !ok {
					t.Fatal("no opsLine")
				}
			}
			return
		}
		if len(p.ops) == 0 || len(p.ops) > MaxOps {
			t.Fatalf("%d ops", len(p.ops))
		}
		for _, o := range p.ops {
			if o.kind == opPut && o.hasBody == o.hasReg {
				t.Fatalf("PUT must carry exactly one of body or register: %+v", o)
			}
			if o.hasBody && len(o.body) == 0 {
				t.Fatal("empty body accepted")
			}
			if (o.loc == locSpan || o.loc == locBlock) && (o.a < 1 || o.b < 1) {
				t.Fatalf("bad span %+v", o)
			}
		}
	})
}

// FuzzPlan: Plan never panics; a rejected call returns no plan; an accepted
// plan changes only anchored lines and inserted gaps. The check maps old to
// new lines independently of the engine: removing the Changed (inserted)
// ranges from the new file must leave exactly the live lines minus the
// consumed spans the ops name (resolved blocks as echoed), in order.
func FuzzPlan(f *testing.F) {
	f.Add([]byte(greetSrc), ex2Ops, false, false)
	f.Add([]byte(greetSrc), ex2Ops, false, true)
	f.Add([]byte(greetSrc), "PUT >$:\n+\n+// end\nPUT >3:\n+import \"os\"", false, false)
	f.Add([]byte(greetSrc), "PUT 5*:\n+func greet() {}\nPUT >9*:\n+// x", false, false)
	f.Add([]byte(greetSrc), "CUT 9.=11\nPUT <5 @\nMV b.go", true, false)
	f.Add([]byte("a\r\nb\nc"), "PUT 2.=3:\n+x\nPUT <1:\n+h", false, false)
	f.Add([]byte("\xEF\xBB\xBFa\n"), "CUT 1.=1", false, true)
	f.Add([]byte(""), "PUT >$:\n+x", false, false)
	f.Add([]byte("\n"), "PUT 1.=1:\n+y", false, false)
	f.Add([]byte("# A\nx\n## B\ny\n"), "CUT 3*\nPUT >$ @", false, false)
	f.Add([]byte(numbered(20)), "CUT 2.=4 @a\nCUT 6.=6\nPUT >10 @a\nPUT 12.=12 @", false, true)
	f.Fuzz(func(t *testing.T, src []byte, ops string, partial, drift bool) {
		key := "f.go"
		if bytes.HasPrefix(src, []byte("# ")) {
			key = "f.md"
		}
		start := time.Now()
		defer func() {
			if el := time.Since(start); el > 5*time.Second {
				t.Fatalf("SLOW %v", el)
			}
		}()
		s := newTestStore()
		if IsBinary(src) {
			return
		}
		text := Decode(src)
		seen := LineRange(1, len(text.Lines))
		if partial {
			seen = LineRange(1, len(text.Lines)/2)
		}
		s.Record(key, text, seen)
		tag := text.Digest().Tag()
		live := src
		if drift {
			live = append([]byte("// drift\n"), src...)
		}
		p, err := s.Plan(EditInput{Key: key, Display: key, Tag: tag, Ops: ops, Live: live, Exists: true})
		if err != nil {
			if p != nil {
				t.Fatal("rejected call returned a plan")
			}
			if err.Code == "" || err.Message == "" {
				t.Fatalf("unstructured error %+v", err)
			}
			return
		}
		if p.Remove {
			if p.NewBytes != nil {
				t.Fatal("REM with bytes")
			}
			return
		}
		lv := Decode(live)
		nt := Decode(p.NewBytes)
		if nt.Digest() != p.NewDigest() || p.NewTag() != p.NewDigest().Tag() || p.LiveDigest != lv.Digest() {
			t.Fatal("digests disagree")
		}
		contentBOM := len(nt.Lines) > 0 && strings.HasPrefix(nt.Lines[0].Text, "\uFEFF")
		if !utf8.Valid(p.NewBytes) || nt.BOM != lv.BOM && !contentBOM {
			t.Fatal("encoding or BOM changed")
		}
		if lv.FinalNewline && len(nt.Lines) > 0 && !nt.FinalNewline {
			t.Fatal("final newline lost")
		}
		if !lv.FinalNewline && len(lv.Lines) > 0 && nt.FinalNewline {
			// The file stays unterminated: read the new bytes that way, so
			// a terminal "\n" is an empty last line, not a final newline.
			nt.Lines = append(nt.Lines, Line{})
		}
		d := 0
		for _, w := range p.Warnings {
			if strings.HasPrefix(w, "remapped ") {
				d, _ = strconv.Atoi(strings.TrimPrefix(w, "remapped "))
			}
		}
		// Consumed lines per the ops, in live numbering.
		po, perr := parseOps(ops, defaultOpsLimits())
		if perr != nil {
			t.Fatal("accepted ops do not parse")
		}
		var consumed LineSet
		bi := 0
		for _, o := range po.ops {
			switch {
			case o.loc == locSpan && (o.kind == opCut || o.kind == opPut):
				consumed.Add(o.a+d, o.b+d)
			case o.loc == locBlock:
				b := p.ResolvedBlocks[bi]
				consumed.Add(b.Start+d, b.End+d)
				bi++
			case o.loc == locAfterBlock:
				bi++
			}
		}
		var kept []Line
		var unterminated []bool // the live file's unterminated last line
		for i, l := range lv.Lines {
			if !consumed.Contains(i + 1) {
				kept = append(kept, l)
				unterminated = append(unterminated, i == len(lv.Lines)-1 && !lv.FinalNewline)
			}
		}
		var ins LineSet
		for _, r := range p.Changed {
			ins.Add(r[0], r[1])
		}
		var rest []Line
		for i, l := range nt.Lines {
			if !ins.Contains(i + 1) {
				rest = append(rest, l)
			}
		}
		if len(rest) == len(kept)+1 && rest[len(rest)-1].Text == "" && !lv.FinalNewline {
			rest = rest[:len(rest)-1] // an inserted empty last line, read back as the final newline
		}
		if len(kept) != len(rest) {
			t.Fatalf("kept %d lines, new file has %d outside inserts\nops %q\nlive %q\nnew %q", len(kept), len(rest), ops, live, p.NewBytes)
		}
		for i := range kept {
			if kept[i].Text != rest[i].Text {
				t.Fatalf("line %d changed outside anchors: %q -> %q", i, kept[i].Text, rest[i].Text)
			}
			// Untouched lines keep their own terminator (the old unterminated
			// last line and the new last line are the exceptions).
			if !unterminated[i] && i < len(rest)-1 && kept[i].CRLF != rest[i].CRLF {
				t.Fatalf("line %d terminator changed", i)
			}
		}
	})
}
