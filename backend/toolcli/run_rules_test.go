package toolcli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// The terminal prompt shows a Bash command as the parser sees it, one
// simple command a line with its decision, and offers the card's "Always
// allow" choices: choosing one saves the rule, so the next turn's echo
// runs without a prompt, while a command it does not cover still asks.
func TestRunPromptAppliesCommandRules(t *testing.T) {
	f := newFixture(t)
	bash := func(cmd string) providertest.Turn {
		return providertest.Turn{ToolCalls: []providertest.Call{{Name: "Bash", Input: map[string]any{"command": cmd}}}, Stop: "tool_use"}
	}
	srv := providertest.NewAnthropicServer(t,
		bash("echo one > one.txt && ls"),
		providertest.Turn{Text: "Done.", Stop: "end_turn"},
		bash("echo two > two.txt"),
		providertest.Turn{Text: "Done again.", Stop: "end_turn"},
		bash("echo three && rm one.txt"),
		providertest.Turn{Text: "Refused.", Stop: "end_turn"},
	)
	// accept-edits: a write into the workspace needs nothing more.
	code, out := runTurn(t, f, srv, true, "2\n", "--workspace", f.workspace, "--permission-mode", "accept-edits", "first")
	for _, want := range []string{
		"  commands:\n",
		"    ? echo one > one.txt\n        needs you: no rule allows “echo one”\n",
		"    ? ls\n",
		"  writes:\n    ✓ one.txt (workspace, >)\n",
		"for the [s]ession (every command, not only this one), [1] always allow echo in this session, [2] always allow echo in this project, [3] always allow ls in this session",
		"✓ Bash",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("exit %d: no %q in\n%s", code, want, out)
		}
	}
	if strings.Contains(out, "[d]eny? ") && strings.Count(out, "[d]eny? ") != 1 {
		t.Fatalf("more than one prompt:\n%s", out)
	}
	code, out = runTurn(t, f, srv, true, "", "--workspace", f.workspace, "--permission-mode", "accept-edits", "second")
	if code != 0 || strings.Contains(out, "[d]eny? ") || !strings.Contains(out, "✓ Bash") {
		t.Fatalf("echo after Always allow: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(f.workspace, "two.txt")); string(b) != "two\n" {
		t.Errorf("two.txt = %q", b)
	}
	code, out = runTurn(t, f, srv, true, "d\n", "--workspace", f.workspace, "--permission-mode", "accept-edits", "third")
	if code != 0 || !strings.Contains(out, "    ✓ echo three\n        allowed by rule: allow echo (project)\n") ||
		!strings.Contains(out, "    ? rm one.txt\n") || !strings.Contains(out, "  matched: allow echo (project)\n") ||
		!strings.Contains(out, "✗ Bash TOOL_DENIED") {
		t.Fatalf("echo && rm: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(f.workspace, "one.txt")); err != nil {
		t.Error("one.txt was removed after a deny")
	}
}
