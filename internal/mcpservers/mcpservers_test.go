package mcpservers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Each test proves a real server starts and answers through the official SDK
// client: initialize, tools/list, one tools/call.

func TestEverythingStdio(t *testing.T) {
	command, args := Everything(t)
	session := connect(t, stdio(command, args))
	checkEverything(t, session)
}

func TestEverythingHTTP(t *testing.T) {
	url := EverythingHTTP(t)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("EverythingHTTP() = %q, want http://127.0.0.1:PORT/mcp", url)
	}
	session := connect(t, &mcp.StreamableClientTransport{Endpoint: url})
	checkEverything(t, session)
}

// TestEverythingHTTPTwice: two servers in one test get separate ports.
func TestEverythingHTTPTwice(t *testing.T) {
	a, b := EverythingHTTP(t), EverythingHTTP(t)
	if a == b {
		t.Fatalf("both servers at %s", a)
	}
	checkEverything(t, connect(t, &mcp.StreamableClientTransport{Endpoint: b}))
}

// TestEverythingHTTPStopped: the server is gone once the test that started
// it has ended.
func TestEverythingHTTPStopped(t *testing.T) {
	var url string
	t.Run("server", func(t *testing.T) { url = EverythingHTTP(t) })
	client := mcp.NewClient(&mcp.Implementation{Name: "pi-desktop-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	transport := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}
	if session, err := client.Connect(ctx, transport, nil); err == nil {
		session.Close()
		t.Fatalf("connected to %s after its test ended", url)
	}
}

// TestEverythingHTTPExitReported: a server that dies before listening fails
// the start with its output, rather than waiting out startTimeout.
func TestEverythingHTTPExitReported(t *testing.T) {
	node, script := server(t, fixture(t), everythingPkg)
	_, err := startHTTP(t, node, filepath.Join(t.TempDir(), "missing.cjs"), script)
	if err == nil || !strings.Contains(err.Error(), "exited before listening") || !strings.Contains(err.Error(), "missing.cjs") {
		t.Fatalf("startHTTP with a broken preload: %v, want an exit error quoting node's output", err)
	}
}

func TestFilesystem(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello from the fixture\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	command, args := Filesystem(t, root)
	session := connect(t, stdio(command, args))

	names := toolNames(t, session)
	if !slices.Contains(names, "read_text_file") && !slices.Contains(names, "read_file") {
		t.Fatalf("tools = %v, want read_text_file or read_file", names)
	}

	tests := []struct {
		name      string
		path      string
		wantError bool
		wantText  string
	}{
		{"inside the root", filepath.Join(root, "hello.txt"), false, "hello from the fixture"},
		{"outside the root", outside, true, "outside allowed directories"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, session, "read_text_file", map[string]any{"path": tc.path})
			if res.IsError != tc.wantError {
				t.Fatalf("IsError = %v, want %v; content %q", res.IsError, tc.wantError, text(res))
			}
			if !strings.Contains(text(res), tc.wantText) {
				t.Fatalf("content %q does not contain %q", text(res), tc.wantText)
			}
		})
	}
}

// TestMissingInstall: an absent or stale fixture fails the test (never skips)
// with the command that fixes it.
func TestMissingInstall(t *testing.T) {
	tests := []struct {
		name      string
		installed string // version in node_modules; "" = not installed
		script    bool   // whether the bin script exists
		want      string
	}{
		{"not installed", "", false, everythingPkg + " is not installed"},
		{"stale", "1.0.0", true, everythingPkg + " 1.0.0 is installed but 2.0.0 is pinned"},
		{"partial", "2.0.0", false, everythingPkg + " is incompletely installed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeJSON(t, filepath.Join(dir, "package.json"), fmt.Sprintf(`{"dependencies":{%q:"2.0.0"}}`, everythingPkg))
			if tc.installed != "" {
				pkgDir := filepath.Join(dir, "node_modules", everythingPkg)
				writeJSON(t, filepath.Join(pkgDir, "package.json"),
					fmt.Sprintf(`{"version":%q,"bin":{"mcp-server-everything":"dist/index.js"}}`, tc.installed))
				if tc.script {
					writeJSON(t, filepath.Join(pkgDir, "dist", "index.js"), "")
				}
			}
			msg, fatal := fatalOf(func(tb testing.TB) { server(tb, dir, everythingPkg) })
			if !fatal {
				t.Fatal("server() did not fail the test")
			}
			for _, want := range []string{tc.want, "make deps-mcp-servers"} {
				if !strings.Contains(msg, want) {
					t.Errorf("failure %q does not contain %q", msg, want)
				}
			}
		})
	}
}

func checkEverything(t *testing.T, session *mcp.ClientSession) {
	t.Helper()
	if got := session.InitializeResult().ServerInfo.Name; !strings.Contains(got, "everything") {
		t.Errorf("server name = %q, want the everything server", got)
	}
	names := toolNames(t, session)
	// "get-sum" is the add tool's name since the server's 2026 rewrite.
	for _, want := range []string{"echo", "get-sum"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools = %v, missing %q", names, want)
		}
	}
	res := call(t, session, "echo", map[string]any{"message": "ping"})
	if res.IsError || !strings.Contains(text(res), "ping") {
		t.Errorf("echo: IsError=%v content %q", res.IsError, text(res))
	}
}

// stdio runs the server as a child over stdin/stdout. The everything server
// outlives its closed stdin while its roots/list request to the client is
// pending, so Close would wait the SDK's default 5 s before SIGTERM.
func stdio(command string, args []string) *mcp.CommandTransport {
	return &mcp.CommandTransport{Command: exec.Command(command, args...), TerminateDuration: time.Second}
}

func connect(t *testing.T, transport mcp.Transport) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "pi-desktop-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	t.Cleanup(func() { _ = session.Close() })
	return session
}

func toolNames(t *testing.T, session *mcp.ClientSession) []string {
	t.Helper()
	var names []string
	for tool, err := range session.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		names = append(names, tool.Name)
	}
	return names
}

func call(t *testing.T, session *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", tool, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func writeJSON(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fatalTB records a Fatalf instead of failing the real test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatalOf runs fn with a TB whose Fatalf ends fn's goroutine, as the real
// one does, and reports the message.
func fatalOf(fn func(testing.TB)) (msg string, fatal bool) {
	tb := &fatalTB{}
	done := make(chan bool)
	go func() {
		finished := false
		defer func() { done <- finished }()
		fn(tb)
		finished = true
	}()
	finished := <-done
	return tb.msg, !finished
}
