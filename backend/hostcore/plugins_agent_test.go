package hostcore_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/internal/golden"
	"github.com/pi-desktop/pi-desktop/internal/pluginsample"
)

// A plugin tool over the Anthropic wire: listed in the on-demand catalog,
// loaded by ToolSearch, then called through the pipeline into the plugin's
// process, whose answer reaches the model.
func TestPluginToolThroughTheAgent(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "ToolSearch", Input: map[string]any{"query": "select:" + sampleInspect}}}},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: sampleInspect, Input: map[string]any{"action": "read", "target": "notes"}}}},
		providertest.Turn{Text: "Inspected."},
	)
	e, _ := newMCPEnv(t, nil, srv)
	dir := t.TempDir()
	p := &pluginEnv{env: e, src: filepath.Join(dir, "plugin"), log: filepath.Join(dir, "events.log")}
	pluginsample.Folder(t, p.src, p.log, nil)
	p.install(true)
	e.configure(api.ModeAgent, api.PermissionAuto)
	if res, err := e.core.RunTurn(t.Context(), e.session.ID, "inspect the notes"); err != nil || res.State != "done" {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	catalog := section(systemText(reqs[0]), "On-demand tools")
	if !strings.Contains(catalog, sampleInspect) || !strings.Contains(catalog, sampleDeploy) || !strings.Contains(catalog, "[plugin Acme sample]") {
		t.Errorf("catalog = %s", catalog)
	}
	if tools := requestTools(reqs[0]); slices.Contains(tools, sampleInspect) {
		t.Errorf("the plugin tool was sent before it was loaded: %v", tools)
	}
	if !slices.Contains(requestTools(reqs[1]), sampleInspect) {
		t.Fatalf("ToolSearch did not load the tool: %v", requestTools(reqs[1]))
	}
	golden.Assert(t, filepath.Join("testdata", "plugin_description.golden"), toolDescription(reqs[1], sampleInspect))
	if b := string(reqs[2].Body); !strings.Contains(b, "inspected read notes") {
		t.Errorf("the plugin's answer did not reach the model: %.1500s", b[max(0, len(b)-1500):])
	}
	if got := p.calls(); !slices.Equal(got, []string{"call inspect read"}) {
		t.Errorf("the process saw %q", got)
	}
}
