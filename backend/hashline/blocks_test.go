package hashline

import (
	"strings"
	"testing"
)

const goBlockSrc = `package p

// Greet says hello.
// It is documented.
func Greet(name string) string {
	if name == "" {
		name = "world"
	}
	return "Hello, " + name
}

type T struct {
	A int
}

var x = 1
`

func TestGoBlocks(t *testing.T) {
	for _, tt := range []struct {
		n, start, end int
		ok            bool
	}{
		{5, 5, 10, true},   // the func, without its doc comment
		{3, 3, 4, true},    // the doc comment is its own node
		{6, 6, 8, true},    // an if statement
		{12, 12, 14, true}, // the type declaration
		{9, 0, 0, false},   // a one-line statement
		{16, 0, 0, false},  // a one-line declaration
		{2, 0, 0, false},   // blank
	} {
		lines := strings.Split(strings.TrimSuffix(goBlockSrc, "\n"), "\n")
		r := &resolver{lang: "go", canon: goBlockSrc, lines: lines, limit: MaxBlockParseBytes}
		s, e, err := r.resolve(op{a: tt.n, src: "PUT " + itoa(tt.n) + "*:"})
		if (err == nil) != tt.ok || s != tt.start || e != tt.end {
			t.Errorf("line %d: %d-%d %v", tt.n, s, e, err)
		}
		if err != nil && (err.Code != "EDIT_BLOCK_UNRESOLVED" || !strings.Contains(err.Message, "PUT "+itoa(tt.n)+".=M:")) {
			t.Errorf("line %d: %v", tt.n, err)
		}
	}
}

func TestBlockEdits(t *testing.T) {
	s := newTestStore()
	tag := read(s, "p/greet.go", []byte(goBlockSrc), nil)
	p := mustPlan(t, s, "p/greet.go", tag, "PUT 5*:\n+func Greet(name string) string { return name }", []byte(goBlockSrc))
	if !strings.Contains(string(p.NewBytes), "// It is documented.\nfunc Greet(name string) string { return name }\n\ntype T") {
		t.Fatalf("%q", p.NewBytes)
	}
	if len(p.ResolvedBlocks) != 1 || p.ResolvedBlocks[0] != (ResolvedBlock{Line: 5, Start: 5, End: 10, Lang: "go"}) {
		t.Fatalf("%+v", p.ResolvedBlocks)
	}
	q := mustPlan(t, s, "p/greet.go", tag, "PUT >12*:\n+\n+type U struct{}", []byte(goBlockSrc))
	if !strings.Contains(string(q.NewBytes), "\tA int\n}\n\ntype U struct{}\n\nvar x") {
		t.Fatalf("%q", q.NewBytes)
	}
	// Every block line is an anchor.
	s2 := newTestStore()
	tag2 := read(s2, "p/greet.go", []byte(goBlockSrc), ls(1, 7))
	e := mustFail(t, s2, "p/greet.go", tag2, "CUT 5*", []byte(goBlockSrc), "EDIT_LINES_UNSEEN")
	if u := e.Details["unseen"].([]RevealLine); len(u) != 3 || u[0].Line != 8 {
		t.Fatalf("%+v", u)
	}
	// Unparseable Go and other languages decline.
	bad := "package p\nfunc {\n}\n"
	bt := read(s, "bad.go", []byte(bad), nil)
	mustFail(t, s, "bad.go", bt, "CUT 2*", []byte(bad), "EDIT_BLOCK_UNRESOLVED")
	py := "def f():\n    return 1\n"
	pt := read(s, "f.py", []byte(py), nil)
	e = mustFail(t, s, "f.py", pt, "PUT 1*:\n+x", []byte(py), "EDIT_BLOCK_UNRESOLVED")
	if e.Details["alternative"] != "PUT 1.=M:" {
		t.Fatal(e.Details)
	}
	mustFail(t, s, "f.py", pt, "PUT 9*:\n+x", []byte(py), "EDIT_RANGE_INVALID")
}

func TestMarkdownBlocks(t *testing.T) {
	md := "# Title\nintro\n## A\na1\n```\n# not a heading\n```\n### A.1\ndeep\n## B\nb1\n# Next\n"
	lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
	for _, tt := range []struct{ n, s, e int }{{1, 1, 11}, {3, 3, 9}, {8, 8, 9}, {10, 10, 11}, {12, 12, 12}, {2, 0, 0}, {6, 0, 0}} {
		r := &resolver{lang: "markdown", canon: md, lines: lines, limit: MaxBlockParseBytes}
		s, e, err := r.resolve(op{a: tt.n})
		if s != tt.s || e != tt.e || (err == nil) != (tt.s != 0) {
			t.Errorf("line %d: %d-%d %v", tt.n, s, e, err)
		}
	}
	st := newTestStore()
	tag := read(st, "README.md", []byte(md), nil)
	p := mustPlan(t, st, "README.md", tag, "CUT 3*", []byte(md))
	if string(p.NewBytes) != "# Title\nintro\n## B\nb1\n# Next\n" {
		t.Fatalf("%q", p.NewBytes)
	}
}
