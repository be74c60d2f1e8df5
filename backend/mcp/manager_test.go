package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

var app = func(id string) mcp.Key { return mcp.Key{ID: id} }

func status(t *testing.T, m *mcp.Manager, k mcp.Key) mcp.Status {
	t.Helper()
	st, ok := m.Status(k)
	if !ok {
		t.Fatalf("no status for %v", k)
	}
	return st
}

func wantState(t *testing.T, m *mcp.Manager, k mcp.Key, state mcp.State, code errs.Code) mcp.Status {
	t.Helper()
	st := status(t, m, k)
	if st.State != state || st.ErrorCode != code {
		t.Fatalf("%v: state %s (%s: %s), want %s (%s)", k, st.State, st.ErrorCode, st.Error, state, code)
	}
	return st
}

func statusTools(st mcp.Status) []string {
	var out []string
	for _, ti := range st.Tools {
		out = append(out, ti.Tool.Name)
	}
	return out
}

func textOf(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if res == nil || len(res.Content) != 1 {
		t.Fatalf("result = %+v", res)
	}
	return res.Content[0].(*sdk.TextContent).Text
}

func TestStatesMatchAPI(t *testing.T) {
	for got, want := range map[mcp.State]string{
		mcp.StateDisabled: api.MCPStateDisabled, mcp.StateConnecting: api.MCPStateConnecting,
		mcp.StateReady: api.MCPStateReady, mcp.StateFailed: api.MCPStateFailed, mcp.StateNeedsAuth: api.MCPStateNeedsAuth,
	} {
		if string(got) != want {
			t.Errorf("state %q, api %q", got, want)
		}
	}
}

// Sync returns before any server is up; servers come up in the background,
// with their tools sorted, and calls reach them.
func TestManagerStartsInBackgroundAndCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("docs", "search", "echo")
		f.setBefore("docs", func(context.Context) error { time.Sleep(time.Second); return nil })
		m, ch := newFakeManager(t, f, mcp.ManagerOptions{})

		start := time.Now()
		m.Sync("", []mcp.Server{def("docs")})
		if time.Since(start) != 0 {
			t.Error("Sync waited")
		}
		wantState(t, m, app("docs"), mcp.StateConnecting, "")

		// A call made now waits for the server to be ready.
		res, err := m.Call(t.Context(), app("docs"), "echo", map[string]any{"text": "hi"}, nil)
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		if got := textOf(t, res); got != "echo: hi" {
			t.Errorf("result %q", got)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("call answered after %s, want once the server was up (1s)", d)
		}
		synctest.Wait()
		st := wantState(t, m, app("docs"), mcp.StateReady, "")
		if got := statusTools(st); !slices.Equal(got, []string{"echo", "search"}) {
			t.Errorf("tools %q", got)
		}
		if st.SchemaTokens <= 0 || st.SchemaTokens != st.Tools[0].SchemaTokens+st.Tools[1].SchemaTokens {
			t.Errorf("schema tokens %d, tools %d + %d", st.SchemaTokens, st.Tools[0].SchemaTokens, st.Tools[1].SchemaTokens)
		}
		if ch.count(app("docs")) < 2 { // connecting, ready
			t.Errorf("OnChange called %d times", ch.count(app("docs")))
		}
		if !slices.Equal(st.LogTail, []string{"docs: starting"}) || !strings.Contains(m.Log(app("docs")), "docs: starting") {
			t.Errorf("log tail %q, log %q", st.LogTail, m.Log(app("docs")))
		}
		m.Close()
	})
}

// A server that does not connect within its connect timeout fails with
// MCP_CONNECT_TIMEOUT, even when Dial ignores its context; the connection a
// late Dial returns is closed.
func TestManagerConnectTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("slow", "echo")
		f.add("deaf", "echo")
		f.setBefore("slow", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
		release := make(chan struct{})
		f.setBefore("deaf", func(context.Context) error { <-release; return nil })
		f.deaf["deaf"] = true
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		slow, deaf := def("slow"), def("deaf")
		slow.ConnectTimeout, deaf.ConnectTimeout = 2*time.Second, 2*time.Second
		m.Sync("", []mcp.Server{slow, deaf})

		var callErr error
		var wg sync.WaitGroup
		wg.Go(func() {
			time.Sleep(time.Second)
			_, callErr = m.Call(t.Context(), app("slow"), "echo", nil, nil)
		})
		time.Sleep(2 * time.Second)
		synctest.Wait()
		for _, id := range []string{"slow", "deaf"} {
			st := wantState(t, m, app(id), mcp.StateFailed, errs.MCPConnectTimeout)
			if !strings.Contains(st.Error, "2s") {
				t.Errorf("%s: error %q does not name the timeout", id, st.Error)
			}
		}
		wg.Wait()
		if !errs.Is(callErr, errs.MCPServerUnavailable) {
			t.Errorf("call while connecting, then failed: %v", callErr)
		}

		// Not retried: a wrong server stays wrong until the user acts.
		time.Sleep(time.Hour)
		if n := f.dialCount("slow"); n != 1 {
			t.Errorf("dialed %d times", n)
		}

		close(release)
		synctest.Wait()
		if c := f.lastConn("deaf"); !exited(c) {
			t.Error("the connection a late Dial returned was left open")
		}
		wantState(t, m, app("deaf"), mcp.StateFailed, errs.MCPConnectTimeout)
		m.Close()
	})
}

// A call that waits for a connecting server gives up after its connect
// timeout with MCP_CONNECT_TIMEOUT.
func TestManagerCallWaitsAtMostConnectTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("slow", "echo")
		f.setBefore("slow", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		s := def("slow")
		s.ConnectTimeout = 3 * time.Second
		m.Sync("", []mcp.Server{s})
		time.Sleep(2 * time.Second)
		start := time.Now()
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(500*time.Millisecond, cancel)
		if _, err := m.Call(ctx, app("slow"), "echo", nil, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled wait: %v", err)
		}
		if d := time.Since(start); d != 500*time.Millisecond {
			t.Errorf("cancelled wait took %s", d)
		}
		m.Restart(app("slow"))
		synctest.Wait()
		start = time.Now()
		_, err := m.Call(t.Context(), app("slow"), "echo", nil, nil)
		if d := time.Since(start); !errs.Is(err, errs.MCPConnectTimeout) || d != 3*time.Second {
			t.Errorf("call after %s: %v; want MCP_CONNECT_TIMEOUT after 3s", d, err)
		}
		m.Close()
	})
}

func TestManagerNeedsAuth(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("remote", "echo")
		signedIn := false
		f.setBefore("remote", func(context.Context) error {
			if !signedIn {
				return errs.New(errs.MCPAuthRequired, "sign in to remote").With("signIn", true)
			}
			return nil
		})
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		m.Sync("", []mcp.Server{def("remote")})
		time.Sleep(time.Hour)
		synctest.Wait()
		st := wantState(t, m, app("remote"), mcp.StateNeedsAuth, errs.MCPAuthRequired)
		if st.Error != "sign in to remote" || st.Restarts != 0 || f.dialCount("remote") != 1 {
			t.Errorf("status %+v after %d dials; want the dial's message and no retry", st, f.dialCount("remote"))
		}
		if _, err := m.Call(t.Context(), app("remote"), "echo", nil, nil); !errs.Is(err, errs.MCPAuthRequired) {
			t.Errorf("call: %v", err)
		}
		signedIn = true
		if err := m.Restart(app("remote")); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		wantState(t, m, app("remote"), mcp.StateReady, "")
		m.Close()
	})
}

// Stop right after a Restart returns only once the run before is closed:
// the new run, cancelled while it waits for the old one, still waits.
func TestManagerStopAfterRestartWaitsForTheOldRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("s", "echo")
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		m.Sync("", []mcp.Server{def("s")})
		synctest.Wait()
		wantState(t, m, app("s"), mcp.StateReady, "")
		old := f.lastConn("s")
		if err := m.Restart(app("s")); err != nil {
			t.Fatal(err)
		}
		m.Stop(app("s"))
		select {
		case <-old.Exited():
		default:
			t.Fatal("Stop returned while the connection of the run before Restart was still open")
		}
		m.Close()
	})
}

// A rejected static header (no "signIn" detail) is not cured by a sign-in:
// the server is failed, with the refusal's code and message.
func TestManagerRejectedHeaderFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("remote", "echo")
		f.setBefore("remote", func(context.Context) error {
			return errs.New(errs.MCPAuthRequired, "MCP server \"remote\" refused the configured headers")
		})
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		m.Sync("", []mcp.Server{def("remote")})
		synctest.Wait()
		wantState(t, m, app("remote"), mcp.StateFailed, errs.MCPAuthRequired)
		m.Close()
	})
}

// A server that goes away restarts after 1 s, 2 s, 4 s; the fourth exit in
// a row leaves it failed, and nothing restarts it after that.
func TestManagerRestartsWithBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("flaky", "echo")
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		m.Sync("", []mcp.Server{def("flaky")})
		synctest.Wait()
		wantState(t, m, app("flaky"), mcp.StateReady, "")

		for i, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
			f.crash("flaky")
			synctest.Wait()
			st := wantState(t, m, app("flaky"), mcp.StateConnecting, errs.MCPServerUnavailable)
			if st.Restarts != i+1 || len(st.Tools) != 0 || !strings.Contains(st.Error, fmt.Sprintf("attempt %d of 3", i+1)) {
				t.Fatalf("after exit %d: %+v", i+1, st)
			}
			time.Sleep(wait - time.Millisecond)
			synctest.Wait()
			if n := f.dialCount("flaky"); n != i+1 {
				t.Fatalf("restarted before the backoff of %s: %d dials", wait, n)
			}
			time.Sleep(time.Millisecond)
			synctest.Wait()
			wantState(t, m, app("flaky"), mcp.StateReady, "")
		}
		f.crash("flaky")
		synctest.Wait()
		st := wantState(t, m, app("flaky"), mcp.StateFailed, errs.MCPServerUnavailable)
		if st.Restarts != 3 || !strings.Contains(st.Error, "after 3 attempts") || !strings.Contains(st.Error, "flaky: starting") {
			t.Errorf("failed status %+v; want 3 restarts and the last stderr lines", st)
		}
		time.Sleep(time.Hour)
		if n := f.dialCount("flaky"); n != 4 {
			t.Errorf("%d dials, want 4", n)
		}
		if _, err := m.Call(t.Context(), app("flaky"), "echo", nil, nil); !errs.Is(err, errs.MCPServerUnavailable) || !strings.Contains(err.Error(), "restart it") {
			t.Errorf("call on a failed server: %v", err)
		}
		// Restart starts a fresh series.
		if err := m.Restart(app("flaky")); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if st := wantState(t, m, app("flaky"), mcp.StateReady, ""); st.Restarts != 0 {
			t.Errorf("restarts after Restart = %d", st.Restarts)
		}
		m.Close()
	})
}

// Reconnects that fail count as attempts too.
func TestManagerFailedReconnectsCount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("flaky", "echo")
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		m.Sync("", []mcp.Server{def("flaky")})
		synctest.Wait()
		f.setBefore("flaky", func(context.Context) error {
			return errs.New(errs.MCPServerUnavailable, "MCP server \"flaky\" could not start")
		})
		f.crash("flaky")
		time.Sleep(7 * time.Second) // 1 + 2 + 4
		synctest.Wait()
		st := wantState(t, m, app("flaky"), mcp.StateFailed, errs.MCPServerUnavailable)
		if st.Restarts != 3 || f.dialCount("flaky") != 4 || !strings.Contains(st.Error, "could not start") {
			t.Errorf("status %+v after %d dials", st, f.dialCount("flaky"))
		}
		m.Close()
	})
}

// A server that stayed up StableAfter starts a new series when it exits.
func TestManagerStableUptimeResetsSeries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("daily", "echo")
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{StableAfter: time.Minute, Backoff: func(int) time.Duration { return time.Second }})
		m.Sync("", []mcp.Server{def("daily")})
		for range 6 {
			synctest.Wait()
			wantState(t, m, app("daily"), mcp.StateReady, "")
			time.Sleep(time.Minute)
			f.crash("daily")
			time.Sleep(time.Second)
		}
		synctest.Wait()
		if st := wantState(t, m, app("daily"), mcp.StateReady, ""); st.Restarts != 6 {
			t.Errorf("restarts %d, want 6", st.Restarts)
		}
		m.Close()
	})
}

// tools/list_changed refreshes the catalog and tells OnChange.
func TestManagerToolsListChanged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		srv := f.add("live", "echo")
		m, ch := newFakeManager(t, f, mcp.ManagerOptions{})
		m.Sync("", []mcp.Server{def("live")})
		synctest.Wait()
		before := ch.count(app("live"))

		addTool(srv, "added", f.cancelled)
		time.Sleep(time.Second)
		synctest.Wait()
		st := wantState(t, m, app("live"), mcp.StateReady, "")
		if got := statusTools(st); !slices.Equal(got, []string{"added", "echo"}) {
			t.Errorf("tools after list_changed: %q", got)
		}
		if ch.count(app("live")) <= before {
			t.Error("OnChange not called for the new tools")
		}
		if res, err := m.Call(t.Context(), app("live"), "added", map[string]any{"text": "x"}, nil); err != nil || textOf(t, res) != "added: x" {
			t.Errorf("call of the new tool: %v", err)
		}

		srv.RemoveTools("echo")
		time.Sleep(time.Second)
		synctest.Wait()
		if got := statusTools(status(t, m, app("live"))); !slices.Equal(got, []string{"added"}) {
			t.Errorf("tools after removal: %q", got)
		}
		if _, err := m.Call(t.Context(), app("live"), "echo", nil, nil); !errs.Is(err, errs.ToolNotFound) {
			t.Errorf("call of the removed tool: %v", err)
		}
		m.Close()
	})
}

// A server with 80 tools keeps the first 64 by name; the rest are omitted
// and cannot be called, like unknown and switched-off tools.
func TestManagerToolLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		var names []string
		for i := range 80 {
			names = append(names, fmt.Sprintf("t%02d", 79-i))
		}
		f.add("big", names...)
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		big := def("big")
		big.DisabledTools = map[string]bool{"t01": true}
		m.Sync("", []mcp.Server{big})
		synctest.Wait()
		st := wantState(t, m, app("big"), mcp.StateReady, "")
		kept := statusTools(st)
		if len(kept) != 64 || kept[0] != "t00" || kept[63] != "t63" || !slices.IsSorted(kept) {
			t.Errorf("kept %d tools: %q…", len(kept), kept[:3])
		}
		if len(st.Omitted) != 16 || st.Omitted[0] != "t64" || st.Omitted[15] != "t79" {
			t.Errorf("omitted %q", st.Omitted)
		}
		sum := 0
		for _, ti := range st.Tools {
			if ti.Enabled != (ti.Tool.Name != "t01") {
				t.Errorf("%s enabled = %v", ti.Tool.Name, ti.Enabled)
			}
			if ti.Enabled {
				sum += ti.SchemaTokens
			}
		}
		if st.SchemaTokens != sum {
			t.Errorf("server tokens %d, enabled tools sum to %d", st.SchemaTokens, sum)
		}
		for tool, want := range map[string]string{"t70": "omitted", "nope": "has no tool", "t01": "switched off"} {
			_, err := m.Call(t.Context(), app("big"), tool, nil, nil)
			if !errs.Is(err, errs.ToolNotFound) || !strings.Contains(err.Error(), want) {
				t.Errorf("call %s: %v, want TOOL_NOT_FOUND (%s)", tool, err, want)
			}
		}
		if _, err := m.Call(t.Context(), app("big"), "t02", nil, nil); err != nil {
			t.Errorf("call of a kept tool: %v", err)
		}
		m.Close()
	})
}

// Sync adds, restarts on a changed definition, applies toggles in place,
// disables and removes; other scopes are left alone.
func TestManagerSync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("a", "echo")
		f.add("b", "echo", "search")
		f.add("c", "echo")
		m, ch := newFakeManager(t, f, mcp.ManagerOptions{})
		proj := mcp.Key{Scope: "/work/proj", ID: "c"}
		m.Sync("", []mcp.Server{def("a"), def("b")})
		m.Sync(proj.Scope, []mcp.Server{def("c")})
		synctest.Wait()
		a1, b1 := f.lastConn("a"), f.lastConn("b")
		for _, k := range []mcp.Key{app("a"), app("b"), proj} {
			wantState(t, m, k, mcp.StateReady, "")
		}
		if got := m.Statuses(""); len(got) != 2 || got[0].Key != app("a") || got[1].Key != app("b") {
			t.Errorf("Statuses = %+v", got)
		}

		// a's definition changed: a new connection, the old one ended. b's
		// toggles changed: same connection, new status.
		a := def("a")
		a.Args = nil
		a.URL = "http://a2.invalid/mcp"
		b := def("b")
		b.DisabledTools = map[string]bool{"search": true}
		bChanges := ch.count(app("b"))
		m.Sync("", []mcp.Server{a, b})
		synctest.Wait()
		if st := wantState(t, m, app("a"), mcp.StateReady, ""); st.DefinitionHash != a.DefinitionHash() || f.lastConn("a") == a1 || !exited(a1) {
			t.Errorf("a not restarted on its new definition")
		}
		st := wantState(t, m, app("b"), mcp.StateReady, "")
		if f.lastConn("b") != b1 || exited(b1) || st.Tools[1].Enabled || ch.count(app("b")) == bChanges {
			t.Errorf("b: restarted, or toggle not applied/announced: %+v", st.Tools)
		}

		// a disabled, b gone.
		a.Enabled = false
		m.Sync("", []mcp.Server{a})
		synctest.Wait()
		wantState(t, m, app("a"), mcp.StateDisabled, "")
		if _, ok := m.Status(app("b")); ok || !exited(b1) || !exited(f.lastConn("a")) {
			t.Error("b not forgotten, or a connection left open")
		}
		if _, err := m.Call(t.Context(), app("a"), "echo", nil, nil); !errs.Is(err, errs.MCPServerUnavailable) || !strings.Contains(err.Error(), "disabled") {
			t.Errorf("call on a disabled server: %v", err)
		}
		if _, err := m.Call(t.Context(), app("b"), "echo", nil, nil); !errs.Is(err, errs.MCPServerUnavailable) {
			t.Errorf("call on a removed server: %v", err)
		}
		if err := m.Restart(app("a")); !errs.Is(err, errs.MCPServerUnavailable) {
			t.Errorf("Restart of a disabled server: %v", err)
		}
		wantState(t, m, proj, mcp.StateReady, "")

		// Enabled again: starts.
		a.Enabled = true
		m.Sync("", []mcp.Server{a})
		synctest.Wait()
		wantState(t, m, app("a"), mcp.StateReady, "")

		// Stop waits for the end.
		c := f.lastConn("a")
		m.Stop(app("a"))
		if !exited(c) {
			t.Error("Stop returned before the connection ended")
		}
		if _, ok := m.Status(app("a")); ok {
			t.Error("Stop did not forget the server")
		}
		m.Close()
	})
}

// At most MaxServers run: app servers first, then projects, each by id;
// freeing a slot starts the next.
func TestManagerServerLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		var appDefs, projDefs []mcp.Server
		for i := range 3 {
			id := fmt.Sprintf("app%d", i)
			f.add(id, "echo")
			appDefs = append(appDefs, def(id))
		}
		for i := range 15 {
			id := fmt.Sprintf("p%02d", i)
			f.add(id, "echo")
			projDefs = append(projDefs, def(id))
		}
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		const proj = "/work/proj"
		m.Sync(proj, projDefs)
		m.Sync("", appDefs)
		synctest.Wait()
		for _, s := range appDefs {
			wantState(t, m, app(s.ID), mcp.StateReady, "")
		}
		for i, s := range projDefs {
			k := mcp.Key{Scope: proj, ID: s.ID}
			if i < 13 {
				wantState(t, m, k, mcp.StateReady, "")
				continue
			}
			st := wantState(t, m, k, mcp.StateFailed, errs.MCPServerUnavailable)
			if !strings.Contains(st.Error, "at most 16") {
				t.Errorf("%s: %q does not name the limit", s.ID, st.Error)
			}
		}
		// p13 and p14 may have run for a moment before the app servers
		// took their slots, never since.
		live := 0
		for _, s := range append(appDefs, projDefs...) {
			if c := f.conns[s.ID]; len(c) > 0 && !exited(c[len(c)-1]) {
				live++
			}
		}
		if live != 16 {
			t.Errorf("%d live connections, want 16", live)
		}
		if err := m.Restart(mcp.Key{Scope: proj, ID: "p14"}); !errs.Is(err, errs.MCPServerUnavailable) {
			t.Errorf("Restart past the limit: %v", err)
		}

		appDefs[0].Enabled = false
		m.Sync("", appDefs)
		synctest.Wait()
		wantState(t, m, mcp.Key{Scope: proj, ID: "p13"}, mcp.StateReady, "")
		wantState(t, m, mcp.Key{Scope: proj, ID: "p14"}, mcp.StateFailed, errs.MCPServerUnavailable)
		m.Close()
	})
}

// Calls honour the call timeout and cancellation: the server sees the
// call cancelled, and Call returns without waiting for the server.
func TestManagerCallTimeoutAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("s", "slow", "progress")
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		s := def("s")
		s.CallTimeout = 3 * time.Second
		m.Sync("", []mcp.Server{s})
		synctest.Wait()

		start := time.Now()
		_, err := m.Call(t.Context(), app("s"), "slow", nil, nil)
		if !errs.Is(err, errs.ToolTimeout) || !strings.Contains(errs.As(err).Message, "3s") || time.Since(start) != 3*time.Second {
			t.Errorf("after %s: %v; want TOOL_TIMEOUT naming 3s", time.Since(start), err)
		}
		synctest.Wait()
		select {
		case name := <-f.cancelled:
			if name != "slow" {
				t.Errorf("cancelled %q", name)
			}
		default:
			t.Error("the server never saw the timed-out call cancelled")
		}

		// The caller's own deadline: a sooner one ends the call as its
		// cause; a later one leaves the server's call timeout in force.
		for _, c := range []struct {
			deadline, after time.Duration
			timeout         bool
		}{{time.Second, time.Second, false}, {10 * time.Second, 3 * time.Second, true}} {
			ctx, cancel := context.WithTimeout(t.Context(), c.deadline)
			start := time.Now()
			_, err := m.Call(ctx, app("s"), "slow", nil, nil)
			cancel()
			if errs.Is(err, errs.ToolTimeout) != c.timeout || (!c.timeout && !errors.Is(err, context.DeadlineExceeded)) || time.Since(start) != c.after {
				t.Errorf("deadline %s: after %s: %v", c.deadline, time.Since(start), err)
			}
			synctest.Wait()
			if name := <-f.cancelled; name != "slow" {
				t.Errorf("deadline %s: cancelled %q", c.deadline, name)
			}
		}

		ctx, cancel := context.WithCancel(t.Context())
		var got []mcp.Progress
		var mu sync.Mutex
		onProgress := func(p mcp.Progress) {
			mu.Lock()
			got = append(got, p)
			n := len(got)
			mu.Unlock()
			if n == 2 {
				cancel()
			}
		}
		_, err = m.Call(ctx, app("s"), "progress", nil, onProgress)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call: %v", err)
		}
		synctest.Wait()
		if name := <-f.cancelled; name != "progress" {
			t.Errorf("cancelled %q", name)
		}
		mu.Lock()
		if len(got) != 2 || got[1].Progress != 2 || got[1].Total != 3 || got[1].Message != "step 2" {
			t.Errorf("progress %+v", got)
		}
		mu.Unlock()
		wantState(t, m, app("s"), mcp.StateReady, "")
		m.Close()
	})
}

// Close ends every server, even one still connecting, and calls fail from
// then on.
func TestManagerClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("a", "echo")
		f.add("b", "echo")
		f.add("hang", "echo")
		f.setBefore("hang", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		m.Sync("", []mcp.Server{def("a"), def("hang")})
		m.Sync("/p", []mcp.Server{def("b")})
		synctest.Wait()
		start := time.Now()
		m.Close()
		if time.Since(start) != 0 {
			t.Errorf("Close took %s", time.Since(start))
		}
		if !exited(f.lastConn("a")) || !exited(f.lastConn("b")) {
			t.Error("a connection survived Close")
		}
		m.Close()
		if _, err := m.Call(t.Context(), app("a"), "echo", nil, nil); !errs.Is(err, errs.MCPServerUnavailable) {
			t.Errorf("call after Close: %v", err)
		}
		m.Sync("", []mcp.Server{def("b")})
		if _, ok := m.Status(app("b")); ok {
			t.Error("Sync after Close added a server")
		}
		// Stopping after Close frees a slot, but starts nothing.
		m.Stop(app("a"))
		if err := m.Restart(app("hang")); !errs.Is(err, errs.MCPServerUnavailable) {
			t.Errorf("Restart after Close: %v", err)
		}
		synctest.Wait()
		if n := f.dialCount("hang"); n != 1 {
			t.Errorf("hang dialed %d times", n)
		}
	})
}

// Test connects once outside the live set: every tool, sorted; failures
// come with the stderr tail.
func TestManagerTest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		var names []string
		for i := range 70 {
			names = append(names, fmt.Sprintf("t%02d", 69-i))
		}
		f.add("big", names...)
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		tools, tail, err := m.Test(t.Context(), app("big"), def("big"))
		if err != nil || len(tools) != 70 || tools[0].Name != "t00" || !slices.Equal(tail, []string{"big: starting"}) {
			t.Fatalf("Test = %d tools, %q, %v", len(tools), tail, err)
		}
		if !exited(f.lastConn("big")) || len(m.Statuses("")) != 0 {
			t.Error("Test left a connection open or registered the server")
		}
		f.setBefore("big", func(context.Context) error { return errs.New(errs.MCPAuthRequired, "sign in") })
		if _, _, err := m.Test(t.Context(), app("big"), def("big")); !errs.Is(err, errs.MCPAuthRequired) {
			t.Errorf("Test of a server wanting sign-in: %v", err)
		}
		bad := def("big")
		bad.URL = "ftp://x"
		if _, _, err := m.Test(t.Context(), app(bad.ID), bad); !errs.Is(err, errs.InvalidArgument) {
			t.Errorf("Test of an invalid definition: %v", err)
		}
		m.Close()
	})
}

func TestManagerRestartUnknown(t *testing.T) {
	m := mcp.NewManager(mcp.ManagerOptions{Dial: newFakeServers(t).dial})
	defer m.Close()
	if err := m.Restart(app("nope")); !errs.Is(err, errs.MCPServerUnavailable) {
		t.Errorf("Restart of an unknown server: %v", err)
	}
	if _, err := m.Call(t.Context(), app("nope"), "echo", nil, nil); !errs.Is(err, errs.MCPServerUnavailable) {
		t.Errorf("Call of an unknown server: %v", err)
	}
	if m.Log(app("nope")) != "" {
		t.Error("log of an unknown server")
	}
}

// An invalid definition fails without a dial; of two servers with one id
// the first counts; an app and a project server of one id both run.
func TestManagerDefinitions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeServers(t)
		f.add("a", "echo")
		f.add("b", "echo")
		m, _ := newFakeManager(t, f, mcp.ManagerOptions{})
		bad := def("bad")
		bad.URL = "not a url"
		second := def("a")
		second.Enabled = false
		m.Sync("", []mcp.Server{bad, def("a"), second})
		m.Sync("/p", []mcp.Server{def("a")})
		synctest.Wait()
		st := wantState(t, m, app("bad"), mcp.StateFailed, errs.InvalidArgument)
		if f.dialCount("bad") != 0 || !strings.Contains(st.Error, "url") {
			t.Errorf("invalid definition: %d dials, %q", f.dialCount("bad"), st.Error)
		}
		wantState(t, m, app("a"), mcp.StateReady, "")
		wantState(t, m, mcp.Key{Scope: "/p", ID: "a"}, mcp.StateReady, "")
		if n := f.dialCount("a"); n != 2 {
			t.Errorf("a dialed %d times, want once per scope", n)
		}
		m.Close()
	})
}

func TestDefaultBackoff(t *testing.T) {
	for attempt, want := range map[int]time.Duration{0: time.Second, 1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 7: time.Minute, 100: time.Minute} {
		if got := mcp.DefaultBackoff(attempt); got != want {
			t.Errorf("DefaultBackoff(%d) = %s, want %s", attempt, got, want)
		}
	}
}

// A Dial that returns neither a connection nor an error fails the server
// rather than the manager.
func TestManagerDialWithoutConnection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := mcp.NewManager(mcp.ManagerOptions{Dial: func(context.Context, mcp.Server, mcp.DialEnv) (*mcp.Conn, error) { return nil, nil }})
		defer m.Close()
		m.Sync("", []mcp.Server{def("odd")})
		synctest.Wait()
		wantState(t, m, app("odd"), mcp.StateFailed, errs.MCPServerUnavailable)
	})
}
