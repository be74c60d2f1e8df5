package hostcore_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// An MCP tool's image, end to end through the real SDKs: the in-process
// server answers with a PNG, Execute stores it, the agent records the
// reference, and the next request carries it as each wire protocol
// does — for a saved provider whose model accepts images — or as a note
// without a byte of it when the profile says the model cannot see images.
func TestMCPImageReachesTheModel(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString(tinyPNG)
	off := false
	for _, tc := range []struct {
		name, proto, model string
		images             *bool
		want               []string // in the third request's body
	}{
		{"anthropic claude", provider.APIAnthropic, "claude-sonnet-4-5", nil,
			[]string{`"type":"tool_result"`, `{"source":{"data":"` + b64 + `","media_type":"image/png","type":"base64"},"type":"image"}`}},
		{"openai gpt-4o", provider.APIOpenAI, "gpt-4o", nil,
			[]string{`[1 image(s) from this result follow in the next user message]`, `"Images from tool call `, `"url":"data:image/png;base64,` + b64 + `"`}},
		{"anthropic with images off", provider.APIAnthropic, "claude-sonnet-4-5", &off,
			[]string{`[image image/png 1×1 — the current model cannot see images; switch to a model that accepts images to inspect it]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srv *providertest.Server
			turns := []providertest.Turn{
				{ToolCalls: []providertest.Call{{Name: "ToolSearch", Input: map[string]any{"query": "select:mcp_lab_picture"}}}},
				{ToolCalls: []providertest.Call{{Name: "mcp_lab_picture", Input: map[string]any{}}}},
				{Text: "A red pixel."},
			}
			if tc.proto == provider.APIAnthropic {
				srv = providertest.NewAnthropicServer(t, turns...)
			} else {
				srv = providertest.NewOpenAIServer(t, turns...)
			}
			e := newImageEnv(t)
			cfg := srv.Config()
			if _, err := e.core.SaveProvider(t.Context(), providers.Profile{Name: tc.name, API: tc.proto, BaseURL: cfg.BaseURL, Model: tc.model,
				SupportsImages: tc.images, IsDefault: true}, cfg.APIKey); err != nil {
				t.Fatal(err)
			}
			e.configure(api.ModeAgent, api.PermissionAuto)
			res, err := e.core.RunTurn(t.Context(), e.session.ID, "show me the picture")
			if err != nil || res.State != "done" {
				t.Fatalf("turn = %+v, %v", res, err)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			body := string(reqs[2].Body)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("the request lacks %s:\n%.3000s", w, body)
				}
			}
			if tc.images != nil && (strings.Contains(body, b64) || strings.Contains(body, "base64")) {
				t.Error("image bytes went to a model without image support")
			}
			// The bytes live in the attachments store, the database only
			// has the reference.
			db, err := os.ReadFile(filepath.Join(filepath.Dir(e.project), "data", "pi.sqlite"))
			if err != nil {
				t.Fatal(err)
			}
			wal, _ := os.ReadFile(filepath.Join(filepath.Dir(e.project), "data", "pi.sqlite-wal"))
			for _, stored := range [][]byte{db, wal} {
				if strings.Contains(string(stored), b64) || strings.Contains(string(stored), string(tinyPNG[16:40])) {
					t.Error("image bytes reached the database")
				}
			}
			entries, _ := os.ReadDir(filepath.Join(filepath.Dir(e.project), "data", "attachments"))
			if len(entries) != 1 {
				t.Errorf("attachments folder holds %d files, want 1", len(entries))
			}
		})
	}
}

// newImageEnv is newMCPEnv with the lab server and the sessions' saved
// provider (no Config.Provider): the profile's image switch is what a
// user sets in Settings.
func newImageEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	ev := &events{cards: cards{reqs: make(chan permission.Request, 64)}}
	e := &env{t: t, cards: &ev.cards, project: filepath.Join(root, "proj"), outside: filepath.Join(root, "outside")}
	if err := os.MkdirAll(e.project, 0o755); err != nil {
		t.Fatal(err)
	}
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(root, "data"), Sink: ev, RgPath: "-",
		MCP: newConnSource(t, map[string]*mcp.Conn{"lab": newLab(t).conn}), Keychain: providertest.NewKeychain()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	e.core = core
	p, err := core.AddProject(t.Context(), e.project)
	if err != nil {
		t.Fatal(err)
	}
	if e.session, err = core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID}); err != nil {
		t.Fatal(err)
	}
	return e
}
