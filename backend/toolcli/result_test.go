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
	return runPriced(t, f, srv, nil, args...)
}

// runPriced is runSplit with the model priced at price (nil: unknown, as
// for the fake server on this machine).
func runPriced(t *testing.T, f fixture, srv *providertest.Server, price *provider.Price, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cfg := srv.Config()
	cfg.Price = price
	var out, errOut bytes.Buffer
	env := toolcli.RunEnv{Env: toolcli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }}}
	env.Config = func(c hostcore.Config) hostcore.Config {
		c.Provider = func(string) (provider.Provider, error) { return provider.New(cfg, provider.WithMaxRetries(0)) }
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
// stop reason, the turn's usage with its cache figures, its cost, the ids.
func TestRunJSONEndsWithTheResult(t *testing.T) {
	f := newFixture(t)
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "Looking.", ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "notes.txt"}}},
			InputTokens: 30, CacheWriteTokens: 2000, OutputTokens: 12},
		providertest.Turn{Text: "The notes say alpha and beta.", InputTokens: 50, CacheReadTokens: 2000, CacheWriteTokens: 80, OutputTokens: 9},
	)
	sonnet, _ := provider.BuiltinPrice("", "claude-sonnet-4-5")
	code, stdout, stderr := runPriced(t, f, srv, &sonnet, "--workspace", f.workspace, "--json", "what do the notes say?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, line := lastResult(t, stdout)
	if r.SessionID == "" || r.TurnID == "" {
		t.Fatalf("result without ids: %s", line)
	}
	// Uncached 80×$3 + read 2000×$0.30 + written 2080×$3.75 + out 21×$15
	// per million tokens: 240 + 600 + 7800 + 315 µ$.
	if r.Cost == nil || *r.Cost != 0.008955 {
		t.Errorf("cost %v, want 0.008955", r.Cost)
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
	if r.State != "failed" || r.Error == nil || r.Error.Code != "PROVIDER_UNAUTHORIZED" || r.Error.Message == "" || r.TurnID == "" || r.Cost != nil {
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
// stop reason, tokens in with the cache's share, tokens out, the cost.
func TestRunSummaryLine(t *testing.T) {
	gpt5, _ := provider.BuiltinPrice("", "gpt-5")
	tests := []struct {
		name  string
		price *provider.Price
		want  string
	}{
		// 952×$1.25 + 2048×$0.125 + 4×$10 per million = 1190 + 256 + 40 µ$.
		{"priced", &gpt5, `3000 tokens in \(68% from cache: 2048 read\), 4 out · \$0\.0015 ·`},
		{"unknown", nil, `3000 tokens in \(68% from cache: 2048 read\), 4 out · cost unknown ·`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "Hi.", InputTokens: 3000, CacheReadTokens: 2048, OutputTokens: 4})
			code, stdout, stderr := runPriced(t, f, srv, tc.price, "--workspace", f.workspace, "hi")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
			want := regexp.MustCompile(`^\[turn \S+: done · stop end_turn · ` + tc.want + ` session (\S+); see it in the app: pi-desktop --session (\S+)\]$`)
			if !want.MatchString(lines[len(lines)-1]) {
				t.Errorf("last line %q", lines[len(lines)-1])
			}
		})
	}
}

func TestFormatCost(t *testing.T) {
	v := func(f float64) *float64 { return &f }
	for _, tc := range []struct {
		in   *float64
		want string
	}{{nil, "cost unknown"}, {v(0), "$0.0000"}, {v(0.001486), "$0.0015"}, {v(0.25), "$0.2500"}, {v(12.345), "$12.35"}} {
		if got := toolcli.FormatCost(tc.in); got != tc.want {
			t.Errorf("FormatCost(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
