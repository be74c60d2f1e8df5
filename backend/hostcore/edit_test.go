package hostcore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

const greetSrc = "package main\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn \"Hello, \" + name\n}\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n"

func TestEditThroughThePipeline(t *testing.T) {
	e := newEnv(t)
	e.configure("", "accept-edits")
	file := filepath.Join(e.project, "greet.go")
	write(t, file, greetSrc)

	// A tag never shown is unknown; after a partial Read the anchored line
	// is unseen, and the complete reveal makes the identical retry succeed
	// (edit-contract §9.6).
	if res := e.call(e.session.ID, "Edit", map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT >$:\n+x"}); res.Code != errs.EditTagUnknown {
		t.Fatalf("Edit before any Read = %+v", res)
	}
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "greet.go", "limit": 4}); !res.OK {
		t.Fatal(res)
	}
	edit := map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT 6.=6:\n+\treturn fmt.Sprintf(\"Hello, %s!\", name)"}
	res := e.call(e.session.ID, "Edit", edit)
	if res.OK || res.Code != errs.EditLinesUnseen || res.Fields["retry"] != "same_call" {
		t.Fatalf("first Edit = %+v", res)
	}
	res = e.call(e.session.ID, "Edit", edit)
	if !res.OK || res.Fields["tag"] != "25B7" {
		t.Fatalf("retried Edit = %+v", res)
	}
	changes := res.Fields["review"].([]review.Change)
	if len(changes) != 1 || changes[0].Operation != "edit" || changes[0].Additions != 1 || changes[0].Deletions != 1 {
		t.Errorf("review = %+v", changes)
	}
	// Rollback restores the bytes and invalidates the path's tags.
	if _, err := e.core.Rollback(t.Context(), e.session.ID, changes[0].SnapshotID); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != greetSrc {
		t.Fatalf("rollback left %q", b)
	}
	res = e.call(e.session.ID, "Edit", map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT >$:\n+// end"})
	if res.OK || res.Code != errs.EditTagUnknown {
		t.Errorf("Edit with a tag from before the rollback = %+v; want EDIT_TAG_UNKNOWN", res)
	}
}

func TestEditPlanModeAndMissingTarget(t *testing.T) {
	e := newEnv(t)
	if res := e.call(e.session.ID, "Edit", map[string]any{"path": "nope.go", "tag": "0000", "ops": "PUT >$:\n+x"}); res.Code != errs.EditTargetMissing {
		t.Errorf("Edit of a missing file = %+v", res)
	}
	e.noCard() // refused before any card
	e.configure("plan", "auto")
	if res := e.call(e.session.ID, "Edit", map[string]any{"path": "main.go", "tag": "0000", "ops": "PUT >$:\n+x"}); res.Code != errs.EditDisabledInPlan {
		t.Errorf("Edit in plan = %+v", res)
	}
}

func TestEditLoopGuardTerminates(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	b, _ := os.ReadFile(filepath.Join(e.project, "main.go"))
	tag := hashline.DigestOf(b).Tag()
	var last map[string]any
	for range 3 {
		res := e.call(e.session.ID, "Edit", map[string]any{"path": "main.go", "tag": tag, "ops": "PUT 1.=1\n+x"})
		if res.Code != errs.EditParseFailed {
			t.Fatalf("Edit = %+v", res)
		}
		last = res.Fields
	}
	if g, ok := last["guard"].(hashline.GuardState); !ok || !g.Terminate {
		t.Errorf("third parse failure guard = %+v; want terminate", last["guard"])
	}
	// The prompt's mutations are over, even a valid one on another file…
	res := e.call(e.session.ID, "Write", map[string]any{"path": "fresh.txt", "content": "x"})
	if res.Code != errs.MutationRetryBudgetExhausted {
		t.Errorf("Write after the guard terminated = %+v", res)
	}
	// …but a new prompt starts afresh.
	res = e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "turn-2", ToolCallID: "next", Tool: "Write",
		Args: json.RawMessage(`{"path":"fresh.txt","content":"x"}`)})
	if !res.OK {
		t.Errorf("Write in the next prompt = %+v", res)
	}
}

func TestEditMoveRollsBackAsAPair(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	write(t, filepath.Join(e.project, "greet.go"), greetSrc)
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "greet.go"}); !res.OK {
		t.Fatal(res)
	}
	res := e.call(e.session.ID, "Edit", map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT 1.=1:\n+package util\nMV pkg/util/greet.go"})
	if !res.OK || res.Fields["movedTo"] != "pkg/util/greet.go" {
		t.Fatalf("MV = %+v", res)
	}
	changes := res.Fields["review"].([]review.Change)
	if len(changes) != 2 || changes[0].GroupID == "" || changes[0].GroupID != changes[1].GroupID {
		t.Fatalf("MV review = %+v", changes)
	}
	back, err := e.core.Rollback(t.Context(), e.session.ID, changes[1].SnapshotID)
	if err != nil || len(back) != 2 {
		t.Fatalf("rollback = %+v, %v", back, err)
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, "greet.go")); string(b) != greetSrc {
		t.Errorf("source not restored: %q", b)
	}
	if _, err := os.Stat(filepath.Join(e.project, "pkg/util/greet.go")); !os.IsNotExist(err) {
		t.Error("destination not removed")
	}
}

// Grep content rows count as seen for the version searched; other lines of
// the file do not.
func TestGrepRowsAreSeen(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	write(t, filepath.Join(e.project, "greet.go"), greetSrc)
	res := e.call(e.session.ID, "Grep", map[string]any{"pattern": "return", "path": "greet.go"})
	if !res.OK {
		t.Fatal(res)
	}
	tags := res.Fields["tags"].(map[string]string)
	if tags["greet.go"] != "A093" {
		t.Fatalf("tags = %v", tags)
	}
	if res := e.call(e.session.ID, "Edit", map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT 10.=10:\n+x"}); res.Code != errs.EditLinesUnseen {
		t.Errorf("Edit on a line Grep did not show = %+v", res)
	}
	if res := e.call(e.session.ID, "Edit", map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT 6.=6:\n+\treturn \"Hi, \" + name"}); !res.OK {
		t.Errorf("Edit on the matched line = %+v", res)
	}
}
