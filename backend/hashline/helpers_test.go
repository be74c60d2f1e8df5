package hashline

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/internal/golden"
)

const greetSrc = "package main\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn \"Hello, \" + name\n}\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n"

func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

func newTestStore() *Store { return NewStore(DefaultLimits(), fixedNow) }

// read records data as a Read that displayed the lines in seen (nil: all).
func read(s *Store, key string, data []byte, seen *LineSet) string {
	t := Decode(data)
	set := LineRange(1, len(t.Lines))
	if seen != nil {
		set = *seen
	}
	s.Record(key, t, set)
	return t.Digest().Tag()
}

func ls(a, b int) *LineSet { s := LineRange(a, b); return &s }

func edit(s *Store, key, tag, ops string, live []byte) (*EditPlan, *EditError) {
	return s.Plan(EditInput{Key: key, Display: key, Tag: tag, Ops: ops, Live: live, Exists: live != nil})
}

// mustPlan plans and commits, failing the test on an error.
func mustPlan(t *testing.T, s *Store, key, tag, ops string, live []byte) *EditPlan {
	t.Helper()
	p, err := edit(s, key, tag, ops, live)
	if err != nil {
		t.Fatalf("Plan(%q) failed: %v %v", ops, err, err.Details)
	}
	return p
}

func mustFail(t *testing.T, s *Store, key, tag, ops string, live []byte, code string) *EditError {
	t.Helper()
	p, err := edit(s, key, tag, ops, live)
	if err == nil {
		t.Fatalf("Plan(%q) succeeded (tag %s), want %s", ops, p.NewTag(), code)
	}
	if p != nil {
		t.Fatalf("a rejected call returned a plan")
	}
	if string(err.Code) != code {
		t.Fatalf("Plan(%q) = %s (%s) %v, want %s", ops, err.Code, err.Message, err.Details, code)
	}
	return err
}

// result renders a plan or error in the contract §7 result shape.
func result(display string, p *EditPlan, e *EditError, g *GuardState) map[string]any {
	if e != nil {
		m := map[string]any{"ok": false, "code": e.Code, "retry": e.Retry, "message": e.Message, "liveTag": e.LiveTag, "details": e.Details}
		if g != nil {
			m["guard"] = g
		}
		return m
	}
	var moved any
	if p.MoveTo != "" {
		moved = p.MoveTo
	}
	return map[string]any{"ok": true, "path": display, "tag": p.NewTag(), "header": Header(display, p.NewTag()),
		"changed": p.Changed, "preview": p.Preview, "resolvedBlocks": p.ResolvedBlocks, "movedTo": moved,
		"warnings": p.Warnings, "removed": p.Remove, "bytes": string(p.NewBytes)}
}

// assertGolden compares v (as indented JSON) with testdata/<name>.golden.
func assertGolden(t *testing.T, name string, v any) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, filepath.Join("testdata", name+".golden"), b.Bytes())
}

func lines(s string) []string { return strings.Split(s, "\n") }
