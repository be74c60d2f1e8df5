package hashline

import (
	"strings"
	"testing"
)

// A wide edit's preview stays within its byte budget, and a context row it
// cut is not seen: an edit anchored on it is refused as unseen.
func TestPreviewBoundedAndOnlyShownRowsSeen(t *testing.T) {
	s := newTestStore()
	live := []byte("a\nb\nc\n")
	tag := read(s, "f", live, ls(1, 2)) // line 3 ("c") never displayed
	wide := strings.Repeat("é", 500)
	var ops strings.Builder
	ops.WriteString("PUT >2:")
	for range 50 {
		ops.WriteString("\n+" + wide)
	}
	p := mustPlan(t, s, "f", tag, ops.String(), live)
	if len(p.Preview) > PreviewBytes+64 {
		t.Fatalf("preview is %d bytes, budget %d", len(p.Preview), PreviewBytes)
	}
	if strings.Contains(p.Preview, "53:c") {
		t.Fatal("the test needs the trailing context row to be cut")
	}
	s.Commit("f", p, "")
	mustFail(t, s, "f", p.NewTag, "PUT 53.=53:\n+x", p.NewBytes, "EDIT_LINES_UNSEEN")
}
