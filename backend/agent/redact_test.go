package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

type reviewLike struct {
	Path string `json:"path"`
	Diff string `json:"diff"`
}

// TestToolOutputStoredAndShownRedacted: a `cat .env` result reaches the
// model raw in its own turn, but the stored transcript, the result event
// and the next turn (rebuilt from the store) see it redacted.
func TestToolOutputStoredAndShownRedacted(t *testing.T) {
	const secret, key = "hunter2xyz", "ghp_0123456789abcdefghijABCDEFGHIJ"
	env := "DB_PASSWORD=" + secret + "\nGITHUB_TOKEN=" + key + "\nDEBUG=1\n"
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "Bash", `{"command":"cat .env"}`}),
		say("Read it."),
		say("Second."))
	f.host.behave = func(ctx context.Context, call ToolCall) tools.Result {
		return tools.Result{OK: true, Content: env, Notice: "token=" + secret,
			Details: map[string]any{"nested": []any{"password: " + secret}},
			Fields:  map[string]any{"exitCode": 0, "stdout": env, "review": reviewLike{Path: ".env", Diff: "+DB_PASSWORD=" + secret}}}
	}
	if _, err := f.run("show the env"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.run("again"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	live := lastResults(t, reqs[1])
	if len(live) != 1 || !strings.Contains(live[0].Text, secret) || !strings.Contains(live[0].Text, key) {
		t.Fatalf("the live turn must see the real output, got %+v", live)
	}

	leaks := func(where string, s string) {
		t.Helper()
		if strings.Contains(s, secret) || strings.Contains(s, key) {
			t.Errorf("%s leaks a secret: %s", where, s)
		}
		if !strings.Contains(s, "[REDACTED]") {
			t.Errorf("%s has no redaction mark: %s", where, s)
		}
	}
	evs := f.rec.named(EventToolResult)
	if len(evs) != 1 {
		t.Fatalf("%d result events", len(evs))
	}
	leaks("the result event", string(must(json.Marshal(evs[0]))))
	ev := evs[0].(ToolResultEvent)
	if !strings.Contains(ev.Result.Content, "DEBUG=1") || ev.Result.Fields["exitCode"] != 0 {
		t.Errorf("redaction lost the rest of the result: %+v", ev.Result)
	}

	tr := f.load()
	call := tr.Messages[1].ToolCalls[0]
	leaks("the stored result", string(call.Result))
	leaks("the stored model text", call.ModelText)
	var n int
	if err := f.db.QueryRowContext(t.Context(),
		`SELECT count(*) FROM agent_tool_calls WHERE result LIKE ? OR model_text LIKE ?`, "%"+secret+"%", "%"+secret+"%").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d stored rows hold the secret (%v)", n, err)
	}
	leaks("the next turn's request", string(must(json.Marshal(reqs[2].Messages))))
}

func TestRedactResultLeavesCleanResultsAlone(t *testing.T) {
	fields := map[string]any{"stdout": "ok\n", "exitCode": 0}
	r := tools.Result{OK: true, Content: "ok", Fields: fields}
	got := redactResult(r)
	if got.Content != "ok" || got.Fields["stdout"] != "ok\n" {
		t.Errorf("redactResult changed a clean result: %+v", got)
	}
	fields["stdout"] = "changed"
	if got.Fields["stdout"] != "changed" {
		t.Error("a clean result's fields were copied")
	}
}
