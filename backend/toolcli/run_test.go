package toolcli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

func runTurn(t *testing.T, f fixture, srv *providertest.Server, interactive bool, stdin string, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.RunTurn(t.Context(), args, toolcli.RunEnv{
		Env: toolcli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
			ResolveDataDir: func(string) (string, error) { return f.data, nil }},
		Interactive: interactive,
		Config: func(c hostcore.Config) hostcore.Config {
			c.Provider = func(string) (provider.Provider, error) { return provider.New(srv.Config()) }
			return c
		},
	})
	return code, out.String() + errOut.String()
}

func TestRunHeadlessFailsClosedWithoutATerminal(t *testing.T) {
	f := newFixture(t)
	write := providertest.Call{Name: "Write", Input: map[string]any{"path": "x.txt", "content": "x"}}
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "Writing.", ToolCalls: []providertest.Call{write}, Stop: "tool_use"},
		providertest.Turn{Text: "It was denied.", Stop: "end_turn"},
		providertest.Turn{ToolCalls: []providertest.Call{write}, Stop: "tool_use"},
		providertest.Turn{Text: "Done.", Stop: "end_turn"},
	)
	code, out := runTurn(t, f, srv, false, "", "--workspace", f.workspace, "write x")
	if code != 0 || !strings.Contains(out, "no terminal to ask for approval") || !strings.Contains(out, "✗ Write TOOL_DENIED") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(f.workspace, "x.txt")); !os.IsNotExist(err) {
		t.Fatal("a Write ran without approval")
	}
	// On a terminal the user answers the card.
	code, out = runTurn(t, f, srv, true, "o\n", "--workspace", f.workspace, "again")
	if code != 0 || !strings.Contains(out, "✓ Write") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	// The closing line says how to open the session in the window.
	if !regexp.MustCompile(`session (\S+); see it in the app: pi-desktop --session (\S+)\]`).MatchString(out) {
		t.Errorf("the closing line does not name the session to open:\n%s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(f.workspace, "x.txt")); string(b) != "x" {
		t.Errorf("file = %q", b)
	}
}

func TestRunJSONAndUsage(t *testing.T) {
	f := newFixture(t)
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "Hello there.", Stop: "stop"})
	code, out := runTurn(t, f, srv, false, "", "--workspace", f.workspace, "--json", "hi")
	if code != 0 || !strings.Contains(out, `"event":"agent:text"`) || !strings.Contains(out, `"state":"done"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if code, _ := runTurn(t, f, srv, false, "", "--workspace", f.workspace); code != 2 {
		t.Errorf("missing prompt exit = %d", code)
	}
}
