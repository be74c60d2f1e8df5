package hostcore_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// The tool list each operating mode offers the model, byte for byte as it
// goes over the wire (names, descriptions, schemas, order), and the
// system prompt's on-demand catalog: model-facing text that must not
// change unless a change to it is intended (go test -run TestToolListGolden -update).
func TestToolListGolden(t *testing.T) {
	for _, mode := range []string{api.ModeAgent, api.ModePlan, api.ModeGoal} {
		t.Run(mode, func(t *testing.T) {
			srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "Done.", Stop: "end_turn"})
			core, _, s, _ := e2e(t, srv)
			if _, err := core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{OperatingMode: mode}); err != nil {
				t.Fatal(err)
			}
			if res, err := core.RunTurn(t.Context(), s.ID, "hello"); err != nil || res.State != "done" {
				t.Fatalf("turn = %+v, %v", res, err)
			}
			var body struct {
				System json.RawMessage `json:"system"`
				Tools  json.RawMessage `json:"tools"`
			}
			if err := srv.Requests()[0].Decode(&body); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := json.Indent(&got, body.Tools, "", "  "); err != nil {
				t.Fatal(err)
			}
			got.WriteString("\n\n" + onDemandSection(t, body.System) + "\n")
			golden.Assert(t, filepath.Join("testdata", "tools_"+mode+".golden"), got.Bytes())
		})
	}
}

// onDemandSection is the system prompt's "# On-demand tools" section.
func onDemandSection(t *testing.T, system json.RawMessage) string {
	t.Helper()
	var blocks []struct {
		Text string `json:"text"`
	}
	var text string
	if err := json.Unmarshal(system, &blocks); err == nil {
		for _, b := range blocks {
			text += b.Text
		}
	} else if err := json.Unmarshal(system, &text); err != nil {
		t.Fatalf("system = %s", system)
	}
	i := strings.Index(text, "# On-demand tools")
	if i < 0 {
		t.Fatalf("no on-demand catalog in the system prompt:\n%s", text)
	}
	rest := text[i:]
	if j := strings.Index(rest[1:], "\n# "); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}
