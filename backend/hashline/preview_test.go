package hashline

import (
	"fmt"
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
	mustFail(t, s, "f", p.NewTag(), "PUT 53.=53:\n+x", p.NewBytes, "EDIT_LINES_UNSEEN")
}

// A dry run (an approval card's preview) computes the same plan but records
// nothing: its error reveals were shown to the user, not the model, so the
// real call still meets them.
func TestDryRunLeavesTheStoreAlone(t *testing.T) {
	s := newTestStore()
	live := []byte("a\nb\nc\n")
	tag := read(s, "f", live, ls(1, 1)) // only line 1 displayed
	dry := func(tag, ops string, live []byte) (*EditPlan, *EditError) {
		return s.Plan(EditInput{Key: "f", Display: "f", Tag: tag, Ops: ops, Live: live, Exists: true, DryRun: true})
	}
	snapshot := func() string { return fmt.Sprintf("%+v", s.Versions("f")) }
	before := snapshot()

	// Branch A with an unseen anchor: a complete reveal, not recorded.
	if _, e := dry(tag, "PUT 3.=3:\n+C", live); e == nil || e.Code != "EDIT_LINES_UNSEEN" {
		t.Fatalf("dry run of an unseen anchor = %v", e)
	}
	// Branch D (the file changed beyond recovery): context rows, not recorded.
	if _, e := dry(tag, "PUT 3.=3:\n+C", []byte("x\ny\n")); e == nil || e.Code != "EDIT_TAG_MISMATCH" {
		t.Fatalf("dry run on a changed file = %v", e)
	}
	if after := snapshot(); after != before {
		t.Fatalf("dry runs changed the store:\n%s\n→\n%s", before, after)
	}
	// The real call still meets the reveal, and only then may retry.
	mustFail(t, s, "f", tag, "PUT 3.=3:\n+C", live, "EDIT_LINES_UNSEEN")
	mustPlan(t, s, "f", tag, "PUT 3.=3:\n+C", live)

	// A dry run that succeeds gives the same bytes as the real plan.
	p, e := dry(tag, "PUT 1.=1:\n+A", live)
	if e != nil || string(p.NewBytes) != "A\nb\nc\n" {
		t.Fatalf("dry plan = %+v, %v", p, e)
	}
}
