package hostcore_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// cards collects approval requests and lets a test answer them.
type cards struct {
	mu      sync.Mutex
	reqs    chan permission.Request
	changed []api.SessionsChanged
}

func (c *cards) Emit(event string, payload any) {
	switch event {
	case permission.EventRequest:
		c.reqs <- payload.(permission.Request)
	case api.EventSessionsChanged:
		c.mu.Lock()
		c.changed = append(c.changed, payload.(api.SessionsChanged))
		c.mu.Unlock()
	}
}

func (c *cards) sessionsChanged() []api.SessionsChanged {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.changed)
}

type env struct {
	t       *testing.T
	core    *hostcore.Core
	cards   *cards
	project string
	outside string
	session api.Session
	n       int
}

func newEnv(t *testing.T, extra ...tools.Tool) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, cards: &cards{reqs: make(chan permission.Request, 64)},
		project: filepath.Join(root, "proj"), outside: filepath.Join(root, "outside")}
	for _, d := range []string{e.project, e.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(e.project, "main.go"), "package main\n\nfunc main() {}\n")
	write(t, filepath.Join(e.outside, "secret.txt"), "top secret\n")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(root, "data"), Sink: e.cards, RgPath: "-", ExtraTools: extra})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	e.core = core
	p, err := core.AddProject(t.Context(), e.project)
	if err != nil {
		t.Fatal(err)
	}
	e.session, err = core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *env) call(session, tool string, args any) tools.Result {
	e.t.Helper()
	raw, _ := json.Marshal(args)
	e.n++
	return e.core.Execute(e.t.Context(), hostcore.ToolRequest{SessionID: session, TurnID: "turn", ToolCallID: fmt.Sprintf("call-%d", e.n), Tool: tool, Args: raw})
}

// callAnswering runs a call that must show one card and answers it.
func (e *env) callAnswering(session, tool string, args any, answer permission.Outcome) (tools.Result, permission.Request) {
	e.t.Helper()
	done := make(chan tools.Result, 1)
	go func() { done <- e.call(session, tool, args) }()
	var req permission.Request
	select {
	case req = <-e.cards.reqs:
	case res := <-done:
		e.t.Fatalf("%s finished without a card: %+v", tool, res)
	case <-time.After(10 * time.Second):
		e.t.Fatal("no approval card")
	}
	if err := e.core.ResolveApproval(req.SessionID, req.ID, answer); err != nil {
		e.t.Fatal(err)
	}
	return <-done, req
}

func (e *env) configure(mode, perm string) {
	e.t.Helper()
	if _, err := e.core.ConfigureSession(e.t.Context(), e.session.ID, api.SessionConfig{OperatingMode: mode, PermissionMode: perm}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) noCard() {
	e.t.Helper()
	select {
	case req := <-e.cards.reqs:
		e.t.Fatalf("unexpected card: %+v", req)
	default:
	}
}

func TestReadIsAllowedAndTagged(t *testing.T) {
	e := newEnv(t)
	res := e.call(e.session.ID, "Read", map[string]any{"file_path": "main.go"})
	if !res.OK || res.Root != "workspace" || res.Path != "main.go" || res.Decision != "allow" {
		t.Fatalf("Read = %+v", res)
	}
	if !strings.HasPrefix(res.Content, "[main.go#") || !strings.Contains(res.Content, "\n3:func main() {}") {
		t.Errorf("content = %q", res.Content)
	}
	e.noCard()
}

func TestWriteNeedsApprovalInAsk(t *testing.T) {
	e := newEnv(t)
	target := filepath.Join(e.project, "new.txt")
	res, card := e.callAnswering(e.session.ID, "Write", map[string]any{"path": "new.txt", "content": "hi\n"}, permission.Denied)
	if res.OK || res.Code != errs.ToolDenied || !strings.Contains(res.Message, "user denied permission") {
		t.Errorf("denied Write = %+v", res)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatal("a denied Write ran")
	}
	if card.Tool != "Write" || card.Risk != permission.High || card.Workspace == "" || card.Path != target || !strings.Contains(card.Preview, "new.txt") {
		t.Errorf("card = %+v", card)
	}
	res, _ = e.callAnswering(e.session.ID, "Write", map[string]any{"path": "new.txt", "content": "hi\n"}, permission.AllowOnce)
	if !res.OK || res.Decision != "allow-once" || res.Fields["tag"] == nil {
		t.Fatalf("allowed Write = %+v", res)
	}
	if b, _ := os.ReadFile(target); string(b) != "hi\n" {
		t.Errorf("file = %q", b)
	}
	// allow-once is once: the next overwrite asks again (and needs the tag).
	tag := res.Fields["tag"].(string)
	res, _ = e.callAnswering(e.session.ID, "Write", map[string]any{"path": "new.txt", "content": "bye\n", "tag": tag}, permission.AllowSession)
	if !res.OK {
		t.Fatalf("third Write = %+v", res)
	}
	// allow-session: no more cards for Write in this session…
	res = e.call(e.session.ID, "Write", map[string]any{"path": "other.txt", "content": "x"})
	if !res.OK {
		t.Fatalf("granted Write = %+v", res)
	}
	e.noCard()
	// …but Bash-like tools and other sessions are not covered.
	other, _ := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID})
	res, _ = e.callAnswering(other.ID, "Write", map[string]any{"path": "third.txt", "content": "x"}, permission.Denied)
	if res.OK {
		t.Error("a grant leaked into another session")
	}
}

func TestAcceptEditsAndScratchSkipCards(t *testing.T) {
	e := newEnv(t)
	scratch := filepath.Join(e.core.Info().DataDir, "scratch", e.session.ID, "notes.md")
	res := e.call(e.session.ID, "Write", map[string]any{"path": scratch, "content": "draft\n"})
	if !res.OK || res.Root != "scratch" {
		t.Fatalf("scratch Write in ask = %+v", res)
	}
	e.noCard()
	e.configure("", "accept-edits")
	res = e.call(e.session.ID, "Write", map[string]any{"path": "a.txt", "content": "x"})
	if !res.OK || res.Decision != "allow" {
		t.Fatalf("accept-edits Write = %+v", res)
	}
	e.noCard()
	// An outside path still asks under accept-edits, even for Read.
	res, card := e.callAnswering(e.session.ID, "Read", map[string]any{"path": filepath.Join(e.outside, "secret.txt")}, permission.Denied)
	if res.OK || !card.External {
		t.Errorf("outside Read under accept-edits = %+v card=%+v", res, card)
	}
}

func TestExternalPathsUnderAuto(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	res := e.call(e.session.ID, "Read", map[string]any{"path": "../outside/secret.txt"})
	if !res.OK || res.Root != "external" || !filepath.IsAbs(filepath.FromSlash(res.Path)) {
		t.Fatalf("external Read under auto = %+v", res)
	}
	e.noCard()
	rows, err := e.core.AuditRows(t.Context(), e.session.ID)
	if err != nil || len(rows) != 1 || !rows[0].ExternalPath || rows[0].PathRoot != "external" {
		t.Errorf("audit = %+v, %v", rows, err)
	}
}

func TestPlanModeHardDeniesEdits(t *testing.T) {
	e := newEnv(t)
	e.configure("plan", "auto")
	res := e.call(e.session.ID, "Write", map[string]any{"path": "x.txt", "content": "x"})
	if res.OK || res.Code != errs.WriteDisabledInPlan {
		t.Errorf("Write in plan/auto = %+v", res)
	}
	res = e.call(e.session.ID, "Frobnicate", map[string]any{})
	if res.Code != errs.ToolDisabledInPlan {
		t.Errorf("unknown tool in plan = %+v", res)
	}
	e.noCard()
	if _, err := os.Stat(filepath.Join(e.project, "x.txt")); !os.IsNotExist(err) {
		t.Error("plan mode wrote a file")
	}
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "main.go"}); !res.OK {
		t.Errorf("Read in plan = %+v", res)
	}
}

func TestValidationErrors(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		tool  string
		args  any
		code  errs.Code
		field string
	}{
		{"Nope", map[string]any{}, errs.ToolNotFound, ""},
		{"Read", map[string]any{}, errs.InvalidArgument, "path"},
		{"Read", map[string]any{"path": "main.go", "limit": 0}, errs.InvalidArgument, "limit"},
		{"Read", map[string]any{"path": "main.go", "bogus": 1}, errs.InvalidArgument, "bogus"},
		{"Read", map[string]any{"path": "."}, errs.InvalidArgument, "path"},
		{"Read", map[string]any{"path": "missing.go"}, errs.NotFound, "path"},
		{"Glob", map[string]any{"pattern": "*.go", "path": "main.go"}, errs.InvalidArgument, "path"},
	}
	for _, tt := range tests {
		res := e.call(e.session.ID, tt.tool, tt.args)
		if res.OK || res.Code != tt.code || (tt.field != "" && res.Details["field"] != tt.field) {
			t.Errorf("%s %v = %+v; want %s on %q", tt.tool, tt.args, res, tt.code, tt.field)
		}
	}
	// A directory Read suggests Glob.
	res := e.call(e.session.ID, "Read", map[string]any{"path": "."})
	if s, ok := res.Details["suggestion"].(map[string]any); !ok || s["tool"] != "Glob" {
		t.Errorf("directory Read details = %+v", res.Details)
	}
	// Both spellings: the canonical one wins.
	res = e.call(e.session.ID, "Read", map[string]any{"path": "main.go", "file_path": "missing.go"})
	if !res.OK {
		t.Errorf("canonical did not win: %+v", res)
	}
}

func TestStopCancelsPendingApproval(t *testing.T) {
	e := newEnv(t)
	done := make(chan tools.Result, 1)
	go func() { done <- e.call(e.session.ID, "Write", map[string]any{"path": "stop.txt", "content": "x"}) }()
	<-e.cards.reqs
	if len(e.core.PendingApprovals(e.session.ID)) != 1 {
		t.Fatal("pending card not listed")
	}
	e.core.StopSession(e.session.ID)
	res := <-done
	if res.OK || res.Code != errs.ToolAborted {
		t.Errorf("stopped call = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(e.project, "stop.txt")); !os.IsNotExist(err) {
		t.Error("a cancelled Write ran")
	}
	if len(e.core.PendingApprovals(e.session.ID)) != 0 {
		t.Error("the card outlived the Stop")
	}
}

func TestAbortBeforeStart(t *testing.T) {
	e := newEnv(t)
	e.core.Abort(e.session.ID, "early", "Write")
	res := e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, ToolCallID: "early", Tool: "Write",
		Args: json.RawMessage(`{"path":"early.txt","content":"x"}`)})
	if res.Code != errs.ToolAborted {
		t.Errorf("aborted-before-start = %+v", res)
	}
	e.noCard()
}

func TestSymlinkSwappedAfterApproval(t *testing.T) {
	e := newEnv(t)
	if err := os.Mkdir(filepath.Join(e.project, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	done := make(chan tools.Result, 1)
	go func() {
		done <- e.call(e.session.ID, "Write", map[string]any{"path": "docs/evil.txt", "content": "pwned"})
	}()
	req := <-e.cards.reqs
	// While the card is open, docs/ becomes a link to a folder outside.
	if err := os.Remove(filepath.Join(e.project, "docs")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.outside, filepath.Join(e.project, "docs")); err != nil {
		t.Fatal(err)
	}
	if err := e.core.ResolveApproval(req.SessionID, req.ID, permission.AllowOnce); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.OK {
		t.Fatalf("the swapped write succeeded: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(e.outside, "evil.txt")); !os.IsNotExist(err) {
		t.Fatal("the write followed the swapped link outside the workspace")
	}
}

func TestTemporarySessionWorksInItsScratch(t *testing.T) {
	e := newEnv(t)
	tmp, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	e.core.ConfigureSession(t.Context(), tmp.ID, api.SessionConfig{PermissionMode: "accept-edits"})
	res := e.call(tmp.ID, "Write", map[string]any{"path": "hello.txt", "content": "hi"})
	if !res.OK {
		t.Fatalf("Write in temporary session = %+v", res)
	}
	want := filepath.Join(e.core.Info().DataDir, "scratch", tmp.ID, "hello.txt")
	if b, err := os.ReadFile(want); err != nil || string(b) != "hi" {
		t.Errorf("temporary Write landed elsewhere: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.project, "hello.txt")); !os.IsNotExist(err) {
		t.Error("temporary session wrote into a visible project")
	}
}

func TestUnknownSessionFailsClosed(t *testing.T) {
	e := newEnv(t)
	res := e.call("no-such-session", "Read", map[string]any{"path": "main.go"})
	if res.OK || res.Code != errs.SessionNotFound {
		t.Errorf("unknown session = %+v", res)
	}
}

func TestAuditRows(t *testing.T) {
	e := newEnv(t)
	e.call(e.session.ID, "Read", map[string]any{"path": "main.go"})
	e.callAnswering(e.session.ID, "Write", map[string]any{"path": "d.txt", "content": "x"}, permission.Denied)
	e.call(e.session.ID, "Read", map[string]any{"path": "missing.go"})
	e.configure("", "auto")
	e.call(e.session.ID, "Write", map[string]any{"path": "main.go", "content": "x", "apiKey": "sk-abcdefghijklmnopqrstuvwx"})
	rows, err := e.core.AuditRows(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		tool, decision string
		ok, prompted   bool
		code           string
	}{
		{"Read", "allow", true, false, ""},
		{"Write", "denied", false, true, "TOOL_DENIED"},
		{"Read", "", false, false, "NOT_FOUND"}, // refused before policy: no card for a call that cannot run
		{"Write", "", false, false, "INVALID_ARGUMENT"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r.Tool != w.tool || r.Decision != w.decision || r.OK != w.ok || r.Prompted != w.prompted || r.ErrorCode != w.code {
			t.Errorf("row %d = %+v; want %+v", i, r, w)
		}
		if r.TraceID == "" || r.ToolCallID == "" || r.TurnID != "turn" || r.ArgsHash == "" {
			t.Errorf("row %d lacks identity: %+v", i, r)
		}
		if r.TotalMs < r.DurationMs+r.PermissionWaitMs-1 {
			t.Errorf("row %d timings inconsistent: %+v", i, r)
		}
	}
	if strings.Contains(rows[3].ArgsPreview, "sk-abc") {
		t.Errorf("audit preview leaks a key: %s", rows[3].ArgsPreview)
	}
}

func TestConcurrentSessions(t *testing.T) {
	e := newEnv(t)
	var sessions []api.Session
	for range 4 {
		s, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID})
		if err != nil {
			t.Fatal(err)
		}
		e.core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{PermissionMode: "auto"})
		sessions = append(sessions, s)
	}
	var wg sync.WaitGroup
	for i, s := range sessions {
		for j := range 10 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				raw, _ := json.Marshal(map[string]any{"path": fmt.Sprintf("s%d-%d.txt", i, j), "content": "x"})
				res := e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: s.ID, ToolCallID: fmt.Sprintf("w%d", j), Tool: "Write", Args: raw})
				if !res.OK {
					t.Errorf("write: %+v", res)
				}
			}()
			go func() {
				defer wg.Done()
				res := e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: s.ID, ToolCallID: fmt.Sprintf("r%d", j), Tool: "Read", Args: json.RawMessage(`{"path":"main.go"}`)})
				if !res.OK {
					t.Errorf("read: %+v", res)
				}
			}()
		}
	}
	wg.Wait()
	for i := range sessions {
		for j := range 10 {
			if _, err := os.Stat(filepath.Join(e.project, fmt.Sprintf("s%d-%d.txt", i, j))); err != nil {
				t.Errorf("missing write: %v", err)
			}
		}
	}
}

// The audit hash is of the canonical arguments: two spellings of one call
// (an alias folded) hash alike, and a call that never validated (an
// unknown tool) is still hashed, from the bytes it came with.
func TestAuditHashFoldsAliases(t *testing.T) {
	e := newEnv(t)
	e.call(e.session.ID, "Glob", map[string]any{"pattern": "*.go"})
	e.call(e.session.ID, "Glob", map[string]any{"query": "*.go"})
	e.call(e.session.ID, "Glob", map[string]any{"pattern": "*.md"})
	e.call(e.session.ID, "NoSuchTool", map[string]any{"x": 1})
	rows, err := e.core.AuditRows(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	if rows[0].ArgsHash != rows[1].ArgsHash {
		t.Errorf("an aliased spelling hashes differently: %q vs %q", rows[0].ArgsHash, rows[1].ArgsHash)
	}
	if rows[0].ArgsHash == rows[2].ArgsHash {
		t.Errorf("different arguments hash alike: %q", rows[0].ArgsHash)
	}
	if rows[3].ArgsHash == "" || rows[3].ErrorCode != "TOOL_NOT_FOUND" {
		t.Errorf("unknown tool row = %+v", rows[3])
	}
}
