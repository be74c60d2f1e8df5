package hostcore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/internal/mcpservers"
)

// labEnv is a host whose sessions have the in-process lab server.
func labEnv(t *testing.T) (*env, *events, *lab) {
	t.Helper()
	l := newLab(t)
	e, ev := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"lab": l.conn}), nil)
	return e, ev, l
}

// The reference server over stdio, through the whole pipeline: the card
// names the server, the tool's own name and title and shows the
// arguments; allow-session covers that tool name only; the audit rows
// carry the calls.
func TestMCPEverythingAskCardAndAllowSession(t *testing.T) {
	e, _ := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"everything": everything(t)}), nil)
	res, card := e.callAnswering(e.session.ID, "mcp_everything_echo", map[string]any{"message": "hello from the host"}, permission.AllowSession)
	if !res.OK || !strings.Contains(res.Content, "hello from the host") {
		t.Fatalf("echo = %+v", res)
	}
	if card.Reason != "MCP server tool requires approval" || card.Risk != permission.Medium || card.Server != "everything" ||
		card.ServerTool != "echo" || card.ToolTitle == "" || !strings.Contains(card.Preview, "hello from the host") {
		t.Errorf("card = %+v", card)
	}
	again := e.call(e.session.ID, "mcp_everything_echo", map[string]any{"message": "again"})
	e.noCard()
	if !again.OK || again.Decision != "granted" {
		t.Errorf("second echo = %+v", again)
	}
	sum, card := e.callAnswering(e.session.ID, "mcp_everything_get-sum", map[string]any{"a": 2, "b": 3}, permission.AllowOnce)
	if !sum.OK || !strings.Contains(sum.Content, "5") || card.ServerTool != "get-sum" {
		t.Errorf("get-sum = %+v (card %+v): the grant of echo must not cover it", sum, card)
	}
	rows, err := e.core.AuditRows(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Tool+" "+r.MCPServer+" "+r.Decision)
	}
	if want := "mcp_everything_echo everything allow-session,mcp_everything_echo everything granted,mcp_everything_get-sum everything allow-once"; strings.Join(got, ",") != want {
		t.Errorf("audit = %v, want %s", got, want)
	}
}

// Medium risk whatever the server's annotations claim (echo says
// read-only): a card under ask and accept-edits, none under auto, and
// Plan and Goal deny before any card.
func TestMCPPolicyByMode(t *testing.T) {
	e, _, _ := labEnv(t)
	for _, tc := range []struct {
		mode, perm string
		card       bool
		code       errs.Code
	}{
		{api.ModeAgent, api.PermissionAsk, true, ""},
		{api.ModeAgent, api.PermissionAcceptEdits, true, ""},
		{api.ModeAgent, api.PermissionAuto, false, ""},
		{api.ModePlan, api.PermissionAuto, false, errs.ToolDisabledInPlan},
		{api.ModeGoal, api.PermissionAuto, false, errs.ToolDisabledInPlan},
	} {
		t.Run(tc.mode+"/"+tc.perm, func(t *testing.T) {
			e.t = t
			e.configure(tc.mode, tc.perm)
			args := map[string]any{"text": "hi"}
			var res tools.Result
			if tc.card {
				var card permission.Request
				res, card = e.callAnswering(e.session.ID, "mcp_lab_echo", args, permission.AllowOnce)
				if card.Reason != "MCP server tool requires approval" || card.Server != "lab" || card.ToolTitle != "Echo" {
					t.Errorf("card = %+v", card)
				}
			} else {
				res = e.call(e.session.ID, "mcp_lab_echo", args)
				e.noCard()
			}
			if res.Code != tc.code || (tc.code == "" && res.Content != "echo: hi") {
				t.Errorf("result = %+v, want code %q", res, tc.code)
			}
		})
	}
}

// Arguments are checked against the server's schema before any card; a
// name no catalog has is TOOL_NOT_FOUND; an unusable schema is named.
func TestMCPValidationAndUnknownTools(t *testing.T) {
	e, _ := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"everything": everything(t), "lab": newLab(t).conn}), nil)
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		code  errs.Code
		field string
	}{
		{"mcp_everything_get-sum", map[string]any{"a": "two", "b": 3}, errs.InvalidArgument, "a"},
		{"mcp_everything_get-sum", map[string]any{"b": 3}, errs.InvalidArgument, ""},
		{"mcp_everything_nope", map[string]any{}, errs.ToolNotFound, ""},
		{"mcp_lab_badschema", map[string]any{"n": 1}, errs.MCPProtocolError, ""},
	} {
		res := e.call(e.session.ID, tc.tool, tc.args)
		e.noCard()
		if res.Code != tc.code || (tc.field != "" && res.Details["field"] != tc.field) {
			t.Errorf("%s %v = %+v, want %s", tc.tool, tc.args, res, tc.code)
		}
	}
	for _, d := range e.core.DeferredForTest(t.Context(), e.session.ID, api.ModeAgent) {
		if d.Name == "mcp_lab_badschema" {
			t.Error("a tool whose schema does not compile is in the on-demand catalog")
		}
	}
}

// What the server answers, as the model reads it.
func TestMCPResults(t *testing.T) {
	e, _, _ := labEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)

	broken := e.call(e.session.ID, "mcp_lab_broken", map[string]any{})
	if broken.OK || broken.Code != errs.ToolFailed || broken.Message != "disk on fire: /var is full" || broken.Details["server"] != "lab" {
		t.Errorf("isError = %+v", broken)
	}
	pic := e.call(e.session.ID, "mcp_lab_picture", map[string]any{})
	if !pic.OK || pic.Content != "A one-pixel picture:" || len(pic.Images) != 1 || pic.Images[0].Width != 1 || pic.Images[0].MediaType != "image/png" {
		t.Errorf("picture = %q, images %+v", pic.Content, pic.Images)
	}
	st := e.call(e.session.ID, "mcp_lab_structured", map[string]any{})
	var v map[string]any
	if err := json.Unmarshal([]byte(st.Content), &v); err != nil || v["city"] != "Oslo" {
		t.Errorf("structured = %q", st.Content)
	}
	r := e.call(e.session.ID, "mcp_lab_resource", map[string]any{})
	if want := "[resource file:///notes.txt (text/plain)]\nremember the milk\n[resource link: The spec <https://example.com/spec> (text/html) — What to build.]"; r.Content != want {
		t.Errorf("resource = %q", r.Content)
	}
}

// A 5 MB result: the model gets the head within the limits and a marker
// naming the spill file, which holds the first 512 KB.
func TestMCPLargeResultIsBoundedAndSpilled(t *testing.T) {
	e, _, _ := labEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)
	res := e.call(e.session.ID, "mcp_lab_big", map[string]any{})
	if !res.OK || !res.Truncated || len(res.Content) > tools.ResultMaxBytes || strings.Count(res.Content, "\n") >= tools.ResultMaxLines {
		t.Fatalf("big: ok=%v truncated=%v %d bytes, %d lines", res.OK, res.Truncated, len(res.Content), strings.Count(res.Content, "\n"))
	}
	path, _ := res.Fields["spillPath"].(string)
	if path == "" || !strings.Contains(res.Content, "saved to "+path) || !strings.Contains(res.Content, "of 100000 lines") {
		t.Fatalf("marker: %s", res.Content[max(0, len(res.Content)-600):])
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 512<<10 || !strings.HasPrefix(string(data), "line 000000 of the big result") {
		t.Errorf("spill file: %d bytes", len(data))
	}
	if !strings.HasPrefix(res.Content, "line 000000 ") {
		t.Errorf("the head is not kept: %.80s", res.Content)
	}
}

// Stop during a call with progress: the progress reached the tool row
// live, the server saw notifications/cancelled, and Execute returned only
// once the call was over, as TOOL_ABORTED.
func TestMCPStopCancelsTheStartedCall(t *testing.T) {
	e, ev, l := labEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)
	done := make(chan tools.Result, 1)
	go func() {
		done <- e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "turn", ToolCallID: "slow-1", Tool: "mcp_lab_slow", Args: json.RawMessage(`{}`)})
	}()
	for deadline := time.Now().Add(10 * time.Second); len(ev.progress()) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no live progress")
		}
	}
	p := ev.progress()[0]
	if p["toolCallId"] != "slow-1" || p["stream"] != "progress" || p["text"] != "progress 1/100: working\n" {
		t.Errorf("progress event = %v", p)
	}
	if n := e.core.StopSession(e.session.ID); n != 1 {
		t.Errorf("StopSession cancelled %d calls", n)
	}
	select {
	case res := <-done:
		if res.Code != errs.ToolAborted {
			t.Errorf("stopped call = %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Execute did not return after Stop")
	}
	select {
	case <-l.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the cancellation")
	}
}

// The reference server's long-running tool over stdio: progress, then Stop.
func TestMCPEverythingLongRunningStop(t *testing.T) {
	e, ev := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"everything": everything(t)}), nil)
	e.configure(api.ModeAgent, api.PermissionAuto)
	done := make(chan tools.Result, 1)
	go func() {
		done <- e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "turn", ToolCallID: "long-1",
			Tool: "mcp_everything_trigger-long-running-operation", Args: json.RawMessage(`{"duration":60,"steps":120}`)})
	}()
	for deadline := time.Now().Add(20 * time.Second); len(ev.progress()) < 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no live progress")
		}
	}
	if p := ev.progress()[0]; p["text"] != "progress 1/120\n" {
		t.Errorf("progress = %v", p)
	}
	e.core.StopSession(e.session.ID)
	select {
	case res := <-done:
		if res.Code != errs.ToolAborted {
			t.Errorf("stopped = %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Execute did not return after Stop")
	}
	img := e.call(e.session.ID, "mcp_everything_get-tiny-image", map[string]any{})
	if !img.OK || len(img.Images) != 1 || img.Images[0].MediaType != "image/png" || len(img.RawImages) != 0 {
		t.Errorf("tiny image = %+v", img)
	}
}

// The reference server over streamable HTTP: list, call, progress, Stop.
func TestMCPEverythingOverStreamableHTTP(t *testing.T) {
	url := mcpservers.EverythingHTTP(t)
	c, err := mcp.ConnectTransport(t.Context(), mcp.Server{ID: "everything", Transport: mcp.TransportHTTP, URL: url, Enabled: true, ConnectTimeout: 60 * time.Second},
		&sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, mcp.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	e, ev := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"everything": c}), nil)
	e.configure(api.ModeAgent, api.PermissionAuto)
	if sum := e.call(e.session.ID, "mcp_everything_get-sum", map[string]any{"a": 40, "b": 2}); !sum.OK || !strings.Contains(sum.Content, "42") {
		t.Errorf("get-sum = %+v", sum)
	}
	done := make(chan tools.Result, 1)
	go func() {
		done <- e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "turn", ToolCallID: "long-http",
			Tool: "mcp_everything_trigger-long-running-operation", Args: json.RawMessage(`{"duration":60,"steps":120}`)})
	}()
	for deadline := time.Now().Add(20 * time.Second); len(ev.progress()) < 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no live progress over HTTP")
		}
	}
	e.core.StopSession(e.session.ID)
	select {
	case res := <-done:
		if res.Code != errs.ToolAborted {
			t.Errorf("stopped = %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Execute did not return after Stop")
	}
}

// A call past the server's call timeout is TOOL_TIMEOUT, and the server
// is told to cancel it.
func TestMCPCallTimeout(t *testing.T) {
	l := newLab(t)
	src := newConnSource(t, map[string]*mcp.Conn{"lab": l.conn})
	for i := range src.entries {
		src.entries[i].CallTimeout = 300 * time.Millisecond
	}
	e, _ := newMCPEnv(t, src, nil)
	e.configure(api.ModeAgent, api.PermissionAuto)
	res := e.call(e.session.ID, "mcp_lab_slow", map[string]any{})
	if res.Code != errs.ToolTimeout || res.Details["timeoutMs"] != int64(300) {
		t.Errorf("slow = %+v", res)
	}
	select {
	case <-l.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the cancellation")
	}
}

// rootSource records the project root each catalog was asked for.
type rootSource struct {
	hostcore.MCPSource
	mu    sync.Mutex
	roots []string
}

func (s *rootSource) Tools(ctx context.Context, root string) ([]hostcore.MCPToolEntry, error) {
	s.mu.Lock()
	s.roots = append(s.roots, root)
	s.mu.Unlock()
	return s.MCPSource.Tools(ctx, root)
}

func (s *rootSource) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roots[len(s.roots)-1]
}

// A session's catalog is its project's: the source is asked with the
// project's path, and with "" for a temporary session.
func TestMCPCatalogFollowsTheSessionsProject(t *testing.T) {
	src := &rootSource{MCPSource: newConnSource(t, map[string]*mcp.Conn{"lab": newLab(t).conn})}
	e, _ := newMCPEnv(t, src, nil)
	if cat := e.core.DeferredForTest(t.Context(), e.session.ID, api.ModeAgent); len(cat) == 0 || src.last() == "" {
		t.Fatalf("project session: catalog %d tools, root %q", len(cat), src.last())
	}
	if real, _ := filepath.EvalSymlinks(e.project); src.last() != real {
		t.Errorf("root = %q, want %q", src.last(), real)
	}
	tmp, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	e.core.DeferredForTest(t.Context(), tmp.ID, api.ModeAgent)
	if src.last() != "" {
		t.Errorf("temporary session root = %q", src.last())
	}
	if plan := e.core.DeferredForTest(t.Context(), e.session.ID, api.ModePlan); slices.ContainsFunc(plan, func(d agent.DeferredTool) bool { return strings.HasPrefix(d.Name, "mcp_") }) {
		t.Error("Plan mode's catalog offers MCP tools")
	}
}

// The reference filesystem server confined to a folder: a write through
// the pipeline needs the card like any MCP tool and lands inside; a path
// outside is the server's own refusal, TOOL_FAILED with its message.
func TestMCPFilesystemServerConfined(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "notes.txt"), "remember the milk\n")
	command, args := mcpservers.Filesystem(t, root)
	c, err := mcp.ConnectStdio(t.Context(), mcp.Server{ID: "fs", Transport: mcp.TransportStdio, Command: command, Args: args, Enabled: true,
		ConnectTimeout: 60 * time.Second}, mcp.StdioOptions{BaseEnv: os.Environ(), Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	e, _ := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"fs": c}), nil)
	read, card := e.callAnswering(e.session.ID, "mcp_fs_read_text_file", map[string]any{"path": filepath.Join(root, "notes.txt")}, permission.AllowOnce)
	if !read.OK || !strings.Contains(read.Content, "remember the milk") || card.Server != "fs" || card.ServerTool != "read_text_file" {
		t.Errorf("read = %+v, card %+v", read, card)
	}
	e.configure(api.ModeAgent, api.PermissionAuto)
	if w := e.call(e.session.ID, "mcp_fs_write_file", map[string]any{"path": filepath.Join(root, "out.txt"), "content": "written\n"}); !w.OK {
		t.Errorf("write = %+v", w)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "out.txt")); string(data) != "written\n" {
		t.Errorf("out.txt = %q", data)
	}
	outside := e.call(e.session.ID, "mcp_fs_read_text_file", map[string]any{"path": filepath.Join(e.project, "..", "elsewhere.txt")})
	if outside.OK || outside.Code != errs.ToolFailed || !strings.Contains(strings.ToLower(outside.Message), "access denied") {
		t.Errorf("outside = %+v", outside)
	}
}
