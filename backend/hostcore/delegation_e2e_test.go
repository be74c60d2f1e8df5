package hostcore_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// modelRouter fronts scripted servers speaking the real wire protocol: each
// request goes to the script whose marker its body holds (a delegate's
// definition body is in its system prompt), else to the parent's.
type modelRouter struct {
	*httptest.Server
	mu     sync.Mutex
	parent *providertest.Server
	routes map[string]*providertest.Server
}

func newModelRouter(t *testing.T, parent *providertest.Server) *modelRouter {
	r := &modelRouter{parent: parent, routes: map[string]*providertest.Server{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		to := r.parent
		r.mu.Lock()
		for marker, srv := range r.routes {
			if bytes.Contains(body, []byte(marker)) {
				to = srv
			}
		}
		r.mu.Unlock()
		u, _ := url.Parse(to.URL)
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		proxy := httputil.NewSingleHostReverseProxy(u)
		proxy.FlushInterval = -1 // stream every frame as it comes
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *modelRouter) route(marker string, srv *providertest.Server) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes[marker] = srv
}

type delegationEnv struct {
	core    *hostcore.Core
	cards   *cards
	session api.Session
	project string
	data    string
	router  *modelRouter
	parent  *providertest.Server
}

// newDelegationEnv builds a host whose session model is the router over
// the Anthropic wire; the parent's script is empty unless pushed.
func newDelegationEnv(t *testing.T) *delegationEnv { return newDelegationEnvWith(t, false) }

func newDelegationEnvWith(t *testing.T, delegation bool) *delegationEnv {
	t.Helper()
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(project, "main.go"), "package main\n\nfunc main() {}\n")
	parent := providertest.NewAnthropicServer(t)
	router := newModelRouter(t, parent)
	sink := &cards{reqs: make(chan permission.Request, 16)}
	data := filepath.Join(root, "data")
	core, err := hostcore.New(t.Context(), hostcore.Config{
		DataDir: data, Home: filepath.Join(root, "home"), Sink: sink, RgPath: "-", Delegation: delegation,
		Provider: func(string) (provider.Provider, error) {
			cfg := parent.Config()
			cfg.BaseURL = router.URL
			return provider.New(cfg, provider.WithSleeper(providertest.NoSleep))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	p, err := core.AddProject(t.Context(), project)
	if err != nil {
		t.Fatal(err)
	}
	s, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	return &delegationEnv{core: core, cards: sink, session: s, project: project, data: data, router: router, parent: parent}
}

// define writes a definition file (user: the app's own folder; project:
// .agents/subagents) and routes its delegate's requests to turns.
func (e *delegationEnv) define(t *testing.T, project bool, name, frontmatter string, turns ...providertest.Turn) {
	t.Helper()
	dir := filepath.Join(e.data, "subagents")
	if project {
		dir = filepath.Join(e.project, ".agents", "subagents")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := "DELEGATE-" + strings.ToUpper(name)
	write(t, filepath.Join(dir, name+".md"), "---\nname: "+name+"\ndescription: test delegate "+name+"\n"+frontmatter+"---\n\n"+marker+": do what the agent asks.\n")
	e.router.route(marker, providertest.NewAnthropicServer(t, turns...))
}

func (e *delegationEnv) start(t *testing.T, name, prompt string) agent.Delegation {
	t.Helper()
	d, err := e.core.StartDelegation(t.Context(), e.session.ID, hostcore.DelegationInput{Subagent: name, Description: name, Prompt: prompt,
		ParentTurnID: "parent-turn", ParentToolCallID: "call-" + name})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func (e *delegationEnv) wait(t *testing.T, ids ...string) []agent.Delegation {
	t.Helper()
	w, err := e.core.WaitDelegations(t.Context(), e.session.ID, ids, true, 30*time.Second)
	if err != nil || w.TimedOut {
		t.Fatalf("wait = %+v, %v", w, err)
	}
	return w.Finished
}

func writeCall(path string) providertest.Turn {
	return providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: map[string]any{"path": path, "content": "hello\n"}}}, Stop: "tool_use"}
}

func (e *delegationEnv) noCard(t *testing.T) {
	t.Helper()
	select {
	case req := <-e.cards.reqs:
		t.Errorf("unexpected card %+v", req)
	default:
	}
}

func TestDelegateReadOnlyCannotWriteThroughTheWire(t *testing.T) {
	e := newDelegationEnv(t)
	e.define(t, false, "reader", "tools: [Read]\n",
		writeCall("notes.md"),
		providertest.Turn{Text: "I cannot write files.", Stop: "end_turn"})
	d := e.start(t, "reader", "write notes.md")
	got := e.wait(t, d.ID)[0]
	if got.State != agent.DelegationDone || got.Report != "I cannot write files." {
		t.Errorf("delegate = %+v", got)
	}
	if _, err := os.Stat(filepath.Join(e.project, "notes.md")); !os.IsNotExist(err) {
		t.Error("a read-only delegate wrote a file")
	}
	e.noCard(t)
	// The host refuses it too, given the delegate's tools, and audits it.
	res := e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "t", ToolCallID: "c1", Tool: "Write",
		Args: json.RawMessage(`{"path":"notes.md","content":"x"}`), Delegate: "reader", DelegationID: d.ID, AllowedTools: []string{"Read"}})
	if res.OK || res.Code != errs.ToolNotFound || !strings.Contains(res.Message, "the reader subagent cannot call Write; its tools are: Read") {
		t.Errorf("host result = %+v", res)
	}
	// A delegate's call without its tools fails closed.
	res = e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "t", ToolCallID: "c2", Tool: "Read",
		Args: json.RawMessage(`{"path":"main.go"}`), Delegate: "reader"})
	if res.OK || res.Code != errs.ToolNotFound {
		t.Errorf("host result without tools = %+v", res)
	}
	// A delegate run's call is one whether or not it names its subagent.
	res = e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "t", ToolCallID: "c3", Tool: "Read",
		Args: json.RawMessage(`{"path":"main.go"}`), DelegationID: d.ID})
	if res.OK || res.Code != errs.ToolNotFound {
		t.Errorf("host result for a delegation id without tools = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(e.project, "notes.md")); !os.IsNotExist(err) {
		t.Error("the host ran a delegate's Write outside its tools")
	}
	rows, _ := e.core.AuditRows(t.Context(), e.session.ID)
	var denied int
	for _, r := range rows {
		if r.Decision == "deny" && r.ErrorCode == string(errs.ToolNotFound) {
			denied++
		}
	}
	if denied != 4 { // the delegate's own Write, then the three above
		t.Errorf("audit rows = %+v", rows)
	}
}

func TestDelegatePermissionScopes(t *testing.T) {
	e := newDelegationEnv(t)
	e.define(t, false, "editor", "tools: [Write]\npermission: accept-edits\n",
		writeCall("user.md"), providertest.Turn{Text: "written", Stop: "end_turn"})
	e.define(t, true, "project-editor", "tools: [Write]\npermission: accept-edits\n",
		writeCall("project.md"), providertest.Turn{Text: "written too", Stop: "end_turn"})

	// A user definition's accept-edits allows an in-workspace Write, no card.
	d := e.start(t, "editor", "write user.md")
	if got := e.wait(t, d.ID)[0]; got.State != agent.DelegationDone || got.Report != "written" {
		t.Errorf("editor = %+v", got)
	}
	if b, err := os.ReadFile(filepath.Join(e.project, "user.md")); err != nil || string(b) != "hello\n" {
		t.Errorf("user.md = %q, %v", b, err)
	}
	e.noCard(t)

	// A project definition's permission was dropped: the user is asked,
	// and the card says which delegate asks.
	d = e.start(t, "project-editor", "write project.md")
	select {
	case req := <-e.cards.reqs:
		if req.Delegate != "project-editor" || req.Tool != "Write" {
			t.Errorf("card = %+v", req)
		}
		if err := e.core.ResolveApproval(req.SessionID, req.ID, permission.AllowOnce); err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the project delegate's Write got no card")
	}
	if got := e.wait(t, d.ID)[0]; got.State != agent.DelegationDone {
		t.Errorf("project-editor = %+v", got)
	}
	if _, err := os.Stat(filepath.Join(e.project, "project.md")); err != nil {
		t.Errorf("project.md: %v", err)
	}
}

func TestTwoDelegatesAskingAtOnceBothGetCards(t *testing.T) {
	e := newDelegationEnv(t)
	e.define(t, false, "first", "tools: [Write]\n", writeCall("a.md"), providertest.Turn{Text: "a denied", Stop: "end_turn"})
	e.define(t, false, "second", "tools: [Write]\n", writeCall("b.md"), providertest.Turn{Text: "b written", Stop: "end_turn"})
	d1, d2 := e.start(t, "first", "write a.md"), e.start(t, "second", "write b.md")
	pending := map[string]permission.Request{}
	for len(pending) < 2 {
		select {
		case req := <-e.cards.reqs:
			pending[req.Delegate] = req
		case <-time.After(20 * time.Second):
			t.Fatalf("cards so far: %+v", pending)
		}
	}
	// Both wait at once, and say so; answered one by one.
	states := func() []string {
		list, err := e.core.Delegations(t.Context(), e.session.ID)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range list {
			out = append(out, d.Subagent+":"+d.State)
		}
		return out
	}
	if got := states(); !slices.Equal(got, []string{"first:waiting", "second:waiting"}) {
		t.Errorf("states with both cards open = %v", got)
	}
	if err := e.core.ResolveApproval(e.session.ID, pending["first"].ID, permission.Denied); err != nil {
		t.Fatal(err)
	}
	if got := e.wait(t, d1.ID)[0]; got.Report != "a denied" {
		t.Errorf("first = %+v", got)
	}
	if got := states(); !slices.Equal(got, []string{"first:done", "second:waiting"}) {
		t.Errorf("states with one card open = %v", got)
	}
	if err := e.core.ResolveApproval(e.session.ID, pending["second"].ID, permission.AllowOnce); err != nil {
		t.Fatal(err)
	}
	if got := e.wait(t, d2.ID)[0]; got.Report != "b written" {
		t.Errorf("second = %+v", got)
	}
	if _, err := os.Stat(filepath.Join(e.project, "a.md")); !os.IsNotExist(err) {
		t.Error("a denied Write ran")
	}
	if _, err := os.Stat(filepath.Join(e.project, "b.md")); err != nil {
		t.Errorf("b.md: %v", err)
	}
}

func TestDelegationRefusals(t *testing.T) {
	e := newDelegationEnv(t)
	_, err := e.core.StartDelegation(t.Context(), e.session.ID, hostcore.DelegationInput{Subagent: "nobody", Prompt: "x"})
	if errs.CodeOf(err) != errs.DelegateNotFound || !strings.Contains(err.Error(), "explore, general") {
		t.Errorf("unknown subagent: %v", err)
	}
}

func TestTaskThroughTheWire(t *testing.T) {
	e := newDelegationEnvWith(t, true)
	task := func(n string) providertest.Call {
		return providertest.Call{Name: "Task", Input: map[string]any{"subagent": "explore", "description": "look " + n, "prompt": "Find " + n + "."}}
	}
	e.parent.Push(
		providertest.Turn{ToolCalls: []providertest.Call{task("alpha"), task("beta")}, Stop: "tool_use"},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "TaskWait", Input: map[string]any{}}}, Stop: "tool_use"},
		providertest.Turn{Text: "Both delegates reported.", Stop: "end_turn"},
	)
	explore := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "main.go has main.", Stop: "end_turn"},
		providertest.Turn{Text: "main.go has main.", Stop: "end_turn"})
	e.router.route("You are a read-only investigator working for another agent.", explore)
	res, err := e.core.RunTurn(t.Context(), e.session.ID, "Split the search.")
	if err != nil || res.Text != "Both delegates reported." {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	reqs := e.parent.Requests()
	if len(reqs) != 3 || explore.Count() != 2 {
		t.Fatalf("%d parent requests, %d delegate requests", len(reqs), explore.Count())
	}
	first, last := string(reqs[0].Body), string(reqs[2].Body)
	if !strings.Contains(first, `"name":"Task"`) || !strings.Contains(first, "# Subagents") || !strings.Contains(first, "- explore: ") {
		t.Error("the parent was not offered Task with the subagent list")
	}
	if strings.Count(last, "main.go has main.") != 2 || !strings.Contains(last, `state=\"done\"`) {
		t.Errorf("TaskWait's result lacks the reports: %.2000s", last)
	}
	if strings.Contains(last, "You are a read-only investigator") {
		t.Error("a delegate's prompt reached the parent")
	}
	list, _ := e.core.Delegations(t.Context(), e.session.ID)
	if len(list) != 2 || list[0].Description != "look alpha" || list[1].Description != "look beta" || list[0].ParentTurnID != res.TurnID {
		t.Errorf("delegations = %+v", list)
	}
	rows, _ := e.core.AuditRows(t.Context(), e.session.ID)
	var tasks int
	for _, r := range rows {
		if r.Tool == "Task" && r.OK {
			tasks++
		}
	}
	if tasks != 2 {
		t.Errorf("audit rows = %+v", rows)
	}
}
