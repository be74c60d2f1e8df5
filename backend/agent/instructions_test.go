package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// file is an instruction file as host-core reads it: whole when small.
func file(path, text string) InstructionFile {
	return InstructionFile{Path: path, Size: int64(len(text)), Text: text}
}

// chains answers PathInstructions by the folders of a call's path, as
// host-core would for a tree with these files.
func chains(files map[string]InstructionFile) func(ToolCall, string) []InstructionFile {
	return func(_ ToolCall, path string) []InstructionFile {
		var out []InstructionFile
		parts := strings.Split(path, "/")
		for i := 1; i < len(parts); i++ {
			if f, ok := files[strings.Join(parts[:i], "/")]; ok {
				out = append(out, f)
			}
		}
		return out
	}
}

// resultTexts are the tool_result texts of a request's last message.
func resultTexts(t *testing.T, req provider.Request) []string {
	t.Helper()
	var out []string
	for _, b := range lastResults(t, req) {
		out = append(out, b.Text)
	}
	return out
}

func readCall(id, path string) use {
	return use{id, ToolRead, `{"path":"` + path + `"}`}
}

func TestPathInstructionsLoadOncePerPrompt(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, readCall("tu_1", "pkg/a.go")),
		callTools(provider.StopToolUse, readCall("tu_2", "pkg/b.go")),
		callTools(provider.StopToolUse, readCall("tu_3", "pkg/sub/c.go")),
		say("done"),
		callTools(provider.StopToolUse, readCall("tu_4", "pkg/a.go")),
		say("done again"),
	)
	f.host.pathInstr = chains(map[string]InstructionFile{
		"pkg":     file("pkg/AGENTS.md", "Use table tests in pkg.\n"),
		"pkg/sub": file("pkg/sub/CLAUDE.md", "sub: no globals."),
	})
	if _, err := f.run("Look at pkg"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.run("Look again"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests", len(reqs))
	}
	// The request after the first Read carries pkg/AGENTS.md in its result.
	first := resultTexts(t, reqs[1])
	if len(first) != 1 {
		t.Fatalf("results = %q", first)
	}
	golden.Assert(t, "testdata/path_instructions/first_read.golden", first[0])
	// A second call under the same folder does not repeat it.
	if got := resultTexts(t, reqs[2]); len(got) != 1 || strings.Contains(got[0], "<path-instructions>") {
		t.Errorf("second read under pkg repeated its instructions: %q", got)
	}
	// A deeper folder adds only its own file.
	third := resultTexts(t, reqs[3])
	if len(third) != 1 || !strings.Contains(third[0], "## pkg/sub/CLAUDE.md\n\nsub: no globals.\n") || strings.Contains(third[0], "## pkg/AGENTS.md") {
		t.Errorf("deeper read = %q", third)
	}
	// A new prompt loads again.
	if got := resultTexts(t, reqs[5]); len(got) != 1 || !strings.Contains(got[0], "## pkg/AGENTS.md\n\nUse table tests in pkg.\n") {
		t.Errorf("the next prompt's read = %q", got)
	}
	// Nothing before the new results changes: the system prompt and the
	// earlier messages are the cached prefix.
	for i := 1; i < len(reqs); i++ {
		prev, cur := reqs[i-1], reqs[i]
		if cur.System != prev.System || !jsonEqual(cur.Messages[:len(prev.Messages)-1], prev.Messages[:len(prev.Messages)-1]) {
			t.Errorf("request %d changed the prefix of request %d", i, i-1)
		}
	}
	// The transcript keeps what was loaded, with the call, across a reload.
	var loaded [][]string
	for _, m := range f.load().Messages {
		for _, c := range m.ToolCalls {
			var paths []string
			for _, in := range c.Instructions {
				paths = append(paths, in.Path)
				if in.Size != int64(in.Loaded) || in.Truncated || in.Skipped != "" || in.Text != "" {
					t.Errorf("stored file = %+v", in)
				}
			}
			loaded = append(loaded, paths)
			if (len(paths) > 0) != strings.Contains(c.ModelText, "<path-instructions>") {
				t.Errorf("stored model text of %s disagrees with its files %v", c.ToolUseID, paths)
			}
		}
	}
	want := [][]string{{"pkg/AGENTS.md"}, nil, {"pkg/sub/CLAUDE.md"}, {"pkg/AGENTS.md"}}
	if !jsonEqual(loaded, want) {
		t.Errorf("stored instructions = %v, want %v", loaded, want)
	}
	var evs []string
	for _, p := range f.rec.named(EventToolResult) {
		for _, in := range p.(ToolResultEvent).Instructions {
			evs = append(evs, in.Path)
		}
	}
	if !slices.Equal(evs, []string{"pkg/AGENTS.md", "pkg/sub/CLAUDE.md", "pkg/AGENTS.md"}) {
		t.Errorf("tool_result events named %v", evs)
	}
}

func TestPathInstructionsFollowPreparationOrder(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse,
			use{"tu_1", ToolRead, `{"path":"a/x.go","delay_ms":150}`},
			use{"tu_2", ToolGrep, `{"pattern":"x","path":"b/y.go"}`},
			use{"tu_3", ToolRead, `{"path":"a/z.go"}`},
			use{"tu_4", ToolGlob, `{"pattern":"*","path":"a/deep/w.go"}`},
		),
		say("done"),
	)
	f.host.pathInstr = chains(map[string]InstructionFile{
		"a":      file("a/AGENTS.md", "a rules\n"),
		"a/deep": file("a/deep/AGENTS.md", "deep rules\n"),
		"b":      file("b/AGENTS.md", "b rules\n"),
	})
	// Every call is prepared before the first one starts.
	var preparedAtStart int
	f.host.onStart = func(ToolCall) {
		f.host.mu.Lock()
		defer f.host.mu.Unlock()
		if preparedAtStart == 0 {
			preparedAtStart = len(f.host.preflights)
		}
	}
	if _, err := f.run("Look"); err != nil {
		t.Fatal(err)
	}
	if preparedAtStart != 4 {
		t.Errorf("%d calls were prepared when the first started, want 4", preparedAtStart)
	}
	var order []string
	for _, c := range f.host.preflights {
		order = append(order, c.Tool)
	}
	if !slices.Equal(order, []string{ToolRead, ToolGrep, ToolRead, ToolGlob}) {
		t.Errorf("prepared in order %v", order)
	}
	// tu_1 finishes last, yet carries a/AGENTS.md: the first call prepared
	// under a/ does, whatever the completion order.
	got := resultTexts(t, f.prov.requests()[1])
	want := [][]string{{"## a/AGENTS.md"}, {"## b/AGENTS.md"}, nil, {"## a/deep/AGENTS.md"}}
	for i, text := range got {
		heads := []string(nil)
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "## ") {
				heads = append(heads, line)
			}
		}
		if !slices.Equal(heads, want[i]) {
			t.Errorf("result %d carries %v, want %v", i+1, heads, want[i])
		}
	}
	var finished []string
	for _, p := range f.rec.named(EventToolResult) {
		finished = append(finished, p.(ToolResultEvent).ToolUseID)
	}
	if len(finished) != 4 || finished[3] != "tu_1" {
		t.Errorf("completion order %v: tu_1 was meant to finish last", finished)
	}
}

func TestPathInstructionsBounds(t *testing.T) {
	big := strings.Repeat("é", InstructionFileMax) // 2 bytes a rune: a cut must not split one
	full := strings.Repeat("f", InstructionFileMax)
	f := newFixture(t,
		callTools(provider.StopToolUse, readCall("tu_1", "big/x.go")),
		callTools(provider.StopToolUse, readCall("tu_2", "f1/f2/f3/f4/x.go")),
		say("done"),
	)
	f.host.pathInstr = chains(map[string]InstructionFile{
		// host-core reads at most InstructionFileMax+1 bytes of a file.
		"big":         {Path: "big/AGENTS.md", Size: int64(len(big)), Text: big[:InstructionFileMax+1]},
		"f1":          file("f1/AGENTS.md", full),
		"f1/f2":       file("f1/f2/AGENTS.md", full[:InstructionFileMax-1000]),
		"f1/f2/f3":    file("f1/f2/f3/CLAUDE.md", full),
		"f1/f2/f3/f4": file("f1/f2/f3/f4/AGENTS.md", "never reached\n"),
	})
	if _, err := f.run("Look"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	cut := resultTexts(t, reqs[1])[0]
	if !strings.Contains(cut, "[truncated: kept the first 16384 of 32768 bytes of big/AGENTS.md; limit 16 KB per file, 48 KB per prompt.") {
		t.Errorf("no per-file marker in %.300q", cut[len(cut)-400:])
	}
	if n := strings.Count(cut, "é"); n != InstructionFileMax/2 {
		t.Errorf("%d runes kept of the big file, want %d", n, InstructionFileMax/2)
	}
	// 16 KB were used; 32 KB are left for the second call's chain.
	second := resultTexts(t, reqs[2])[0]
	// The long bodies are shown by their length.
	second = regexp.MustCompile(`f{64,}`).ReplaceAllStringFunc(second, func(m string) string { return fmt.Sprintf("<%d bytes of f>", len(m)) })
	golden.Assert(t, "testdata/path_instructions/prompt_budget.golden", second)
	var used int
	for _, m := range f.load().Messages {
		for _, c := range m.ToolCalls {
			for _, in := range c.Instructions {
				used += in.Loaded
			}
		}
	}
	if used != InstructionPromptMax {
		t.Errorf("%d bytes loaded in the prompt, want %d", used, InstructionPromptMax)
	}
}

func TestPathInstructionsSkippedFileIsReportedOnce(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, readCall("tu_1", "l/x.go"), readCall("tu_2", "l/y.go")),
		say("done"),
	)
	f.host.pathInstr = chains(map[string]InstructionFile{
		"l": {Path: "l/AGENTS.md", Size: 0, Skipped: "it is a link that leads out of the workspace or nowhere"},
	})
	if _, err := f.run("Look"); err != nil {
		t.Fatal(err)
	}
	got := resultTexts(t, f.prov.requests()[1])
	if len(got) != 2 || !strings.Contains(got[0], "[not loaded: l/AGENTS.md (0 B); it is a link that leads out of the workspace or nowhere.") ||
		strings.Contains(got[1], "l/AGENTS.md") {
		t.Errorf("results = %q", got)
	}
}

func TestPathInstructionsNotForCallsRefusedBeforeTheyRun(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", ToolWrite, `{"path":"pkg/a.go","content":"x"}`}, use{"tu_2", ToolRead, `[1]`}),
		say("done"),
	)
	f.host.setMode("plan") // Write is not offered in Plan
	f.host.pathInstr = chains(map[string]InstructionFile{"pkg": file("pkg/AGENTS.md", "pkg rules\n")})
	if _, err := f.run("Look"); err != nil {
		t.Fatal(err)
	}
	if len(f.host.preflights) != 0 {
		t.Errorf("calls refused before running were prepared: %+v", f.host.preflights)
	}
}

func TestDelegatePathInstructionsStayInTheDelegate(t *testing.T) {
	var f *delegateFixture
	def := readOnly("explore")
	var report string
	f = newDelegateFixture(t,
		callTools(provider.StopToolUse, readCall("tu_1", "pkg/a.go")),
		func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
			// Mid-turn, a delegate reads under pkg/ and other/.
			d := f.start(def, "Look at pkg and other")
			report = f.waitAll(d.ID).Finished[0].Report
			return callTools(provider.StopToolUse, readCall("tu_2", "pkg/b.go"), readCall("tu_3", "other/c.go"))(ctx, req, emit)
		},
		say("done"),
	)
	dp := f.script(def,
		callTools(provider.StopToolUse, readCall("du_1", "pkg/d.go"), readCall("du_2", "other/e.go")),
		say("delegate done"),
	)
	f.host.pathInstr = chains(map[string]InstructionFile{
		"pkg":   file("pkg/AGENTS.md", "pkg rules\n"),
		"other": file("other/AGENTS.md", "other rules\n"),
	})
	if _, err := f.run("Look"); err != nil {
		t.Fatal(err)
	}
	if report != "delegate done" {
		t.Fatalf("report = %q", report)
	}
	// The delegate loads both into its own context, though the parent had
	// loaded pkg/ already: its preflight is its own.
	dres := resultTexts(t, dp.requests()[1])
	if len(dres) != 2 || !strings.Contains(dres[0], "## pkg/AGENTS.md") || !strings.Contains(dres[1], "## other/AGENTS.md") {
		t.Errorf("delegate results = %q", dres)
	}
	// The parent's set is unchanged by the delegate: pkg/ is not repeated,
	// other/ is loaded now, for the first time in the parent's context.
	reqs := f.prov.requests()
	pres := resultTexts(t, reqs[2])
	if len(pres) != 2 || strings.Contains(pres[0], "<path-instructions>") || !strings.Contains(pres[1], "## other/AGENTS.md") {
		t.Errorf("parent results = %q", pres)
	}
	body, _ := json.Marshal(reqs[1])
	if strings.Contains(string(body), "other rules") {
		t.Error("the delegate's instructions reached the parent's context")
	}
}

// instructionFileJSON pins the stored and sent shape of a file: no text.
func TestInstructionFileJSON(t *testing.T) {
	b, err := json.Marshal(InstructionFile{Path: "pkg/AGENTS.md", Size: 2150, Loaded: 2150, Text: "secret-ish body"})
	if err != nil || string(b) != `{"path":"pkg/AGENTS.md","size":2150,"loaded":2150}` {
		t.Errorf("json = %s, %v", b, err)
	}
}
