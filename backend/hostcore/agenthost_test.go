package hostcore_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

func waitProposal(t *testing.T, core *hostcore.Core, sessionID string, version int) agent.Proposal {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		list, err := core.Proposals(t.Context(), sessionID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range list {
			if p.Version == version && p.State == agent.ProposalPending {
				return p
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no pending proposal v%d", version)
	return agent.Proposal{}
}

// Plan submit → approve → Agent executes, through the real host-core: the
// artifact holds the exact bytes under a fresh name, the session switches to
// Agent with the chosen permission mode (so the Write needs no card under
// accept-edits), and every runtime call is audited.
func TestAgentPlanApprovedThenExecuted(t *testing.T) {
	md := "# Plan\r\n\n- write notes.md  \n- ✓ done\t\n"
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "SubmitPlan", Input: map[string]any{"title": "Write notes!", "markdown": md, "question": "OK?"}}}, Stop: "tool_use"},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: map[string]any{"path": "notes.md", "content": "hello\n"}}}, Stop: "tool_use"},
		providertest.Turn{Text: "Done.", Stop: "end_turn"},
	)
	core, sink, s, project := e2e(t, srv)
	if _, err := core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{OperatingMode: api.ModePlan}); err != nil {
		t.Fatal(err)
	}
	// An earlier plan of the same name is never overwritten.
	if err := os.MkdirAll(filepath.Join(project, ".pi", "plan"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(project, ".pi", "plan", "write-notes-1.md"), "old plan\n")

	announced := len(sink.sessionsChanged()) // the setup's own changes
	done := make(chan error, 1)
	go func() { _, err := core.RunTurn(t.Context(), s.ID, "plan the notes"); done <- err }()
	p := waitProposal(t, core, s.ID, 1)
	if p.Path != ".pi/plan/write-notes-2.md" {
		t.Errorf("artifact path = %s", p.Path)
	}
	b, err := os.ReadFile(filepath.Join(project, ".pi", "plan", "write-notes-2.md"))
	sum := sha256.Sum256([]byte(md))
	if err != nil || string(b) != md || p.SHA256 != hex.EncodeToString(sum[:]) || p.Size != int64(len(md)) {
		t.Errorf("artifact = %q, %v; proposal %+v", b, err, p)
	}
	if old, _ := os.ReadFile(filepath.Join(project, ".pi", "plan", "write-notes-1.md")); string(old) != "old plan\n" {
		t.Errorf("the older plan changed: %q", old)
	}
	if _, err := core.ResolveProposal(t.Context(), agent.ProposalDecision{SessionID: s.ID, TurnID: p.TurnID, ProposalID: p.ID,
		Version: p.Version, Approve: true, PermissionMode: api.PermissionAcceptEdits}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the turn did not end")
	}
	if got, _ := core.Session(t.Context(), s.ID); got.OperatingMode != api.ModeAgent || got.PermissionMode != api.PermissionAcceptEdits {
		t.Errorf("session = %s/%s", got.OperatingMode, got.PermissionMode)
	}
	// The window's mode selector and permission chip learn of the switch.
	if changed := sink.sessionsChanged()[announced:]; !slices.Contains(changed, api.SessionsChanged{SessionID: s.ID, ProjectID: s.ProjectID}) {
		t.Errorf("sessions:changed = %v, want the approved session announced", changed)
	}
	if b, err := os.ReadFile(filepath.Join(project, "notes.md")); err != nil || string(b) != "hello\n" {
		t.Errorf("the approved plan was not carried out: %q, %v", b, err)
	}
	reqs := srv.Requests()
	if first := string(reqs[0].Body); !strings.Contains(first, `"name":"SubmitPlan"`) || strings.Contains(first, `"name":"Write"`) {
		t.Error("the plan request has the wrong tools")
	}
	if second := string(reqs[1].Body); !strings.Contains(second, `"name":"Write"`) || !strings.Contains(second, "approved the plan") {
		t.Errorf("the request after approval: %.300s", second)
	}
	rows, _ := core.AuditRows(t.Context(), s.ID)
	var tools []string
	for _, r := range rows {
		tools = append(tools, r.Tool+":"+r.Decision)
		if r.Tool == "SubmitPlan" && (!r.OK || !r.Prompted || r.OperatingMode != api.ModePlan || r.PathRoot != "workspace" || r.ArgsHash == "") {
			t.Errorf("SubmitPlan audit row = %+v", r)
		}
	}
	if strings.Join(tools, ",") != "SubmitPlan:user,Write:allow" {
		t.Errorf("audit = %v", tools)
	}
}

// A .pi that is a link is refused: nothing is written through it.
func TestAgentPlanArtifactRefusesLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "SubmitPlan", Input: map[string]any{"title": "p", "markdown": "# p\n"}}}, Stop: "tool_use"},
		providertest.Turn{Text: "Could not save.", Stop: "end_turn"},
	)
	core, _, s, project := e2e(t, srv)
	if _, err := core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{OperatingMode: api.ModePlan}); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(project, "elsewhere")
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(project, ".pi")); err != nil {
		t.Fatal(err)
	}
	if _, err := core.RunTurn(t.Context(), s.ID, "plan"); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("written through the link: %v", entries)
	}
	if second := string(srv.Requests()[1].Body); !strings.Contains(second, string(errs.PathOutsideWorkspace)) {
		t.Errorf("the model was not told: %.300s", second)
	}
	if list, _ := core.Proposals(t.Context(), s.ID); len(list) != 0 {
		t.Errorf("proposals = %+v", list)
	}
}
