package history_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/history"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

const fakeKey = "sk-ant-api03-Zq8vT2xLmN4pR7sW1yB6cD9fG3hJ5kQ0"

func exportFixture(t *testing.T) *transcript {
	tr := seed(t)
	review := `{"ok":true,"path":"CHANGELOG.md","review":[{"path":"CHANGELOG.md","status":"added","additions":2,"deletions":0,` +
		`"hunks":[{"oldStart":0,"oldLines":0,"newStart":1,"newLines":2,"lines":["+# Changelog","+- fix the loader"]}]}]}`
	tr.call("c2", "s2", "t2", "m4", 0, "Write", `{"path":"CHANGELOG.md","content":"# Changelog\n- fix the loader\n"}`, review, "created CHANGELOG.md")
	tr.call("c3", "s2", "t2", "m4", 1, "Bash", `{"command":"curl -H 'x-api-key: `+fakeKey+`' https://api.example.test","env":{"API_TOKEN":"plain-looking"}}`,
		`{"ok":false,"code":"TOOL_TIMEOUT","message":"the command ran past its 120 s timeout"}`, "timed out")
	tr.exec(`UPDATE agent_tool_calls SET is_error = 1, state = 'failed', error_code = 'TOOL_TIMEOUT' WHERE id = 'c3'`)
	tr.exec(`UPDATE agent_turns SET prompt = ? WHERE id = 't2'`, "use key "+fakeKey)
	return tr
}

func TestExportMarkdownReadsLikeTheSession(t *testing.T) {
	tr := exportFixture(t)
	x, err := history.Load(t.Context(), tr.db, "s2", 1_700_000_100_000)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x.WriteMarkdown(&buf, time.UTC); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "testdata/export.md.golden", buf.String())
	if strings.Contains(buf.String(), fakeKey) {
		t.Error("the Markdown export carries a secret")
	}
}

func TestExportJSONIsLosslessAndRedacted(t *testing.T) {
	tr := exportFixture(t)
	x, err := history.Load(t.Context(), tr.db, "s2", 1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), fakeKey) || strings.Contains(buf.String(), "plain-looking") {
		t.Errorf("the JSON export carries a secret:\n%s", buf.String())
	}
	var back history.Export
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Format != "pi-desktop.session" || back.Version != 1 || back.Session.ID != "s2" || back.Session.ProjectName != "shop" {
		t.Errorf("header = %+v %+v", back.Format, back.Session)
	}
	wantRows := map[string]int{
		"turns":     tr.count(`SELECT count(*) FROM agent_turns WHERE session_id = 's2'`),
		"messages":  tr.count(`SELECT count(*) FROM agent_messages WHERE session_id = 's2'`),
		"toolCalls": tr.count(`SELECT count(*) FROM agent_tool_calls WHERE session_id = 's2'`),
	}
	gotRows := map[string]int{"turns": len(back.Turns), "messages": len(back.Messages), "toolCalls": len(back.ToolCalls)}
	for k, n := range wantRows {
		if gotRows[k] != n || n == 0 {
			t.Errorf("%s: exported %d of %d", k, gotRows[k], n)
		}
	}
	write := back.ToolCalls[0]
	var res struct {
		Review []struct {
			Hunks []struct{ Lines []string } `json:"hunks"`
		} `json:"review"`
	}
	if err := json.Unmarshal(write.Result, &res); err != nil || len(res.Review) != 1 || len(res.Review[0].Hunks[0].Lines) != 2 {
		t.Errorf("the Write result lost its review record: %s (%v)", write.Result, err)
	}
	answer := back.Messages[1]
	if answer.CostPicoUSD == nil || *answer.CostPicoUSD != 4_200_000_000 || answer.CacheReadTokens != 1000 {
		t.Errorf("usage and cost lost: %+v", answer)
	}
	if back.ToolCalls[1].ErrorCode != "TOOL_TIMEOUT" || !back.ToolCalls[1].IsError || back.ToolCalls[1].StartedAt == nil {
		t.Errorf("failed call lost its outcome: %+v", back.ToolCalls[1])
	}
}

func TestExportUnknownSession(t *testing.T) {
	tr := seed(t)
	_, err := history.Load(t.Context(), tr.db, "nope", 1)
	if errs.CodeOf(err) != errs.SessionNotFound {
		t.Errorf("err = %v, want SESSION_NOT_FOUND", err)
	}
}
