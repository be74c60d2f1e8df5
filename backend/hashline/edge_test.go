package hashline

import (
	"math/rand"
	"strings"
	"testing"
)

// Edge cases of edit-contract.md §10.

func TestCRLFAndBOM(t *testing.T) {
	s := newTestStore()
	src := []byte("\xEF\xBB\xBF" + strings.ReplaceAll(greetSrc, "\n", "\r\n"))
	if tag := read(s, greetKey, src, nil); tag != "A093" {
		t.Fatalf("CRLF+BOM tag %s", tag)
	}
	p := mustPlan(t, s, greetKey, "A093", ex2Ops, src)
	want := "\xEF\xBB\xBF" + strings.ReplaceAll(strings.Replace(greetSrc, "\"Hello, \" + name", "fmt.Sprintf(\"Hello, %s!\", name)", 1), "\n", "\r\n")
	if string(p.NewBytes) != want || p.NewTag() != "25B7" {
		t.Fatalf("got %q tag %s", p.NewBytes, p.NewTag())
	}
}

func TestOutsideEOLConversionIsNotDrift(t *testing.T) {
	s := newTestStore()
	read(s, greetKey, []byte(greetSrc), nil)
	crlf := []byte(strings.ReplaceAll(greetSrc, "\n", "\r\n"))
	p := mustPlan(t, s, greetKey, "A093", ex2Ops, crlf)
	if p.Branch != "A" || len(p.Warnings) != 0 || !strings.Contains(string(p.NewBytes), "name)\r\n}\r\n") {
		t.Fatalf("branch %s warnings %v bytes %q", p.Branch, p.Warnings, p.NewBytes)
	}
}

func TestMixedEndings(t *testing.T) {
	tests := []struct{ name, src, ops, want string }{
		{"CRLF dominant", "a\r\nb\nc\r\n", "PUT 2.=2:\n+B", "a\r\nB\r\nc\r\n"},
		{"LF dominant keeps CRLF line", "a\nb\r\nc\n", "PUT 3.=3:\n+C\nPUT <1:\n+0", "0\na\nb\r\nC\n"},
		{"tie is LF", "a\r\nb\nc", "PUT >$:\n+d", "a\r\nb\nc\nd"},
		{"body CR stripped", "a\n", "PUT >1:\n+b\r", "a\nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore()
			tag := read(s, "f", []byte(tt.src), nil)
			p := mustPlan(t, s, "f", tag, tt.ops, []byte(tt.src))
			if string(p.NewBytes) != tt.want {
				t.Fatalf("got %q want %q", p.NewBytes, tt.want)
			}
		})
	}
}

func TestFinalNewline(t *testing.T) {
	tests := []struct{ name, src, ops, want string }{
		{"append keeps unterminated", "a\nb", "PUT >$:\n+c", "a\nb\nc"},
		{"append keeps terminated", "a\nb\n", "PUT >$:\n+c", "a\nb\nc\n"},
		{"delete last moves unterminated end", "a\nb", "CUT 2.=2", "a"},
		{"delete last terminated", "a\nb\n", "CUT 2.=2", "a\n"},
		{"replace unterminated last", "a\nb", "PUT 2.=2:\n+B\n+C", "a\nB\nC"},
		{"delete everything", "a\nb\n", "CUT 1.=2", ""},
		{"delete everything keeps BOM", "\xEF\xBB\xBFa\n", "CUT 1.=1", "\xEF\xBB\xBF"},
		{"head insert", "a", "PUT <1:\n+z", "z\na"},
		{"just newline is one empty line", "\n", "PUT 1.=1:\n+x", "x\n"},
		{"after the empty line", "\n", "PUT >1:\n+x", "\nx\n"},
		{"empty file head", "", "PUT <1:\n+x", "x\n"},
		{"empty file tail", "", "PUT >$:\n+x\n+y", "x\ny\n"},
		{"BOM only file", "\xEF\xBB\xBF", "PUT >$:\n+x", "\xEF\xBB\xBFx\n"},
		{"trailing whitespace is content", "a \n", "PUT 1.=1:\n+a", "a\n"},
		{"plus escapes", "a\n", "PUT 1.=1:\n++x\n+\n+", "+x\n\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore()
			tag := read(s, "f", []byte(tt.src), nil)
			p := mustPlan(t, s, "f", tag, tt.ops, []byte(tt.src))
			if string(p.NewBytes) != tt.want {
				t.Fatalf("got %q want %q", p.NewBytes, tt.want)
			}
			if p.NewTag() != DigestOf(p.NewBytes).Tag() || p.NewDigest() != DigestOf(p.NewBytes) {
				t.Fatal("NewTag/NewDigest disagree with NewBytes")
			}
		})
	}
}

func TestEmptyFileRules(t *testing.T) {
	for _, tt := range []struct{ ops, code string }{
		{"PUT <1:\n+a\nPUT >$:\n+b", "EDIT_RANGE_INVALID"},
		{"PUT 1.=1:\n+a", "EDIT_RANGE_INVALID"},
		{"PUT >1:\n+a", "EDIT_RANGE_INVALID"},
		{"CUT 1.=1", "EDIT_RANGE_INVALID"},
	} {
		s := newTestStore()
		tag := read(s, "f", []byte{}, nil)
		mustFail(t, s, "f", tag, tt.ops, []byte{}, tt.code)
	}
	s := newTestStore()
	tag := read(s, "f", []byte{}, nil)
	if p := mustPlan(t, s, "f", tag, "REM", []byte{}); !p.Remove {
		t.Fatal("REM")
	}
	if p := mustPlan(t, s, "f", tag, "MV g", []byte{}); p.MoveTo != "g" || len(p.NewBytes) != 0 {
		t.Fatal("MV")
	}
}

func TestLongAndUnfaithfulLines(t *testing.T) {
	s := newTestStore()
	src := []byte("a\rb\nplain\n" + strings.Repeat("é", 600) + "\n")
	tag := read(s, "f", src, ls(2, 2))
	// A lone \r is never shown byte-faithfully: the reveal is incomplete.
	e := mustFail(t, s, "f", tag, "PUT 1.=1:\n+x", src, "EDIT_LINES_UNSEEN")
	if e.Details["complete"] != false || !e.Details["unseen"].([]RevealLine)[0].Clipped {
		t.Fatalf("%+v", e.Details)
	}
	// A line over 512 runes is clipped at a rune boundary.
	e = mustFail(t, s, "f", tag, "PUT 3.=3:\n+x", src, "EDIT_LINES_UNSEEN")
	u := e.Details["unseen"].([]RevealLine)[0]
	if e.Details["complete"] != false || !u.Clipped || len([]rune(u.Text)) != 512 || strings.ContainsRune(u.Text, '\uFFFD') {
		t.Fatalf("%+v", u)
	}
	// Reveals list at most 40 lines and are then incomplete.
	s2 := newTestStore()
	big := []byte(strings.Repeat("l\n", 100))
	tag2 := read(s2, "g", big, ls(1, 1))
	e = mustFail(t, s2, "g", tag2, "PUT 2.=60:\n+x", big, "EDIT_LINES_UNSEEN")
	if len(e.Details["unseen"].([]RevealLine)) != RevealLines || e.Details["complete"] != false {
		t.Fatal("reveal bound")
	}
	if s2.Candidates("g", tag2)[0].Seen.Len() != 1 {
		t.Fatal("incomplete reveal merged")
	}
}

// numbered returns n lines "line i".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("line " + itoa(i) + "\n")
	}
	return b.String()
}

func TestConcurrentExternalChange(t *testing.T) {
	base := numbered(30)
	ops := "PUT 10.=11:\n+ten\n+eleven\nPUT >20:\n+after twenty"
	t.Run("A then caller CAS re-plans to C", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(base), nil)
		p := mustPlan(t, s, "f", tag, ops, []byte(base))
		if p.LiveDigest != DigestOf([]byte(base)) {
			t.Fatal("LiveDigest")
		}
		// The file changes between Plan and write: the caller's digest
		// check fails, and it plans again on the new bytes.
		live := []byte("inserted 1\ninserted 2\n" + base + "tail\n")
		if DigestOf(live) == p.LiveDigest {
			t.Fatal("test setup")
		}
		q := mustPlan(t, s, "f", tag, ops, live)
		if q.Branch != "C" || strings.Join(q.Warnings, ",") != "recovered: external-change,remapped +2" {
			t.Fatalf("%s %v", q.Branch, q.Warnings)
		}
		l := Decode(q.NewBytes).Lines
		if l[11].Text != "ten" || l[12].Text != "eleven" || l[22].Text != "after twenty" || l[len(l)-1].Text != "tail" {
			t.Fatalf("%q", q.NewBytes)
		}
	})
	t.Run("inconsistent offsets decline", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(base), nil)
		live := strings.Replace(base, "line 15\n", "line 15\nextra\n", 1)
		e := mustFail(t, s, "f", tag, ops, []byte(live), "EDIT_TAG_MISMATCH")
		if !strings.Contains(e.Details["cause"].(string), "different offsets") {
			t.Fatal(e.Details["cause"])
		}
	})
	t.Run("anchor neighbour changed declines", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(base), nil)
		live := strings.Replace(strings.Replace(base, "line 9\n", "nine\n", 1), "line 12\n", "twelve\n", 1)
		live = "x\n" + live
		e := mustFail(t, s, "f", tag, "PUT 10.=11:\n+a", []byte(live), "EDIT_TAG_MISMATCH")
		if !strings.Contains(e.Details["cause"].(string), "neighbour") {
			t.Fatal(e.Details["cause"])
		}
	})
	t.Run("duplicated anchor text needs both neighbours", func(t *testing.T) {
		src := "a\n}\nb\n}\nc\n"
		s := newTestStore()
		tag := read(s, "f", []byte(src), nil)
		// Line 2 "}" is duplicated; after drift only its upper neighbour matches.
		live := "z\na\n}\nB\n}\nc\n"
		e := mustFail(t, s, "f", tag, "PUT 2.=2:\n+{}", []byte(live), "EDIT_TAG_MISMATCH")
		if !strings.Contains(e.Details["cause"].(string), "duplicated") {
			t.Fatal(e.Details["cause"])
		}
		// With both neighbours intact it recovers.
		live = "z\n" + src
		p := mustPlan(t, s, "f", tag, "PUT 2.=2:\n+{}", []byte(live))
		if string(p.NewBytes) != "z\na\n{}\nb\n}\nc\n" {
			t.Fatalf("%q", p.NewBytes)
		}
	})
	t.Run("stale session tag", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(base), nil)
		v2 := base + "v2\n"
		read(s, "f", []byte(v2), nil) // the session saw a newer version
		live := "top\n" + v2
		p := mustPlan(t, s, "f", tag, "PUT 5.=5:\n+five", []byte(live))
		if strings.Join(p.Warnings, ",") != "stale-session-tag,remapped +1" {
			t.Fatal(p.Warnings)
		}
	})
	t.Run("unseen anchor in base declines recovery", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(base), ls(1, 5))
		e := mustFail(t, s, "f", tag, "PUT 10.=10:\n+x", []byte("top\n"+base), "EDIT_TAG_MISMATCH")
		if !strings.Contains(e.Details["cause"].(string), "never displayed") {
			t.Fatal(e.Details["cause"])
		}
	})
	t.Run("edges only on a stale tag", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(base), nil)
		live := strings.Replace(base, "line 10", "TEN", 1)
		p := mustPlan(t, s, "f", tag, "PUT >$:\n+end\nPUT <1:\n+head", []byte(live))
		if p.Branch != "B" || p.Warnings[0] != "stale-tag-edges" || string(p.NewBytes) != "head\n"+live+"end\n" {
			t.Fatalf("%s %v %q", p.Branch, p.Warnings, p.NewBytes)
		}
		mustFail(t, s, "f", tag, "REM", []byte(live), "EDIT_TAG_MISMATCH")
	})
	t.Run("recovered carries seen through the diff", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(base), nil)
		p := mustPlan(t, s, "f", tag, "PUT 5.=5:\n+five", []byte("top\n"+base))
		s.Commit("f", p, "")
		h := s.Versions("f")[0]
		if h.Seen.Contains(1) || !h.Seen.Contains(2) || !h.Seen.Contains(31) {
			t.Fatalf("seen %v", h.Seen.Intervals())
		}
	})
}

func TestConflicts(t *testing.T) {
	src := numbered(30)
	for _, tt := range []struct{ name, ops, reason string }{
		{"consumed twice", "PUT 5.=8:\n+x\nCUT 8.=9", "consumed twice"},
		{"block and span overlap", "CUT 3.=3\nCUT 1.=4", "consumed twice"},
		{"gap two bodies", "PUT >4:\n+a\nPUT <5:\n+b", "both insert"},
		{"span gap and insert", "PUT 5.=6:\n+a\nPUT >4:\n+b", "both insert"},
		{"insert after cut line", "CUT 20.=20\nPUT >20:\n+x", "write `<21`"},
		{"insert before cut line", "CUT 20.=22\nPUT <21:\n+x", "write `>19`"},
		{"insert into replaced span", "PUT 5.=6:\n+a\nPUT >5:\n+b", "into the body"},
		{"reversed span", "PUT 6.=5:\n+a", "N ≤ M"},
		{"past end", "PUT 31.=31:\n+a", "past the end"},
		{"before past end", "PUT <31:\n+a", "past the end"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore()
			tag := read(s, "f", []byte(src), nil)
			e := mustFail(t, s, "f", tag, tt.ops, []byte(src), "EDIT_RANGE_INVALID")
			if !strings.Contains(e.Message, tt.reason) || e.Details["reason"] == nil || e.Details["opsLine"] == nil {
				t.Fatalf("%s %v", e.Message, e.Details)
			}
		})
	}
	// Cut 20 and insert before 21 is the legal spelling.
	s := newTestStore()
	tag := read(s, "f", []byte(src), nil)
	p := mustPlan(t, s, "f", tag, "CUT 20.=20\nPUT <21:\n+x", []byte(src))
	if l := Decode(p.NewBytes).Lines; l[19].Text != "x" || l[20].Text != "line 21" {
		t.Fatalf("%q", p.NewBytes)
	}
}

func TestOpOrderIndependence(t *testing.T) {
	src := numbered(40)
	ops := []string{
		"PUT 3.=4:\n+three\n+four",
		"CUT 7.=9",
		"PUT <12:\n+before twelve",
		"PUT >15:\n+after fifteen",
		"PUT >$:\n+end",
		"PUT <1:\n+head",
		"PUT 30.=30:\n+thirty\n+and more",
		"CUT 40.=40",
	}
	var want string
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 30; i++ {
		r.Shuffle(len(ops), func(a, b int) { ops[a], ops[b] = ops[b], ops[a] })
		s := newTestStore()
		tag := read(s, "f", []byte(src), nil)
		p := mustPlan(t, s, "f", tag, strings.Join(ops, "\n"), []byte(src))
		if i == 0 {
			want = string(p.NewBytes)
		} else if string(p.NewBytes) != want {
			t.Fatalf("order %d differs", i)
		}
	}
	if !strings.HasPrefix(want, "head\nline 1\nline 2\nthree\nfour\nline 5\nline 6\nline 10\nline 11\nbefore twelve\n") ||
		!strings.HasSuffix(want, "line 39\nend\n") || !strings.Contains(want, "line 15\nafter fifteen\n") {
		t.Fatalf("%q", want)
	}
}

// collision returns two distinct texts whose tags are equal.
func collision(t *testing.T) (string, string) {
	seen := map[string]string{}
	for i := 0; i < 1_000_000; i++ {
		txt := "v " + itoa(i) + "\nshared\n"
		tag := DigestOf([]byte(txt)).Tag()
		if o, ok := seen[tag]; ok {
			return o, txt
		}
		seen[tag] = txt
	}
	t.Fatal("no collision")
	return "", ""
}

func TestTagCollisionsResolvedByDigest(t *testing.T) {
	x, y := collision(t)
	tag := DigestOf([]byte(x)).Tag()
	s := newTestStore()
	read(s, "f", []byte(x), ls(2, 2)) // x: only line 2 seen
	read(s, "f", []byte(y), nil)      // y: everything seen, same tag
	if len(s.Candidates("f", tag)) != 2 {
		t.Fatal("want two candidates")
	}
	// Live is x: the digest picks x and its Seen set, not y's.
	e := mustFail(t, s, "f", tag, "PUT 1.=1:\n+z", []byte(x), "EDIT_LINES_UNSEEN")
	if e.LiveTag != tag {
		t.Fatal(e.LiveTag)
	}
	// Live is y: direct.
	if p := mustPlan(t, s, "f", tag, "PUT 1.=1:\n+z", []byte(y)); p.Branch != "A" {
		t.Fatal(p.Branch)
	}
	// Live matches neither: recovery from the newest retained candidate (y),
	// never a blind write.
	// The complete reveal above made x the newest version again.
	live := "top\n" + x
	p := mustPlan(t, s, "f", tag, "PUT 1.=1:\n+z", []byte(live))
	if p.Branch != "C" || string(p.NewBytes) != "top\nz\nshared\n" {
		t.Fatalf("%s %q", p.Branch, p.NewBytes)
	}
}

func TestEvictedTagsAreUnknown(t *testing.T) {
	s := NewStore(Limits{Paths: 2, Versions: 2, TextBytes: 1 << 20, Registers: 2}, fixedNow)
	t1 := read(s, "f", []byte("1\n"), nil)
	read(s, "f", []byte("2\n"), nil)
	read(s, "f", []byte("3\n"), nil)
	e := mustFail(t, s, "f", t1, "PUT 1.=1:\n+x", []byte("1\n"), "EDIT_TAG_UNKNOWN")
	if e.LiveTag != t1 || e.Retry != RetryAfterRead || e.Details["liveTag"] != t1 {
		t.Fatalf("%+v", e)
	}
	// Path LRU: g, h push out f.
	read(s, "g", []byte("g\n"), nil)
	read(s, "h", []byte("h\n"), nil)
	if len(s.Versions("f")) != 0 || len(s.Versions("g")) != 1 {
		t.Fatal("path LRU")
	}
	// Rollback invalidation drops the path.
	s.Invalidate("g")
	mustFail(t, s, "g", DigestOf([]byte("g\n")).Tag(), "PUT 1.=1:\n+x", []byte("g\n"), "EDIT_TAG_UNKNOWN")
	// A TAG_UNKNOWN failure does not make the live tag known.
	if len(s.Versions("g")) != 0 {
		t.Fatal("TAG_UNKNOWN recorded the live version")
	}
}

func TestTextBudget(t *testing.T) {
	s := NewStore(Limits{Paths: 8, Versions: 4, TextBytes: 100, Registers: 2}, fixedNow)
	a := strings.Repeat("a", 59) + "\n"
	b := strings.Repeat("b", 59) + "\n"
	read(s, "a", []byte(a), nil)
	read(s, "b", []byte(b), nil)
	if va, vb := s.Versions("a")[0], s.Versions("b")[0]; va.Retained || !vb.Retained {
		t.Fatalf("the least recently used text should go first: %v %v", va.Retained, vb.Retained)
	}
	// Without text, a direct edit still works; recovery declines.
	tag := DigestOf([]byte(a)).Tag()
	mustPlan(t, s, "a", tag, "PUT 1.=1:\n+x", []byte(a))
	e := mustFail(t, s, "a", tag, "PUT 1.=1:\n+x", []byte("top\n"+a), "EDIT_TAG_MISMATCH")
	if !strings.Contains(e.Details["cause"].(string), "no retained text") {
		t.Fatal(e.Details["cause"])
	}
	// Versions over 2 MiB never retain text.
	s2 := newTestStore()
	read(s2, "big", []byte(strings.Repeat("x", MaxRetainedText)+"\n"), nil)
	if s2.Versions("big")[0].Retained {
		t.Fatal("over 2 MiB retained")
	}
}

func TestPastedRowsRejected(t *testing.T) {
	s := newTestStore()
	read(s, greetKey, []byte(greetSrc), nil)
	for _, ops := range []string{
		"PUT 6.=6:\n+6:\treturn 1",
		"PUT 5.=7:\n+5:func greet(name string) string {\n+6:\treturn 1\n+7:}",
		"PUT 6.=6:\n6:\treturn 1",
	} {
		e := mustFail(t, s, greetKey, "A093", ops, []byte(greetSrc), "EDIT_PARSE_FAILED")
		if !strings.Contains(e.Message, "pasted") && !strings.Contains(e.Message, "Read row") {
			t.Fatalf("%q: %s", ops, e.Message)
		}
	}
	// A single row that merely starts with a number far from the anchor is content.
	p := mustPlan(t, s, greetKey, "A093", "PUT 6.=6:\n+200: ok", []byte(greetSrc))
	if !strings.Contains(string(p.NewBytes), "\n200: ok\n") {
		t.Fatal("content row rejected")
	}
}

func TestRegisters(t *testing.T) {
	src := numbered(50)
	t.Run("move within a file", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(src), nil)
		p := mustPlan(t, s, "f", tag, "CUT 30.=41\nPUT >12 @", []byte(src))
		l := Decode(p.NewBytes).Lines
		if l[12].Text != "line 30" || l[23].Text != "line 41" || l[24].Text != "line 13" || l[41].Text != "line 42" || len(l) != 50 {
			t.Fatalf("%q", p.NewBytes)
		}
	})
	t.Run("span paste", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(src), nil)
		p := mustPlan(t, s, "f", tag, "CUT 1.=2\nPUT 10.=10 @", []byte(src))
		if l := Decode(p.NewBytes).Lines; l[7].Text != "line 1" || l[8].Text != "line 2" || l[9].Text != "line 11" {
			t.Fatalf("%q", p.NewBytes)
		}
	})
	t.Run("ambiguous", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(src), nil)
		mustFail(t, s, "f", tag, "CUT 1.=2\nCUT 5.=6 @\nPUT >10 @", []byte(src), "EDIT_REGISTER_AMBIGUOUS")
	})
	t.Run("empty", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(src), nil)
		mustFail(t, s, "f", tag, "PUT >10 @", []byte(src), "EDIT_REGISTER_EMPTY")
		mustFail(t, s, "f", tag, "PUT >10 @x\nCUT 1.=1 @x", []byte(src), "EDIT_REGISTER_EMPTY")
	})
	t.Run("named registers commit only on success", func(t *testing.T) {
		s := newTestStore()
		tag := read(s, "f", []byte(src), nil)
		// The call fails (overlap), so @fn stays unset.
		mustFail(t, s, "f", tag, "CUT 1.=2 @fn\nCUT 2.=3", []byte(src), "EDIT_RANGE_INVALID")
		mustFail(t, s, "f", tag, "PUT >10 @fn", []byte(src), "EDIT_REGISTER_EMPTY")
		p := mustPlan(t, s, "f", tag, "CUT 1.=2 @fn", []byte(src))
		// Planned but not committed: still unset.
		mustFail(t, s, "f", tag, "PUT >10 @fn", []byte(src), "EDIT_REGISTER_EMPTY")
		s.Commit("f", p, "")
		g := "g1\n"
		gt := read(s, "g", []byte(g), nil)
		q := mustPlan(t, s, "g", gt, "PUT >1 @fn\nPUT <1 @fn", []byte(g))
		if string(q.NewBytes) != "line 1\nline 2\ng1\nline 1\nline 2\n" {
			t.Fatalf("%q", q.NewBytes)
		}
	})
	t.Run("named register bound", func(t *testing.T) {
		s := NewStore(Limits{Registers: 2}, fixedNow)
		tag := read(s, "f", []byte(src), nil)
		for _, r := range []string{"a", "b", "c"} {
			s.Commit("f", mustPlan(t, s, "f", tag, "CUT 1.=1 @"+r, []byte(src)), "")
			tag = s.Versions("f")[0].Tag
			src = string(Decode([]byte(src)).Encode())
			src = strings.Join(lines(src)[1:], "\n")
		}
		if _, ok := s.register("a"); ok {
			t.Fatal("oldest register kept")
		}
		if v, ok := s.register("c"); !ok || v[0] != "line 3" {
			t.Fatal("newest register lost")
		}
	})
}

func TestPlanFailures(t *testing.T) {
	s := newTestStore()
	read(s, greetKey, []byte(greetSrc), nil)
	mustFail(t, s, greetKey, "A093", ex2Ops, nil, "EDIT_TARGET_MISSING")
	mustFail(t, s, greetKey, "A093", ex2Ops, []byte("a\x00b"), "EDIT_NOT_TEXT")
	mustFail(t, s, greetKey, "A093", ex2Ops, []byte{0xff, 0xfe}, "EDIT_NOT_TEXT")
	mustFail(t, s, greetKey, "", ex2Ops, []byte(greetSrc), "EDIT_TAG_REQUIRED")
	mustFail(t, s, greetKey, "A09", ex2Ops, []byte(greetSrc), "EDIT_TAG_REQUIRED")
	mustFail(t, s, greetKey, "A093", "PUT 6.=6:\n+\treturn \"Hello, \" + name", []byte(greetSrc), "EDIT_NO_CHANGE")
	// The optional header must agree with the arguments.
	mustPlan(t, s, greetKey, "a093", "[src/greet.go#A093]\n"+ex2Ops, []byte(greetSrc))
	mustPlan(t, s, greetKey, "A093", "[./src/greet.go#a093]\n"+ex2Ops, []byte(greetSrc))
	e := mustFail(t, s, greetKey, "A093", "[src/other.go#A093]\n"+ex2Ops, []byte(greetSrc), "INVALID_ARGUMENT")
	if e.Retry != RetryFixOps {
		t.Fatal(e.Retry)
	}
	mustFail(t, s, greetKey, "A093", "[src/greet.go#25B7]\n"+ex2Ops, []byte(greetSrc), "INVALID_ARGUMENT")
	// A move alone is not "no change".
	if p := mustPlan(t, s, greetKey, "A093", "MV x.go", []byte(greetSrc)); string(p.NewBytes) != greetSrc || p.NewTag() != "A093" {
		t.Fatal("MV alone")
	}
}

func TestLimits(t *testing.T) {
	src := numbered(5000)
	s := newTestStore()
	tag := read(s, "f", []byte(src), nil)
	mustFail(t, s, "f", tag, "PUT >$:\n+"+strings.Repeat("x", MaxOpsBytes), []byte(src), "EDIT_LIMIT")
	mustFail(t, s, "f", tag, strings.Repeat("PUT >$:\n+x\n", 201), []byte(src), "EDIT_LIMIT")
	mustFail(t, s, "f", tag, "CUT 1.=4097", []byte(src), "EDIT_LIMIT")
	mustPlan(t, s, "f", tag, "CUT 1.=4096", []byte(src))
	// Expanded lines: 25 pastes of a 4096-line capture exceed 100k.
	var b strings.Builder
	b.WriteString("CUT 1.=4096 @big\n")
	for i := 0; i < 25; i++ {
		b.WriteString("PUT >" + itoa(4097+i) + " @big\n")
	}
	mustFail(t, s, "f", tag, b.String(), []byte(src), "EDIT_LIMIT")
	// Register capture in bytes.
	wide := strings.Repeat(strings.Repeat("w", 1000)+"\n", 1100)
	wt := read(s, "w", []byte(wide), nil)
	mustFail(t, s, "w", wt, "CUT 1.=1100", []byte(wide), "EDIT_LIMIT")
	// Block parse input.
	big := "package p\n\nfunc f() {\n}\n" + strings.Repeat("// "+strings.Repeat("c", 1000)+"\n", 4200)
	bt := read(s, "big.go", []byte(big), nil)
	mustFail(t, s, "big.go", bt, "PUT 3*:\n+func f() {}", []byte(big), "EDIT_LIMIT")
}

func TestOpsLimitsAreConfigurable(t *testing.T) {
	s := newTestStore()
	s.ol.ops = 1
	tag := read(s, "f", []byte("a\nb\n"), nil)
	mustFail(t, s, "f", tag, "PUT >1:\n+x\nPUT >2:\n+y", []byte("a\nb\n"), "EDIT_LIMIT")
}
