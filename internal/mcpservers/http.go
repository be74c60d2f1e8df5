package mcpservers

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"
)

// startTimeout bounds how long node may take to load the server and listen;
// generous because the CI machine's two cores are shared with the whole suite.
const startTimeout = 30 * time.Second

// stopTimeout is how long the server gets to shut down on SIGINT before it is
// killed.
const stopTimeout = 5 * time.Second

// reportPort is the preload script, in the fixture folder, that prints the
// port the server really listens on (see the script for why).
const reportPort = "report-port.cjs"

// listeningLine is what reportPort prints once the server listens.
var listeningLine = regexp.MustCompile(`mcpservers: listening on port (\d+)\n`)

// EverythingHTTP starts @modelcontextprotocol/server-everything in streamable
// HTTP mode on a port the OS picks and returns its MCP endpoint URL. The
// server is stopped when the test ends.
func EverythingHTTP(t testing.TB) (url string) {
	t.Helper()
	dir := fixture(t)
	node, script := server(t, dir, everythingPkg)
	url, err := startHTTP(t, node, filepath.Join(dir, reportPort), script)
	if err != nil {
		t.Fatalf("mcpservers: starting %s over streamable HTTP: %v", everythingPkg, err)
	}
	return url
}

// startHTTP runs the server with PORT=0, so no other process can take its
// port between choosing and listening, and waits until it listens.
func startHTTP(t testing.TB, node, preload, script string) (string, error) {
	// The server reads its port only from PORT and listens on every interface.
	cmd := exec.Command(node, "--require", preload, script, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT=0")
	stdout, stderr := newOutputWatch(nil), newOutputWatch(listeningLine)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	output := func() string { return "stdout:\n" + stdout.String() + "\nstderr:\n" + stderr.String() }

	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	var port string
	select {
	case port = <-stderr.match:
	case err := <-exited:
		return "", fmt.Errorf("server exited before listening (%v); its output:\n%s", err, output())
	case <-timer.C:
		_ = cmd.Process.Kill()
		<-exited
		return "", fmt.Errorf("server did not listen within %s; its output:\n%s", startTimeout, output())
	}

	t.Cleanup(func() {
		stop(cmd, exited)
		if t.Failed() {
			t.Logf("mcpservers: output of %s (streamable HTTP, port %s):\n%s", everythingPkg, port, output())
		}
	})
	return "http://127.0.0.1:" + port + "/mcp", nil
}

// stop asks the server to shut down (it closes its sessions on SIGINT) and
// kills it if it does not. Interrupt is unsupported on Windows: kill at once.
func stop(cmd *exec.Cmd, exited <-chan error) {
	if err := cmd.Process.Signal(os.Interrupt); err == nil {
		select {
		case <-exited:
			return
		case <-time.After(stopTimeout):
		}
	}
	_ = cmd.Process.Kill()
	<-exited
}

// maxOutput keeps a server's output small while still showing why it failed.
const maxOutput = 16 << 10

// outputWatch collects a process's output (the head, up to maxOutput) and,
// the first time pattern matches it, sends the first submatch on match.
type outputWatch struct {
	pattern *regexp.Regexp // nil: only collect
	match   chan string

	mu    sync.Mutex
	buf   bytes.Buffer
	found bool
}

func newOutputWatch(pattern *regexp.Regexp) *outputWatch {
	return &outputWatch{pattern: pattern, match: make(chan string, 1)}
}

func (w *outputWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := maxOutput - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	// Searched in what was kept: the line comes within the first few lines,
	// far inside maxOutput.
	if w.pattern != nil && !w.found {
		if m := w.pattern.FindSubmatch(w.buf.Bytes()); m != nil {
			w.found = true
			w.match <- string(m[1])
		}
	}
	return len(p), nil
}

func (w *outputWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
