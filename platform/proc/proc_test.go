package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	// The test binary doubles as the runner, as the app binary does.
	if len(os.Args) > 1 && os.Args[1] == RunnerArg {
		os.Exit(RunnerMain(os.Args[2:]))
	}
	if os.Getenv(fakeHostEnv) != "" {
		os.Exit(fakeHost())
	}
	os.Exit(m.Run())
}

func TestClassifySpawnError(t *testing.T) {
	exhausted := []syscall.Errno{}
	other := []syscall.Errno{syscall.ENOENT, syscall.EACCES}
	for e := syscall.Errno(1); e < 20000; e++ {
		if isExhausted(e) {
			exhausted = append(exhausted, e)
		}
	}
	if len(exhausted) == 0 {
		t.Fatal("no errno classifies as exhausted")
	}
	for _, e := range exhausted {
		for name, err := range map[string]error{
			"bare":      e,
			"path":      &os.PathError{Op: "fork/exec", Path: "/bin/bash", Err: e},
			"syscall":   os.NewSyscallError("fork", e),
			"wrapped":   fmt.Errorf("proc: start the runner: %w", &os.PathError{Op: "fork/exec", Path: "x", Err: e}),
			"roundtrip": &os.PathError{Op: "start", Path: "x", Err: spawnErrno(spawnStatus(&os.PathError{Op: "fork/exec", Path: "x", Err: e}))},
		} {
			got := classifySpawnError(err)
			if !errors.Is(got, ErrResourceExhausted) {
				t.Errorf("%v/%s: not ErrResourceExhausted: %v", e, name, got)
			}
			if !errors.Is(got, e) {
				t.Errorf("%v/%s: lost the errno: %v", e, name, got)
			}
		}
	}
	for _, e := range other {
		if got := classifySpawnError(&os.PathError{Op: "fork/exec", Path: "x", Err: e}); errors.Is(got, ErrResourceExhausted) {
			t.Errorf("%v classified as exhausted", e)
		}
	}
	if classifySpawnError(nil) != nil {
		t.Error("nil not preserved")
	}
	if got := spawnErrno(status{SpawnErr: "boom"}); got.Error() != "boom" {
		t.Errorf("spawnErrno without errno = %v", got)
	}
}

func TestRunnerCreationFlags(t *testing.T) {
	for _, tc := range []struct {
		name      string
		inJob     bool
		limits    uint32
		breakaway bool
	}{
		{"no job", false, 0, false},
		{"job without breakaway", true, 0x2000, false},
		{"job grants breakaway", true, jobLimitBreakawayOK | 0x2000, true},
		{"silent breakaway only", true, 0x1000, false},
	} {
		f := runnerCreationFlags(tc.inJob, tc.limits)
		if f&createNoWindow == 0 {
			t.Errorf("%s: CREATE_NO_WINDOW missing", tc.name)
		}
		if got := f&createBreakawayFromJob != 0; got != tc.breakaway {
			t.Errorf("%s: breakaway = %v, want %v", tc.name, got, tc.breakaway)
		}
	}
}

// fakeHostEnv makes the test binary act as a host that starts one command
// (PI_PROC_TEST_SCRIPT, run by bash with PI_TEST_MARK=<marker>) and then
// blocks until it is killed: the host-crash case.
const fakeHostEnv = "PI_PROC_TEST_HOST"

// fakeHostNoCgroupEnv makes the fake host start its command without a leaf.
const fakeHostNoCgroupEnv = "PI_PROC_TEST_NOCGROUP"

func fakeHost() int {
	marker := os.Getenv(fakeHostEnv)
	p, err := Start(t0(), Spec{
		Path:      "bash",
		Args:      []string{"-c", os.Getenv("PI_PROC_TEST_SCRIPT")},
		Env:       append(os.Environ(), markerVar+"="+marker),
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
		KillGrace: 300 * time.Millisecond,
		noCgroup:  os.Getenv(fakeHostNoCgroupEnv) != "",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake host:", err)
		return 3
	}
	_, _ = p.Wait()
	return 0
}

const markerVar = "PI_TEST_MARK"

func t0() context.Context { return context.Background() }

type syncWriter struct {
	mu sync.Mutex
	b  []byte
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	return len(p), nil
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.b)
}
