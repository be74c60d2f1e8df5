package hostcore_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// generalMarker is in the builtin general subagent's system prompt.
const generalMarker = "You are an agent doing one self-contained task for another agent."

// newIsolatedDelegationEnv is newDelegationEnv with the project a git
// repository and the session an isolated one in accept-edits (a delegate's
// Write needs no card, its Bash does).
func newIsolatedDelegationEnv(t *testing.T) (*delegationEnv, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git)")
	}
	e := newDelegationEnv(t)
	write(t, filepath.Join(e.project, "a.txt"), "original\n")
	gitInit(t, e.project)
	s, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{PermissionMode: api.PermissionAcceptEdits}); err != nil {
		t.Fatal(err)
	}
	e.session = s
	roots, _ := filepath.Glob(filepath.Join(e.core.Info().DataDir, "worktrees", "*", s.ID))
	if len(roots) != 1 {
		t.Fatalf("the isolated session's worktree: %v", roots)
	}
	return e, roots[0]
}

// card waits for the next approval card.
func (e *delegationEnv) card(t *testing.T) permission.Request {
	t.Helper()
	select {
	case req := <-e.cards.reqs:
		return req
	case <-time.After(20 * time.Second):
		t.Fatal("no card came")
		return permission.Request{}
	}
}

func bashCall(command string) providertest.Turn {
	return providertest.Turn{ToolCalls: []providertest.Call{{Name: "Bash", Input: map[string]any{"command": command}}}, Stop: "tool_use"}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestIsolatedWritingDelegateWorksInItsWorktreeAndMergesBack(t *testing.T) {
	e, root := newIsolatedDelegationEnv(t)
	write(t, filepath.Join(root, "pending.txt"), "the session's pending edit\n")
	general := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: map[string]any{"path": "feature.go", "content": "package main // new\n"}}}, Stop: "tool_use"},
		bashCall("pwd; cat pending.txt; echo wt=$PI_WORKTREE_ROOT"),
		providertest.Turn{Text: "Wrote feature.go.", Stop: "end_turn"})
	e.router.route(generalMarker, general)

	d := e.start(t, "general", "add feature.go")
	if d.Branch == "" || !strings.HasPrefix(d.Branch, "pi-desktop-delegate/"+e.session.ID+"/") {
		t.Fatalf("a writing delegate of an isolated session got branch %q", d.Branch)
	}
	// While it waits on its Bash card, its Write is in its own worktree only.
	req := e.card(t)
	if req.Delegate != "general" || req.Tool != "Bash" {
		t.Fatalf("card = %+v", req)
	}
	wtBase := filepath.Join(e.core.Info().DataDir, "worktrees")
	matches, _ := filepath.Glob(filepath.Join(wtBase, "*", ".delegates", e.session.ID, d.ID, "feature.go"))
	if len(matches) != 1 {
		t.Fatalf("the delegate's Write is not in its worktree: %v", matches)
	}
	delegateRoot := filepath.Dir(matches[0])
	if _, err := os.Stat(filepath.Join(root, "feature.go")); !os.IsNotExist(err) {
		t.Error("a running isolated delegate wrote into the session's worktree")
	}
	if _, err := os.Stat(filepath.Join(e.project, "feature.go")); !os.IsNotExist(err) {
		t.Error("a delegate wrote into the main checkout")
	}
	if err := e.core.ResolveApproval(req.SessionID, req.ID, permission.AllowOnce); err != nil {
		t.Fatal(err)
	}

	w, err := e.core.WaitDelegations(t.Context(), e.session.ID, []string{d.ID}, true, 30*time.Second)
	if err != nil || len(w.Finished) != 1 {
		t.Fatalf("wait = %+v, %v", w, err)
	}
	got := w.Finished[0]
	if got.State != agent.DelegationDone || got.MergeState != agent.MergeMerged || got.Branch != d.Branch {
		t.Errorf("delegation = %+v", got)
	}
	if text := w.ModelText(); !strings.Contains(text, "Wrote feature.go.") ||
		!strings.Contains(text, "merged this delegate's changes into the session's workspace: feature.go.") {
		t.Errorf("TaskWait result = %s", text)
	}
	// Its Bash ran in its worktree, which held the session's pending edit.
	reqs := general.Requests()
	bashResult := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(bashResult, delegateRoot) || !strings.Contains(bashResult, "the session's pending edit") ||
		!strings.Contains(bashResult, "wt="+delegateRoot) {
		t.Errorf("the delegate's Bash result = %.1500s", bashResult)
	}
	if !strings.Contains(string(reqs[0].Body), "Workspace root: "+delegateRoot) {
		t.Error("the delegate's system prompt does not name its own root")
	}
	if b, err := os.ReadFile(filepath.Join(root, "feature.go")); err != nil || string(b) != "package main // new\n" {
		t.Errorf("session feature.go after the merge = %q, %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "pending.txt")); string(b) != "the session's pending edit\n" {
		t.Errorf("session pending.txt = %q", b)
	}
	if _, err := os.Stat(delegateRoot); !os.IsNotExist(err) {
		t.Error("a merged delegate's worktree was kept")
	}
	if out := gitOut(t, e.project, "branch", "--list", d.Branch); out != "" {
		t.Errorf("a merged delegate's branch was kept: %s", out)
	}
	// The record survives the live one.
	list, err := e.core.Delegations(t.Context(), e.session.ID)
	if err != nil || len(list) != 1 || list[0].MergeState != agent.MergeMerged || list[0].Branch != d.Branch {
		t.Errorf("stored delegations = %+v, %v", list, err)
	}
}

func TestIsolatedDelegateConflictKeepsItsBranch(t *testing.T) {
	e, root := newIsolatedDelegationEnv(t)
	general := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: map[string]any{"path": "shared.txt", "content": "the delegate's\n"}}}, Stop: "tool_use"},
		bashCall("true"),
		providertest.Turn{Text: "Wrote shared.txt.", Stop: "end_turn"})
	e.router.route(generalMarker, general)

	d := e.start(t, "general", "write shared.txt")
	req := e.card(t)
	// Meanwhile the session changes the same file its own way.
	res := e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "t", ToolCallID: "session-write", Tool: "Write",
		Args: json.RawMessage(`{"path":"shared.txt","content":"the session's\n"}`)})
	if !res.OK {
		t.Fatalf("the session's Write = %+v", res)
	}
	if err := e.core.ResolveApproval(req.SessionID, req.ID, permission.AllowOnce); err != nil {
		t.Fatal(err)
	}
	w, err := e.core.WaitDelegations(t.Context(), e.session.ID, []string{d.ID}, true, 30*time.Second)
	if err != nil || len(w.Finished) != 1 {
		t.Fatalf("wait = %+v, %v", w, err)
	}
	got := w.Finished[0]
	if got.State != agent.DelegationDone || got.MergeState != agent.MergeConflict || got.Branch != d.Branch {
		t.Errorf("delegation = %+v", got)
	}
	text := w.ModelText()
	checkpoint := gitOut(t, e.project, "rev-parse", d.Branch+"~1")
	for _, want := range []string{"Wrote shared.txt.", "conflict with the session's own edits in shared.txt", "kept on branch " + d.Branch, "`git diff " + checkpoint + " " + d.Branch + " | git apply`"} {
		if !strings.Contains(text, want) {
			t.Errorf("TaskWait result lacks %q: %s", want, text)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "shared.txt")); string(b) != "the session's\n" {
		t.Errorf("session shared.txt = %q; a conflict must leave it alone", b)
	}
	if out := gitOut(t, e.project, "show", d.Branch+":shared.txt"); out != "the delegate's" {
		t.Errorf("the kept branch's shared.txt = %q", out)
	}
	if out := gitOut(t, e.project, "log", "-1", "--format=%an|%s", d.Branch); out != "PI-Desktop|PI-Desktop delegate general: general" {
		t.Errorf("the delegate's commit = %s", out)
	}
}

func TestReadOnlyDelegateOfAnIsolatedSessionSharesItsRoot(t *testing.T) {
	e, root := newIsolatedDelegationEnv(t)
	explore := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "a.txt"}}}, Stop: "tool_use"},
		providertest.Turn{Text: "a.txt says original.", Stop: "end_turn"})
	e.router.route("You are a read-only investigator working for another agent.", explore)
	d := e.start(t, "explore", "read a.txt")
	if d.Branch != "" {
		t.Errorf("a read-only delegate got branch %q", d.Branch)
	}
	got := e.wait(t, d.ID)[0]
	if got.State != agent.DelegationDone || got.Branch != "" || got.MergeState != "" || got.Report != "a.txt says original." {
		t.Errorf("delegation = %+v", got)
	}
	if !strings.Contains(string(explore.Requests()[0].Body), "Workspace root: "+root) {
		t.Error("a read-only delegate's prompt does not name the session's root")
	}
	if matches, _ := filepath.Glob(filepath.Join(e.core.Info().DataDir, "worktrees", "*", ".delegates")); len(matches) != 0 {
		t.Errorf("a read-only delegate made a worktree: %v", matches)
	}
}

// delegateDir is the folder of a running delegate's worktree.
func delegateDir(t *testing.T, e *delegationEnv, id string) string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(e.core.Info().DataDir, "worktrees", "*", ".delegates", e.session.ID, id))
	if len(dirs) != 1 {
		t.Fatalf("delegate worktree of %s: %v", id, dirs)
	}
	return dirs[0]
}

func TestStoppedIsolatedDelegateKeepsItsBranch(t *testing.T) {
	e, root := newIsolatedDelegationEnv(t)
	general := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: map[string]any{"path": "half.txt", "content": "half done\n"}}}, Stop: "tool_use"},
		bashCall("true"))
	e.router.route(generalMarker, general)
	d := e.start(t, "general", "do it all")
	e.card(t) // its Write landed; it waits on the Bash card
	dir := delegateDir(t, e, d.ID)
	if !e.core.StopDelegation(e.session.ID, d.ID) {
		t.Fatal("StopDelegation found nothing running")
	}
	w, err := e.core.WaitDelegations(t.Context(), e.session.ID, []string{d.ID}, true, 30*time.Second)
	if err != nil || len(w.Finished) != 1 {
		t.Fatalf("wait = %+v, %v", w, err)
	}
	got := w.Finished[0]
	if got.State != agent.DelegationStopped || got.MergeState != agent.MergeKept {
		t.Errorf("delegation = %+v", got)
	}
	if text := w.ModelText(); !strings.Contains(text, "kept this delegate's changes on branch "+d.Branch+": the delegate stopped before it finished") {
		t.Errorf("TaskWait result = %s", text)
	}
	if _, err := os.Stat(filepath.Join(root, "half.txt")); !os.IsNotExist(err) {
		t.Error("a stopped delegate's work was merged")
	}
	if out := gitOut(t, e.project, "show", d.Branch+":half.txt"); out != "half done" {
		t.Errorf("the kept branch's half.txt = %q", out)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Error("the stopped delegate's worktree folder is kept; its work is on its branch")
	}
}

func TestIsolatedDelegateWithoutItsWorktreeFailsClosed(t *testing.T) {
	e, root := newIsolatedDelegationEnv(t)
	general := providertest.NewAnthropicServer(t,
		bashCall("echo x > ran-here.txt"),
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: map[string]any{"path": "escaped.txt", "content": "x\n"}}}, Stop: "tool_use"},
		providertest.Turn{Text: "The Write failed.", Stop: "end_turn"})
	e.router.route(generalMarker, general)
	d := e.start(t, "general", "write escaped.txt")
	req := e.card(t)
	// Its worktree is replaced by a link to the session's own.
	dir := delegateDir(t, e, d.ID)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, dir); err != nil {
		t.Fatal(err)
	}
	if err := e.core.ResolveApproval(req.SessionID, req.ID, permission.AllowOnce); err != nil {
		t.Fatal(err)
	}
	got := e.wait(t, d.ID)[0]
	if got.State != agent.DelegationDone || got.MergeState != agent.MergeKept || !strings.Contains(got.Report, "could not commit this delegate's changes (WORKTREE_MISSING") {
		t.Errorf("delegation = %+v", got)
	}
	// The Bash approved while its worktree was swapped, and the Write after,
	// both fail: neither runs in the session's root.
	reqs := general.Requests()
	if len(reqs) != 3 || strings.Count(string(reqs[2].Body), "WORKTREE_MISSING") < 2 {
		t.Errorf("%d requests; the last = %.3000s", len(reqs), reqs[len(reqs)-1].Body)
	}
	for _, name := range []string{"escaped.txt", "ran-here.txt"} {
		if _, err := os.Stat(filepath.Join(root, name)); !os.IsNotExist(err) {
			t.Errorf("a delegate without its worktree made %s in the session's", name)
		}
	}
	if fi, err := os.Lstat(dir); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the planted link = %v, %v", fi, err)
	}
}
