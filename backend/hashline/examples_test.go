package hashline

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// The worked examples of edit-contract.md §9. Tags must come out exactly as
// the contract writes them.

const greetKey = "src/greet.go"

func TestExample1Read(t *testing.T) {
	s := newTestStore()
	tag := read(s, greetKey, []byte(greetSrc), nil)
	if tag != "A093" {
		t.Fatalf("tag %s, want A093", tag)
	}
	c := s.Candidates(greetKey, "a093")
	if len(c) != 1 || c[0].Seen.Intervals()[0] != [2]int{1, 11} || len(c[0].Seen.Intervals()) != 1 {
		t.Fatalf("candidates %+v", c)
	}
	if Header(greetKey, tag) != "[src/greet.go#A093]" {
		t.Fatal("header")
	}
}

const ex2Ops = "PUT 6.=6:\n+\treturn fmt.Sprintf(\"Hello, %s!\", name)"

func TestExample2Replace(t *testing.T) {
	s := newTestStore()
	read(s, greetKey, []byte(greetSrc), nil)
	p := mustPlan(t, s, greetKey, "A093", ex2Ops, []byte(greetSrc))
	if p.NewTag() != "25B7" {
		t.Fatalf("tag %s, want 25B7", p.NewTag())
	}
	want := "5:func greet(name string) string {\n6:\treturn fmt.Sprintf(\"Hello, %s!\", name)\n7:}"
	if p.Preview != want || len(p.Changed) != 1 || p.Changed[0] != [2]int{6, 6} {
		t.Fatalf("preview %q changed %v", p.Preview, p.Changed)
	}
	assertGolden(t, "examples/2_replace", result(greetKey, p, nil, nil))
	s.Commit(greetKey, p, "")
	v := s.Versions(greetKey)
	if v[0].Tag != "25B7" || !v[0].Seen.Contains(6) || v[0].Seen.Len() != 11 {
		t.Fatalf("committed head %+v", v[0])
	}
}

func TestExample3OrderIndependence(t *testing.T) {
	a := "PUT >$:\n+\n+// end\nPUT >3:\n+import \"os\""
	b := "PUT >3:\n+import \"os\"\nPUT >$:\n+\n+// end"
	var bytesA []byte
	for i, ops := range []string{a, b} {
		s := newTestStore()
		read(s, greetKey, []byte(greetSrc), nil)
		p := mustPlan(t, s, greetKey, "A093", ops, []byte(greetSrc))
		if p.NewTag() != "40C4" {
			t.Fatalf("order %d: tag %s, want 40C4", i, p.NewTag())
		}
		l := Decode(p.NewBytes).Lines
		if l[3].Text != "import \"os\"" || l[12].Text != "" || l[13].Text != "// end" || len(l) != 14 {
			t.Fatalf("order %d: lines %q", i, p.NewBytes)
		}
		if i == 0 {
			bytesA = p.NewBytes
			assertGolden(t, "examples/3_order", result(greetKey, p, nil, nil))
		} else if string(bytesA) != string(p.NewBytes) {
			t.Fatal("op order changed the result")
		}
	}
}

func copyright() []byte { return []byte("// Copyright 2026\n" + greetSrc) }

func TestExample4DriftRecovered(t *testing.T) {
	s := newTestStore()
	read(s, greetKey, []byte(greetSrc), nil)
	live := copyright()
	if tag := DigestOf(live).Tag(); tag != "8CDD" {
		t.Fatalf("live tag %s, want 8CDD", tag)
	}
	p := mustPlan(t, s, greetKey, "A093", ex2Ops, live)
	if p.NewTag() != "A023" {
		t.Fatalf("tag %s, want A023", p.NewTag())
	}
	if strings.Join(p.Warnings, ", ") != "recovered: external-change, remapped +1" || p.Branch != "C" {
		t.Fatalf("warnings %v branch %s", p.Warnings, p.Branch)
	}
	if p.Changed[0] != [2]int{7, 7} {
		t.Fatalf("changed %v", p.Changed)
	}
	assertGolden(t, "examples/4_drift_recovered", result(greetKey, p, nil, nil))
}

func ex5Live() []byte {
	return []byte(strings.Replace(greetSrc, "\"Hello, \" + name", "\"Hi, \" + name", 1))
}

func TestExample5DriftRejected(t *testing.T) {
	s := newTestStore()
	g := NewGuard()
	read(s, greetKey, []byte(greetSrc), nil)
	live := ex5Live()
	e := mustFail(t, s, greetKey, "A093", ex2Ops, live, "EDIT_TAG_MISMATCH")
	st := g.Fail("p1", greetKey, e.Code)
	if e.LiveTag != "883C" || !st.Grace || st.Attempt != 0 {
		t.Fatalf("liveTag %s guard %+v", e.LiveTag, st)
	}
	ctx := e.Details["context"].([]ContextRows)
	want := []string{"4:", "5:func greet(name string) string {", "6:\treturn \"Hi, \" + name", "7:}", "8:"}
	if len(ctx) != 1 || ctx[0].Anchor != 6 || strings.Join(ctx[0].Rows, "|") != strings.Join(want, "|") {
		t.Fatalf("context %+v", ctx)
	}
	assertGolden(t, "examples/5_drift_rejected", result(greetKey, nil, e, &st))
	// The rebuilt call on the live tag applies without a Read: the complete
	// context rows counted as a display.
	p := mustPlan(t, s, greetKey, "883C", ex2Ops, live)
	if p.NewTag() != "25B7" || p.Branch != "A" {
		t.Fatalf("rebuilt tag %s branch %s", p.NewTag(), p.Branch)
	}
}

const ex6Ops = "PUT 10.=10:\n+\tfmt.Println(greet(\"Gopher\"))"

func TestExample6UnseenThenRetry(t *testing.T) {
	s := newTestStore()
	g := NewGuard()
	read(s, greetKey, []byte(greetSrc), ls(1, 4))
	e := mustFail(t, s, greetKey, "A093", ex6Ops, []byte(greetSrc), "EDIT_LINES_UNSEEN")
	st := g.Fail("p1", greetKey, e.Code)
	u := e.Details["unseen"].([]RevealLine)
	if len(u) != 1 || u[0] != (RevealLine{Line: 10, Text: "\tfmt.Println(greet(\"world\"))"}) || e.Details["complete"] != true || e.Retry != RetrySameCall {
		t.Fatalf("details %+v retry %s", e.Details, e.Retry)
	}
	if !st.Grace || st.Attempt != 0 {
		t.Fatalf("guard %+v", st)
	}
	assertGolden(t, "examples/6_unseen", result(greetKey, nil, e, &st))
	p := mustPlan(t, s, greetKey, "A093", ex6Ops, []byte(greetSrc))
	if p.NewTag() != "A598" {
		t.Fatalf("retry tag %s, want A598", p.NewTag())
	}
	assertGolden(t, "examples/6_retry", result(greetKey, p, nil, nil))
}

func TestExample7Clipped(t *testing.T) {
	s := newTestStore()
	long := strings.Repeat("x", 48213)
	src := []byte("!function(){\n" + long + "\n}();\n")
	var seen LineSet // Read showed lines 1 and 3 in full; line 2 was clipped (2~:)
	seen.Add(1, 1)
	seen.Add(3, 3)
	tag := read(s, "app.min.js", src, &seen)
	ops := "PUT 2.=2:\n+var x=1;"
	for i := 0; i < 2; i++ { // nothing merges, so the retry fails the same way
		e := mustFail(t, s, "app.min.js", tag, ops, src, "EDIT_LINES_UNSEEN")
		u := e.Details["unseen"].([]RevealLine)
		if e.Details["complete"] != false || len(u) != 1 || !u[0].Clipped || len([]rune(u[0].Text)) != RevealRunes || e.Retry != RetryAfterRead {
			t.Fatalf("attempt %d: %+v", i, e.Details)
		}
	}
	if s.Candidates("app.min.js", tag)[0].Seen.Contains(2) {
		t.Fatal("an incomplete reveal merged into Seen")
	}
}

func TestExample8ParseError(t *testing.T) {
	s := newTestStore()
	g := NewGuard()
	read(s, "big.go", []byte(strings.Repeat("x\n", 60)), nil)
	e := mustFail(t, s, "big.go", DigestOf([]byte(strings.Repeat("x\n", 60))).Tag(), "PUT 48.=48\n+x", []byte(strings.Repeat("x\n", 60)), "EDIT_PARSE_FAILED")
	if e.Message != "`PUT 48.=48` lacks `:` before + rows; use `PUT 48.=48:`" {
		t.Fatalf("message %q", e.Message)
	}
	if e.Details["opsLine"] != 1 || e.Details["expected"] != "PUT 48.=48:" || e.Retry != RetryFixOps {
		t.Fatalf("details %v", e.Details)
	}
	st := g.Fail("p1", "big.go", e.Code)
	if st.Attempt != 1 || st.Grace || st.Terminate {
		t.Fatalf("guard %+v", st)
	}
	assertGolden(t, "examples/8_parse", result("big.go", nil, e, &st))
}

func TestExample9CrossFileMove(t *testing.T) {
	s := newTestStore()
	var a, b strings.Builder
	for i := 1; i <= 20; i++ {
		a.WriteString("a" + itoa(i) + "\n")
	}
	for i := 1; i <= 6; i++ {
		b.WriteString("b" + itoa(i) + "\n")
	}
	ta := read(s, "a.go", []byte(a.String()), nil)
	pa := mustPlan(t, s, "a.go", ta, "CUT 10.=18 @helper", []byte(a.String()))
	s.Commit("a.go", pa, "")
	if got := Decode(pa.NewBytes).Lines; len(got) != 11 || got[9].Text != "a19" {
		t.Fatalf("a.go after cut: %q", pa.NewBytes)
	}
	// b.go is read with only lines 1-3 shown: `>3` anchors line 3 alone.
	tb := read(s, "b.go", []byte(b.String()), ls(1, 3))
	pb := mustPlan(t, s, "b.go", tb, "PUT >3 @helper", []byte(b.String()))
	s.Commit("b.go", pb, "")
	got := Decode(pb.NewBytes).Lines
	if got[3].Text != "a10" || got[11].Text != "a18" || got[12].Text != "b4" {
		t.Fatalf("b.go after paste: %q", pb.NewBytes)
	}
	head := s.Versions("b.go")[0]
	for n := 4; n <= 12; n++ {
		if !head.Seen.Contains(n) {
			t.Fatalf("pasted line %d not seen: %v", n, head.Seen.Intervals())
		}
	}
	if pb.Changed[0] != [2]int{4, 12} {
		t.Fatalf("changed %v", pb.Changed)
	}
	assertGolden(t, "examples/9_move_b", result("b.go", pb, nil, nil))
}

func TestExample10RenameAndDelete(t *testing.T) {
	s := newTestStore()
	read(s, greetKey, []byte(greetSrc), nil)
	p := mustPlan(t, s, greetKey, "A093", "PUT 1.=1:\n+package util\nMV pkg/util/greet.go", []byte(greetSrc))
	if p.MoveTo != "pkg/util/greet.go" || !strings.HasPrefix(string(p.NewBytes), "package util\n") {
		t.Fatalf("plan %+v", p)
	}
	assertGolden(t, "examples/10_rename", result(greetKey, p, nil, nil))
	s.Commit(greetKey, p, "/abs/pkg/util/greet.go")
	if len(s.Versions(greetKey)) != 0 || s.Versions("/abs/pkg/util/greet.go")[0].Tag != p.NewTag() {
		t.Fatal("history did not move with the file")
	}
	// REM with a stale tag fails with EDIT_TAG_MISMATCH.
	s2 := newTestStore()
	read(s2, greetKey, []byte(greetSrc), nil)
	e := mustFail(t, s2, greetKey, "A093", "REM", ex5Live(), "EDIT_TAG_MISMATCH")
	if e.LiveTag != "883C" {
		t.Fatal(e.LiveTag)
	}
	// REM with the live tag succeeds and Commit drops the history.
	r := mustPlan(t, s2, greetKey, "A093", "REM", []byte(greetSrc))
	if !r.Remove || r.NewBytes != nil {
		t.Fatalf("rem plan %+v", r)
	}
	s2.Commit(greetKey, r, "")
	if len(s2.Versions(greetKey)) != 0 {
		t.Fatal("REM kept history")
	}
	_ = errs.EditTagMismatch
}
