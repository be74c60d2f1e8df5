package toolcli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/history"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

func export(t *testing.T, f fixture, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.Export(t.Context(), args, toolcli.Env{Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }})
	return code, out.String(), errOut.String()
}

// A session run headless exports as Markdown and as JSON holding the
// prompt, the answer, the tool call and its diff.
func TestExportASessionRunHeadless(t *testing.T) {
	f := newFixture(t)
	write := providertest.Call{Name: "Write", Input: map[string]any{"path": "hello.txt", "content": "hello\n"}}
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "Writing hello.txt.", ToolCalls: []providertest.Call{write}, Stop: "tool_use"},
		providertest.Turn{Text: "Wrote the greeting file.", Stop: "end_turn"},
	)
	code, out := runTurn(t, f, srv, true, "o\n", "--workspace", f.workspace, "greet the user in a file")
	if code != 0 {
		t.Fatalf("run exit %d:\n%s", code, out)
	}
	id := regexp.MustCompile(`pi-desktop --session (\S+)\]`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no session id in:\n%s", out)
	}

	code, md, stderr := export(t, f, "--session", id[1], "--format", "md")
	if code != 0 {
		t.Fatalf("export md exit %d: %s", code, stderr)
	}
	for _, want := range []string{"## You", "greet the user in a file", "Wrote the greeting file.", "- **Write** `hello.txt`", "+hello"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}

	file := filepath.Join(t.TempDir(), "s.json")
	if code, _, stderr := export(t, f, "--session", id[1], "--format", "json", "-o", file); code != 0 {
		t.Fatalf("export json exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var x history.Export
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	if x.Session.ID != id[1] || len(x.Turns) != 1 || len(x.Messages) != 3 || len(x.ToolCalls) != 1 || x.ToolCalls[0].State != "done" {
		t.Errorf("export holds %d turns, %d messages, %d calls: %s", len(x.Turns), len(x.Messages), len(x.ToolCalls), b)
	}
}

func TestExportUsageAndFailures(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name string
		args []string
		code int
		hint string
	}{
		{"no session", []string{"--format", "md"}, 2, "--session ID"},
		{"bad format", []string{"--session", "x", "--format", "pdf"}, 2, "md or json"},
		{"extra argument", []string{"--session", "x", "--format", "md", "more"}, 2, `unexpected argument "more"`},
		{"unknown session", []string{"--session", "nope", "--format", "json"}, 1, `no session "nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := export(t, f, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.hint) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d naming %q", code, out, stderr, tc.code, tc.hint)
			}
		})
	}
}
