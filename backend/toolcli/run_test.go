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
	"github.com/pi-desktop/pi-desktop/backend/providers"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

func runTurn(t *testing.T, f fixture, srv *providertest.Server, interactive bool, stdin string, args ...string) (int, string) {
	t.Helper()
	return runTurnWith(t, f, srv, toolcli.RunEnv{Interactive: interactive}, stdin, args...)
}

// runTurnWith runs a turn against srv with env's terminal flags (Interactive,
// Color); the streams, data dir and provider are the test's.
func runTurnWith(t *testing.T, f fixture, srv *providertest.Server, env toolcli.RunEnv, stdin string, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env.Env = toolcli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }}
	env.Config = func(c hostcore.Config) hostcore.Config {
		c.Provider = func(string) (provider.Provider, error) { return provider.New(srv.Config()) }
		return c
	}
	code := toolcli.RunTurn(t.Context(), args, env)
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
	// The stream is the turn's: binding the session (projects:changed,
	// sessions:changed) is not part of it.
	if first, _, _ := strings.Cut(out, "\n"); !strings.Contains(first, `"event":"agent:turn"`) {
		t.Errorf("the JSON stream starts with %s, want the turn's start", first)
	}
	if code, _ := runTurn(t, f, srv, false, "", "--workspace", f.workspace); code != 2 {
		t.Errorf("missing prompt exit = %d", code)
	}
}

func TestRunUsesTheSavedProviderAndItsKeychainKey(t *testing.T) {
	t.Setenv(provider.EnvProvider, "")
	f := newFixture(t)
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "Saved provider here.", Stop: "stop"})
	kc := providertest.NewKeychain()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: f.data, Keychain: kc})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.SaveProvider(t.Context(), providers.Profile{Name: "Fake", API: "openai", BaseURL: srv.URL + "/v1", Model: "saved-model"}, "sk-from-keychain"); err != nil {
		t.Fatal(err)
	}
	core.Close()
	var out, errOut bytes.Buffer
	code := toolcli.RunTurn(t.Context(), []string{"--workspace", f.workspace, "hi"}, toolcli.RunEnv{
		Env: toolcli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
			ResolveDataDir: func(string) (string, error) { return f.data, nil }},
		Keychain: kc,
	})
	if code != 0 || !strings.Contains(out.String(), "Saved provider here.") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errOut.String())
	}
	req := srv.Requests()[0]
	if req.Header.Get("Authorization") != "Bearer sk-from-keychain" || req.JSON()["model"] != "saved-model" {
		t.Errorf("request: %v %s", req.Header, req.Body)
	}
	if strings.Contains(out.String()+errOut.String(), "sk-from-keychain") {
		t.Error("the key was printed")
	}
}

func TestRunUsesTheEnvironmentWhenNothingIsSaved(t *testing.T) {
	f := newFixture(t)
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "Environment model here.", Stop: "end_turn"})
	t.Setenv(provider.EnvProvider, "anthropic")
	t.Setenv(provider.EnvModel, "env-model")
	t.Setenv(provider.EnvBaseURL, srv.URL)
	t.Setenv(provider.EnvAnthropicKey, "sk-env-key")
	var out, errOut bytes.Buffer
	code := toolcli.RunTurn(t.Context(), []string{"--workspace", f.workspace, "hi"}, toolcli.RunEnv{
		Env: toolcli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
			ResolveDataDir: func(string) (string, error) { return f.data, nil }},
	})
	if code != 0 || !strings.Contains(out.String(), "Environment model here.") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errOut.String())
	}
	h := srv.Requests()[0].Header
	if h.Get("X-Api-Key") != "sk-env-key" && h.Get("Authorization") != "Bearer sk-env-key" {
		t.Errorf("the environment's key was not sent: %v", h)
	}
}
