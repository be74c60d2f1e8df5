package instance

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// requests collects what a Primary was handed.
type requests struct {
	mu  sync.Mutex
	got []Request
}

func (r *requests) handle(req Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, req)
}

func (r *requests) list() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

func TestASecondStartHandsItsArgumentsToTheFirst(t *testing.T) {
	dir := t.TempDir()
	var first requests
	p, err := Acquire(t.Context(), dir, Request{}, first.handle)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	req := Request{Args: []string{"plugin.piplug", "--session", "s1"}, Dir: "/home/ada/proj"}
	if q, err := Acquire(t.Context(), dir, req, func(Request) { t.Error("the second start served a request") }); !errors.Is(err, ErrHandedOff) || q != nil {
		t.Fatalf("second Acquire = %v, %v; want ErrHandedOff", q, err)
	}
	got := first.list()
	if len(got) != 1 || !slices.Equal(got[0].Args, req.Args) || got[0].Dir != req.Dir {
		t.Fatalf("the first app was handed %+v, want %+v", got, req)
	}

	// Another data folder is another app.
	other, err := Acquire(t.Context(), t.TempDir(), Request{}, func(Request) {})
	if err != nil {
		t.Fatalf("another data folder: %v", err)
	}
	other.Close()
}

func TestClosingFreesTheFolder(t *testing.T) {
	dir := t.TempDir()
	p, err := Acquire(t.Context(), dir, Request{}, func(Request) {})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "instance.sock")); !os.IsNotExist(err) {
		t.Errorf("the socket outlived Close: %v", err)
	}
	again, err := Acquire(t.Context(), dir, Request{}, func(Request) {})
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	again.Close()
}

// TestAFolderHeldButSilentFailsClosed: a lock holder that never answers
// (hung, or not an app) is reported with the next step, not bypassed.
func TestAFolderHeldButSilentFailsClosed(t *testing.T) {
	dir := t.TempDir()
	lock, held, err := tryLock(filepath.Join(dir, "instance.lock"))
	if err != nil || !held {
		t.Fatalf("tryLock = %v, %v", held, err)
	}
	defer lock.Close()
	_, err = acquire(t.Context(), dir, Request{Args: []string{"x"}}, func(Request) {}, 300*time.Millisecond)
	if !errors.Is(err, ErrNoAnswer) || !strings.Contains(err.Error(), "did not answer") || !strings.Contains(err.Error(), "--data-dir") {
		t.Fatalf("err = %v, want ErrNoAnswer naming the next step", err)
	}
}

func TestOversizedRequestsAreRefused(t *testing.T) {
	dir := t.TempDir()
	var first requests
	p, err := Acquire(t.Context(), dir, Request{}, first.handle)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := Acquire(t.Context(), dir, Request{Args: []string{strings.Repeat("x", maxRequest)}}, nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized hand-off: err = %v, want ErrTooLarge", err)
	}
	// A client that sends an endless line is cut off and does not reach the handler.
	conn, err := net.Dial("unix", socketPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	chunk := []byte(strings.Repeat("y", 64<<10))
	for sent := 0; sent <= maxRequest; sent += len(chunk) {
		if _, err := conn.Write(chunk); err != nil {
			break // the app closed it
		}
	}
	conn.Close()
	// The app still serves the next start.
	if _, err := Acquire(t.Context(), dir, Request{Args: []string{"after"}}, nil); !errors.Is(err, ErrHandedOff) {
		t.Fatalf("after an oversized client: %v", err)
	}
	if got := first.list(); len(got) != 1 || got[0].Args[0] != "after" {
		t.Errorf("handled %+v, want only the well-formed request", got)
	}
}

func TestALongDataFolderPathGetsASocketElsewhere(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if s := socketPath(dir); len(s) >= 100 || !strings.HasPrefix(s, os.Getenv("XDG_RUNTIME_DIR")) {
		t.Fatalf("socket path %q", s)
	}
	var first requests
	p, err := Acquire(t.Context(), dir, Request{}, first.handle)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := Acquire(t.Context(), dir, Request{Args: []string{"a"}}, nil); !errors.Is(err, ErrHandedOff) {
		t.Fatalf("second start: %v", err)
	}
}

// TestAcrossProcessesAndAfterACrash: the first app in another process
// takes the hand-off; once it is killed, the folder is free at once (the
// lock ends with the process, the stale socket is replaced).
func TestAcrossProcessesAndAfterACrash(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PI_INSTANCE_HELPER_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("helper said %q", lines.Text())
	}
	if _, err := Acquire(t.Context(), dir, Request{Args: []string{"/tmp/x.piplug"}, Dir: "/w"}, nil); !errors.Is(err, ErrHandedOff) {
		t.Fatalf("hand-off to another process: %v", err)
	}
	if !lines.Scan() || lines.Text() != "got /tmp/x.piplug in /w" {
		t.Fatalf("helper said %q", lines.Text())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	p, err := Acquire(ctx, dir, Request{}, func(Request) {})
	if err != nil {
		t.Fatalf("after the first app was killed: %v", err)
	}
	p.Close()
}

// TestMain runs the first app of TestAcrossProcessesAndAfterACrash when
// started as that helper.
func TestMain(m *testing.M) {
	if dir := os.Getenv("PI_INSTANCE_HELPER_DIR"); dir != "" {
		helperPrimary(dir)
		return
	}
	os.Exit(m.Run())
}

func helperPrimary(dir string) {
	p, err := Acquire(context.Background(), dir, Request{}, func(r Request) {
		fmt.Printf("got %s in %s\n", strings.Join(r.Args, " "), r.Dir)
	})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	defer p.Close()
	fmt.Println("ready")
	time.Sleep(time.Minute)
}

// The socket answers this user alone, whatever the umask.
func TestTheSocketIsTheUsersAlone(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := Acquire(t.Context(), dir, Request{}, func(Request) {})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	fi, err := os.Stat(socketPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("socket mode %o, want 600", perm)
	}
}
