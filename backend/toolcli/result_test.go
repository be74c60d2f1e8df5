package toolcli_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// runSplit runs a turn against srv and returns stdout and stderr apart.
func runSplit(t *testing.T, f fixture, srv *providertest.Server, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := toolcli.RunEnv{Env: toolcli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }}}
	env.Config = func(c hostcore.Config) hostcore.Config {
		c.Provider = func(string) (provider.Provider, error) { return provider.New(srv.Config(), provider.WithMaxRetries(0)) }
		return c
	}
	code = toolcli.RunTurn(t.Context(), args, env)
	return code, out.String(), errOut.String()
}

type resultLine struct {
	Event   string         `json:"event"`
	Payload toolcli.Result `json:"payload"`
}

// lastResult checks the JSON stream has exactly one result event, as its
// last line, and returns it with the line's text.
func lastResult(t *testing.T, stdout string) (toolcli.Result, string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, `{"event":"result"`) {
			n++
		}
	}
	last := lines[len(lines)-1]
	var r resultLine
	if err := json.Unmarshal([]byte(last), &r); err != nil || r.Event != toolcli.EventResult || n != 1 {
		t.Fatalf("want exactly one result event, last; got %d, last line %q (%v)", n, last, err)
	}
	return r.Payload, last
}

// anonymous replaces a result's ids with placeholders, for a golden file.
func anonymous(line string, r toolcli.Result) string {
	if r.TurnID != "" {
		line = strings.ReplaceAll(line, r.TurnID, "<turn>")
	}
	return strings.ReplaceAll(line, r.SessionID, "<session>")
}

// `run --json` ends with one result event: the final text in full, the
// stop reason, the turn's usage with its cache figures, the ids.
func TestRunJSONEndsWithTheResult(t *testing.T) {
	f := newFixture(t)
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "Looking.", ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "notes.txt"}}},
			InputTokens: 30, CacheWriteTokens: 2000, OutputTokens: 12},
		providertest.Turn{Text: "The notes say alpha and beta.", InputTokens: 50, CacheReadTokens: 2000, CacheWriteTokens: 80, OutputTokens: 9},
	)
	code, stdout, stderr := runSplit(t, f, srv, "--workspace", f.workspace, "--json", "what do the notes say?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, line := lastResult(t, stdout)
	if r.SessionID == "" || r.TurnID == "" {
		t.Fatalf("result without ids: %s", line)
	}
	golden.Assert(t, filepath.Join("testdata", "run_result.golden"), anonymous(line, r)+"\n")
}

// A failed turn's result carries the error's code and message, and the
// exit status is 1.
func TestRunJSONFailedTurnResultCarriesTheCode(t *testing.T) {
	f := newFixture(t)
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Status: 401, ErrorMessage: "bad key"})
	code, stdout, stderr := runSplit(t, f, srv, "--workspace", f.workspace, "--json", "hi")
	if code != 1 || !strings.Contains(stderr, "PROVIDER_UNAUTHORIZED") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	r, line := lastResult(t, stdout)
	if r.State != "failed" || r.Error == nil || r.Error.Code != "PROVIDER_UNAUTHORIZED" || r.Error.Message == "" || r.TurnID == "" {
		t.Errorf("result %s", line)
	}
	golden.Assert(t, filepath.Join("testdata", "run_result_failed.golden"), anonymous(line, r)+"\n")
}

// A turn that never started (an unknown session) still ends the stream
// with a result naming the code.
func TestRunJSONResultWhenTheTurnCannotStart(t *testing.T) {
	f := newFixture(t)
	srv := providertest.NewOpenAIServer(t)
	code, stdout, _ := runSplit(t, f, srv, "--session", "no-such-session", "--json", "hi")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	r, line := lastResult(t, stdout)
	if r.State != "failed" || r.Error == nil || r.Error.Code == "" || r.TurnID != "" || r.SessionID != "no-such-session" {
		t.Errorf("result %s", line)
	}
}

// The human-readable output ends with one summary line: the turn's state,
// stop reason, tokens in with the cache's share, tokens out.
func TestRunSummaryLine(t *testing.T) {
	f := newFixture(t)
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "Hi.", InputTokens: 3000, CacheReadTokens: 2048, OutputTokens: 4})
	code, stdout, stderr := runSplit(t, f, srv, "--workspace", f.workspace, "hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	want := regexp.MustCompile(`^\[turn \S+: done · stop end_turn · 3000 tokens in \(2048 cache read\), 4 out · session (\S+); see it in the app: pi-desktop --session (\S+)\]$`)
	if !want.MatchString(lines[len(lines)-1]) {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
}
