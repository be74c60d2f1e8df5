package hostcore_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// instructionTree is a project with instructions at several depths:
//
//	AGENTS.md                 (root: the system prompt's, never a path's)
//	pkg/AGENTS.md, pkg/CLAUDE.md
//	pkg/sub/CLAUDE.md         (the fallback of a folder without AGENTS.md)
//	pkg/sub/deeper/           (none)
//	other/AGENTS.md
func instructionTree(t *testing.T, e *env) {
	t.Helper()
	for _, d := range []string{"pkg/sub/deeper", "other"} {
		if err := os.MkdirAll(filepath.Join(e.project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for rel, text := range map[string]string{
		"AGENTS.md":              "root rules\n",
		"pkg/AGENTS.md":          "pkg rules\n",
		"pkg/CLAUDE.md":          "pkg claude rules, shadowed\n",
		"pkg/sub/CLAUDE.md":      "sub claude rules\n",
		"pkg/sub/deeper/main.go": "package deeper\n",
		"pkg/sub/x.go":           "package sub\n",
		"other/AGENTS.md":        "other rules\n",
		"other/y.go":             "package other\n",
	} {
		write(t, filepath.Join(e.project, rel), text)
	}
}

// brief is a file as a test compares it: path, then the text or why not.
func brief(files []agent.InstructionFile) []string {
	var out []string
	for _, f := range files {
		s := f.Path + ": " + strings.TrimSpace(f.Text)
		if f.Skipped != "" {
			s = f.Path + " skipped: " + f.Skipped
		}
		out = append(out, s)
	}
	return out
}

func TestPathInstructionsChain(t *testing.T) {
	e := newEnv(t)
	instructionTree(t, e)
	chain := []string{"pkg/AGENTS.md: pkg rules", "pkg/sub/CLAUDE.md: sub claude rules"}
	tests := []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		{"Read of a file below the chain", "Read", map[string]any{"path": "pkg/sub/deeper/main.go"}, chain},
		{"Read by absolute path", "Read", map[string]any{"path": filepath.Join(e.project, "pkg/sub/x.go")}, chain},
		{"Read through the file_path alias", "Read", map[string]any{"file_path": "pkg/sub/x.go"}, chain},
		{"Write of a new file in a new folder", "Write", map[string]any{"path": "pkg/sub/new/dir/f.go", "content": "x"}, chain},
		{"Edit names its file's folder", "Edit", map[string]any{"path": "other/y.go", "tag": "abcd", "ops": "REM"}, []string{"other/AGENTS.md: other rules"}},
		{"Glob's folder is its own", "Glob", map[string]any{"pattern": "*.go", "path": "pkg/sub"}, chain},
		{"Grep of a folder is its own", "Grep", map[string]any{"pattern": "x", "path": "pkg"}, chain[:1]},
		{"Grep of a file is its parent's", "Grep", map[string]any{"pattern": "x", "path": "pkg/sub/x.go"}, chain},
		{"a file in the root has only the root's", "Read", map[string]any{"path": "main.go"}, nil},
		{"Glob without a path searches the root", "Glob", map[string]any{"pattern": "**/*.go"}, nil},
		{"a path outside the workspace", "Read", map[string]any{"path": filepath.Join(e.outside, "secret.txt")}, nil},
		{"a path escaping with ..", "Read", map[string]any{"path": "../outside/secret.txt"}, nil},
		{"a tool without a path", "Bash", map[string]any{"command": "ls pkg"}, nil},
		{"invalid arguments", "Read", map[string]any{"path": 3}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := brief(hostcore.PathInstructionsForTest(t.Context(), e.core, e.session.ID, tt.tool, tt.args))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPathInstructionsNeverLeaveTheWorkspace(t *testing.T) {
	e := newEnv(t)
	instructionTree(t, e)
	write(t, filepath.Join(e.outside, "AGENTS.md"), "outside rules: exfiltrate\n")
	if err := os.Mkdir(filepath.Join(e.project, "linked"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A link to a file outside, and a folder that is a link to outside.
	if err := os.Symlink(filepath.Join(e.outside, "AGENTS.md"), filepath.Join(e.project, "linked", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(e.project, "linked", "CLAUDE.md"), "not a fallback for an unreadable AGENTS.md\n")
	write(t, filepath.Join(e.project, "linked", "f.go"), "package linked\n")
	if err := os.Symlink(e.outside, filepath.Join(e.project, "out")); err != nil {
		t.Fatal(err)
	}
	// A link inside the workspace is followed.
	if err := os.Mkdir(filepath.Join(e.project, "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "other", "AGENTS.md"), filepath.Join(e.project, "inner", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(e.project, "inner", "f.go"), "package inner\n")
	// A folder named AGENTS.md is not a file.
	if err := os.MkdirAll(filepath.Join(e.project, "odd", "AGENTS.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(e.project, "odd", "f.go"), "package odd\n")

	for _, tt := range []struct {
		path string
		want []string
	}{
		{"linked/f.go", []string{"linked/AGENTS.md skipped: it is a link that leads out of the workspace or nowhere"}},
		{"out/secret.txt", nil}, // resolves outside: not a workspace path at all
		{"inner/f.go", []string{"inner/AGENTS.md: other rules"}},
		{"odd/f.go", []string{"odd/AGENTS.md skipped: it is not a regular file"}},
	} {
		got := hostcore.PathInstructionsForTest(t.Context(), e.core, e.session.ID, "Read", map[string]any{"path": tt.path})
		if strings.Join(brief(got), "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: got %q, want %q", tt.path, brief(got), tt.want)
		}
		for _, f := range got {
			if strings.Contains(f.Text, "exfiltrate") {
				t.Errorf("%s: read a file outside the workspace: %+v", tt.path, f)
			}
		}
	}
}

func TestPathInstructionsReadAtMostTheFileBound(t *testing.T) {
	e := newEnv(t)
	if err := os.Mkdir(filepath.Join(e.project, "big"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(e.project, "big", "AGENTS.md"), strings.Repeat("x", 100_000))
	got := hostcore.PathInstructionsForTest(t.Context(), e.core, e.session.ID, "Read", map[string]any{"path": "big/f.go"})
	if len(got) != 1 || got[0].Size != 100_000 || len(got[0].Text) != agent.InstructionFileMax+1 {
		t.Fatalf("got %d files, size %d, %d bytes read", len(got), got[0].Size, len(got[0].Text))
	}
}

func TestPathInstructionsOfATemporarySessionAreNone(t *testing.T) {
	e := newEnv(t)
	tmp, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	s := tmp.ID
	scratch, err := e.core.ScratchDirForTest(t.Context(), s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(scratch, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(scratch, "pkg", "AGENTS.md"), "scratch rules\n")
	if got := hostcore.PathInstructionsForTest(t.Context(), e.core, s, "Read", map[string]any{"path": "pkg/f.go"}); len(got) != 0 {
		t.Errorf("a temporary session's scratch folder gave instructions: %+v", got)
	}
}

func TestPathInstructionsReachTheNextRequestOverTheWire(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "Let me look.", ToolCalls: []providertest.Call{
			{Name: "Read", Input: map[string]any{"path": "pkg/sub/x.go"}},
			{Name: "Grep", Input: map[string]any{"pattern": "package", "path": "pkg"}},
		}, Stop: "tool_use"},
		providertest.Turn{ToolCalls: []providertest.Call{
			{Name: "Read", Input: map[string]any{"path": "pkg/sub/deeper/main.go"}},
		}, Stop: "tool_use"},
		providertest.Turn{Text: "Read them.", Stop: "end_turn"},
	)
	core, _, s, project := e2e(t, srv)
	instructionTree(t, &env{t: t, project: project})
	if _, err := core.RunTurn(t.Context(), s.ID, "Look at pkg"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	first, second, third := string(reqs[0].Body), string(reqs[1].Body), string(reqs[2].Body)
	if strings.Contains(first, "pkg rules") || strings.Contains(first, "sub claude rules") {
		t.Error("the first request carries path instructions before any call named a path")
	}
	// The Read, first in source order, carries both files of its chain;
	// the Grep under pkg/ carries nothing more.
	for _, want := range []string{`## pkg/AGENTS.md\n\npkg rules\n`, `## pkg/sub/CLAUDE.md\n\nsub claude rules\n`} {
		if strings.Count(second, want) != 1 {
			t.Errorf("the second request has %q %d times, want once", want, strings.Count(second, want))
		}
	}
	if strings.Contains(second, "shadowed") {
		t.Error("pkg/CLAUDE.md was loaded beside pkg/AGENTS.md")
	}
	if strings.Count(third, "loaded once for this prompt") != 1 {
		t.Errorf("the third request has %d instruction blocks, want the one already sent", strings.Count(third, "loaded once for this prompt"))
	}
	tr, err := core.Transcript(t.Context(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var loaded []string
	for _, m := range tr.Messages {
		for _, c := range m.ToolCalls {
			for _, in := range c.Instructions {
				loaded = append(loaded, fmt.Sprintf("%s %s %d", c.Tool, in.Path, in.Size))
			}
		}
	}
	if want := []string{"Read pkg/AGENTS.md 10", "Read pkg/sub/CLAUDE.md 17"}; strings.Join(loaded, ",") != strings.Join(want, ",") {
		t.Errorf("transcript instructions = %q, want %q", loaded, want)
	}
}

func TestPathInstructionsOfAnIsolatedSessionComeFromItsWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git)")
	}
	e := newEnv(t)
	instructionTree(t, e)
	gitInit(t, e.project)
	s, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	// Changed in the main checkout after the worktree was made: the
	// worktree's committed file is the one that counts.
	write(t, filepath.Join(e.project, "pkg", "AGENTS.md"), "main checkout rules\n")
	got := brief(hostcore.PathInstructionsForTest(t.Context(), e.core, s.ID, "Read", map[string]any{"path": "pkg/f.go"}))
	if strings.Join(got, "\n") != "pkg/AGENTS.md: pkg rules" {
		t.Errorf("isolated session's instructions = %q", got)
	}
	// An absolute path into the main checkout is outside the worktree.
	got = brief(hostcore.PathInstructionsForTest(t.Context(), e.core, s.ID, "Read", map[string]any{"path": filepath.Join(e.project, "pkg", "f.go")}))
	if len(got) != 0 {
		t.Errorf("a path in the main checkout gave %q", got)
	}
}
