package toolcli_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

// writeTurns scripts one Write and the model's reply after it.
func writeTurns(t *testing.T, args map[string]any) *providertest.Server {
	t.Helper()
	return providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: args}}, Stop: "tool_use"},
		providertest.Turn{Text: "Understood.", Stop: "end_turn"},
	)
}

// The terminal prompt shows what a Write would change before the user
// answers: the diff under the prompt line, plain unless Stdout is a color
// terminal, with the file's control characters escaped either way.
func TestRunApprovalPromptShowsTheDiff(t *testing.T) {
	// notes.txt holds "alpha\nbeta\n" (newFixture); the new line carries an
	// escape sequence that must not reach the terminal raw.
	overwrite := map[string]any{"path": "notes.txt", "content": "alpha\ngamma\x1b[2J\n",
		"tag": hashline.DigestOf([]byte("alpha\nbeta\n")).Tag()}
	created := map[string]any{"path": "new.txt", "content": "hello\n"}
	tests := []struct {
		name  string
		args  map[string]any
		color bool
		want  []string // in this order, between the prompt line and the question
	}{
		{name: "plain", args: overwrite, want: []string{
			"    @@ -1,2 +1,2 @@\n", "     alpha\n", "    -beta\n", `    +gamma\x1b[2J` + "\n"}},
		{name: "color", args: overwrite, color: true, want: []string{
			"    \x1b[36m@@ -1,2 +1,2 @@\x1b[0m\n", "     alpha\n", "    \x1b[31m-beta\x1b[0m\n", "    \x1b[32m+gamma\\x1b[2J\x1b[0m\n"}},
		{name: "new file note", args: created, want: []string{"  (new file)\n", "    @@ -0,0 +1,1 @@\n", "    +hello\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			code, out := runTurnWith(t, f, writeTurns(t, tt.args), toolcli.RunEnv{Interactive: true, Color: tt.color}, "d\n",
				"--workspace", f.workspace, "change it")
			if code != 0 || !strings.Contains(out, "✗ Write TOOL_DENIED") {
				t.Fatalf("exit %d, output:\n%s", code, out)
			}
			start := strings.Index(out, "? Write wants to run")
			end := strings.Index(out, "  allow [o]nce")
			if start < 0 || end < start {
				t.Fatalf("no prompt:\n%s", out)
			}
			card := out[strings.Index(out[start:], "\n")+start+1 : end]
			at := 0
			for _, w := range tt.want {
				i := strings.Index(card[at:], w)
				if i < 0 {
					t.Fatalf("the prompt lacks %q after byte %d:\n%q", w, at, card)
				}
				at += i + len(w)
			}
			if strings.Contains(out, "\x1b[2J") {
				t.Errorf("the file's escape sequence reached the terminal raw:\n%q", out)
			}
			if !tt.color && strings.Contains(out, "\x1b[") {
				t.Errorf("colors without a color terminal:\n%q", out)
			}
			if b, _ := os.ReadFile(filepath.Join(f.workspace, "notes.txt")); string(b) != "alpha\nbeta\n" {
				t.Errorf("notes.txt = %q after a denial", b)
			}
		})
	}
}

// --json carries the diff and its note in the permission:request event, as
// the desktop card gets them, and prints nothing else for it.
func TestRunJSONApprovalEventCarriesTheDiff(t *testing.T) {
	f := newFixture(t)
	srv := writeTurns(t, map[string]any{"path": "new.txt", "content": "hello\nworld\n"})
	code, out := runTurnWith(t, f, srv, toolcli.RunEnv{Color: true}, "", "--workspace", f.workspace, "--json", "create it")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var found bool
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev struct {
			Event   string `json:"event"`
			Payload struct {
				Tool     string `json:"tool"`
				Diff     string `json:"diff"`
				DiffNote string `json:"diffNote"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		if ev.Event != "permission:request" {
			continue
		}
		found = true
		if ev.Payload.Tool != "Write" || ev.Payload.Diff != "@@ -0,0 +1,2 @@\n+hello\n+world\n" || ev.Payload.DiffNote != "new file" {
			t.Errorf("request payload = %+v", ev.Payload)
		}
	}
	if !found {
		t.Fatalf("no permission:request event:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colors in the JSON stream:\n%q", out)
	}
}
