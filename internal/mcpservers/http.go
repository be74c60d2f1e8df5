package mcpservers

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// portAttempts: the port is chosen free and then handed to the server, so
// another process can take it in between; the server then exits and the
// start is retried on a new port.
const portAttempts = 3

// errPortTaken reports that the server could not listen on the chosen port.
var errPortTaken = errors.New("port already in use")

// EverythingHTTP starts @modelcontextprotocol/server-everything in streamable
// HTTP mode on a free loopback port and returns its MCP endpoint URL. The
// server is stopped when the test ends.
func EverythingHTTP(t testing.TB) (url string) {
	t.Helper()
	node, script := server(t, fixture(t), everythingPkg)
	var err error
	for range portAttempts {
		url, err = startHTTP(t, node, script)
		if !errors.Is(err, errPortTaken) {
			break
		}
	}
	if err != nil {
		t.Fatalf("mcpservers: starting %s over streamable HTTP: %v", everythingPkg, err)
	}
	return url
}

// startHTTP runs the server once on a port that was free a moment ago and
// waits until it says it is listening there.
func startHTTP(t testing.TB, node, script string) (string, error) {
	port, err := freePort()
	if err != nil {
		return "", err
	}
	// The server reads its port only from PORT and listens on every interface.
	cmd := exec.Command(node, script, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	out := newOutputWatch("listening on port " + port + "\n")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case <-out.ready:
	case err := <-exited:
		if strings.Contains(out.String(), "EADDRINUSE") || strings.Contains(out.String(), "already in use") {
			return "", fmt.Errorf("%w: %s", errPortTaken, port)
		}
		return "", fmt.Errorf("server exited before listening (%v); its output:\n%s", err, out)
	case <-timer.C:
		_ = cmd.Process.Kill()
		<-exited
		return "", fmt.Errorf("server did not listen within %s; its output:\n%s", startTimeout, out)
	}

	t.Cleanup(func() {
		stop(cmd, exited)
		if t.Failed() {
			t.Logf("mcpservers: output of %s (streamable HTTP, port %s):\n%s", everythingPkg, port, out)
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

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}

// maxOutput keeps the server's output small while still showing why it failed.
const maxOutput = 16 << 10

// outputWatch collects a process's output (the head, up to maxOutput) and
// closes ready once marker has been written.
type outputWatch struct {
	marker string
	ready  chan struct{}

	mu    sync.Mutex
	buf   bytes.Buffer
	found bool
}

func newOutputWatch(marker string) *outputWatch {
	return &outputWatch{marker: marker, ready: make(chan struct{})}
}

func (w *outputWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := maxOutput - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	// The marker is searched in what was kept; the server prints it within
	// its first few lines, far inside maxOutput.
	if !w.found && bytes.Contains(w.buf.Bytes(), []byte(w.marker)) {
		w.found = true
		close(w.ready)
	}
	return len(p), nil
}

func (w *outputWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
