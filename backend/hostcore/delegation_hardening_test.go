package hostcore_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

// A delegate's permission override widens only what it may do inside the
// session's folders: a Write outside them meets the external-path gate as
// the session's own call would (§10.2).
func TestDelegateOverrideKeepsTheExternalPathGate(t *testing.T) {
	e := newDelegationEnv(t)
	outside := filepath.Join(filepath.Dir(e.project), "outside.md")
	e.define(t, false, "bold", "tools: [Write]\npermission: auto\n",
		writeCall(outside), writeCall("inside.md"), providertest.Turn{Text: "one refused, one written", Stop: "end_turn"})
	d := e.start(t, "bold", "write both")
	select {
	case req := <-e.cards.reqs:
		if !req.External || req.Delegate != "bold" || req.Path != outside {
			t.Errorf("card = %+v", req)
		}
		if err := e.core.ResolveApproval(req.SessionID, req.ID, permission.Denied); err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("an auto delegate's Write outside the workspace got no card")
	}
	if got := e.wait(t, d.ID)[0]; got.State != agent.DelegationDone {
		t.Errorf("delegate = %+v", got)
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Error("the delegate wrote outside the workspace")
	}
	// Inside, its auto mode still applies: no card.
	if _, err := os.Stat(filepath.Join(e.project, "inside.md")); err != nil {
		t.Errorf("inside.md: %v", err)
	}
	e.noCard(t)
	rows, _ := e.core.AuditRows(t.Context(), e.session.ID)
	var external int
	for _, r := range rows {
		if r.Delegate == "bold" && r.ExternalPath {
			external++
			if r.Decision != "denied" || r.PermissionMode != "auto" {
				t.Errorf("external row = %+v", r)
			}
		}
	}
	if external != 1 {
		t.Errorf("audit rows = %+v", rows)
	}
}

// Close cancels the delegates and returns only once each stored how it
// ended.
func TestCloseWaitsForDelegatesToRecord(t *testing.T) {
	e := newDelegationEnv(t)
	e.define(t, false, "slow", "tools: [Read]\n", providertest.Turn{Text: "started on it", Hang: true})
	d := e.start(t, "slow", "take your time")
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, err := e.core.Delegations(t.Context(), e.session.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == 1 && list[0].State == agent.DelegationRunning && e.delegateAsked(t, "slow") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the delegate never asked its model")
		}
		time.Sleep(10 * time.Millisecond)
	}
	data := e.core.Info().DataDir
	if err := e.core.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), paths.Layout{Root: data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var state, code string
	if err := st.DB().QueryRow(`SELECT state, error_code FROM delegations WHERE id = ?`, d.ID).Scan(&state, &code); err != nil {
		t.Fatal(err)
	}
	if state != agent.DelegationStopped || code != string(errs.TurnAborted) {
		t.Errorf("stored after Close: %s %s", state, code)
	}
}

// delegateAsked reports whether the delegate named name has sent a request.
func (e *delegationEnv) delegateAsked(t *testing.T, name string) bool {
	e.router.mu.Lock()
	defer e.router.mu.Unlock()
	srv := e.router.routes["DELEGATE-"+strings.ToUpper(name)]
	return srv != nil && srv.Count() > 0
}

// A delegate's call outside its tools reaches the host, which refuses and
// audits it with the delegate's name; the host drops a delegate's edit
// state once it ended.
func TestDelegateRefusalIsAuditedAndItsStateDropped(t *testing.T) {
	e := newDelegationEnv(t)
	e.define(t, false, "reader", "tools: [Read]\n",
		writeCall("notes.md"), providertest.Turn{Text: "I cannot write.", Stop: "end_turn"})
	e.define(t, false, "editor", "tools: [Write, Read]\npermission: accept-edits\n",
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "main.go"}}}, Stop: "tool_use"},
		writeCall("w.md"), providertest.Turn{Text: "written", Stop: "end_turn"})
	r, w := e.start(t, "reader", "write notes.md"), e.start(t, "editor", "write w.md")
	e.wait(t, r.ID, w.ID)
	rows, err := e.core.AuditRows(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	var refused []string
	for _, row := range rows {
		if row.Tool == "Write" && row.Delegate == "reader" {
			refused = append(refused, row.Decision+":"+row.ErrorCode+":"+row.TurnID)
		}
	}
	if want := "deny:" + string(errs.ToolNotFound) + ":" + r.TurnID; len(refused) != 1 || refused[0] != want {
		t.Errorf("reader's Write rows = %v, want [%s]", refused, want)
	}
	if n := hostcore.DelegationEditStatesForTest(e.core, e.session.ID); n != 0 {
		t.Errorf("%d delegate edit states kept after the delegates ended", n)
	}
	if _, err := os.Stat(filepath.Join(e.project, "w.md")); err != nil {
		t.Errorf("w.md: %v", err)
	}
}

// The delegate runtime's catalog is parsed again only when a definition
// file changed: added, edited, removed.
func TestSubagentCatalogIsCachedUntilAFileChanges(t *testing.T) {
	e := newDelegationEnv(t)
	ctx := t.Context()
	list := func() ([]string, int) { return hostcore.SubagentsForTest(ctx, e.core, e.session.ID) }
	first, loads := list()
	if len(first) != 2 || !strings.HasPrefix(first[0], "explore: ") || !strings.HasPrefix(first[1], "general: ") {
		t.Fatalf("first = %v", first)
	}
	if _, again := list(); again != loads {
		t.Errorf("an unchanged catalog was parsed again (%d → %d)", loads, again)
	}
	dir := filepath.Join(e.project, ".agents", "subagents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "scout.md")
	write(t, file, "---\nname: scout\ndescription: first words\n---\n\nLook.\n")
	if got, _ := list(); !slices.Contains(got, "scout: first words") {
		t.Errorf("added: %v", got)
	}
	// Same size, a later time: still seen.
	write(t, file, "---\nname: scout\ndescription: other words\n---\n\nLook.\n")
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	got, loads := list()
	if !slices.Contains(got, "scout: other words") {
		t.Errorf("edited: %v", got)
	}
	if _, again := list(); again != loads {
		t.Errorf("parsed again without a change (%d → %d)", loads, again)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if got, _ := list(); len(got) != 2 {
		t.Errorf("removed: %v", got)
	}
}
