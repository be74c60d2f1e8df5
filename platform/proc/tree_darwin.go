package proc

import (
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const waitOptions = 0

// sZomb is SZOMB in <sys/proc.h>.
const sZomb = 5

// tree is the runner's view of the processes it owns. macOS has no child
// subreaper: an orphan re-parents to launchd. The runner therefore tracks
// every descendant it has seen (pid and start time, so a reused pid is not
// mistaken for it) and keeps treating a tracked process, its descendants and
// the shell's process group as the tree after re-parenting. A process that
// double-forks and loses its parent between two scans (50 ms) can escape:
// that is the documented macOS limit.
type tree struct {
	self, shell int
	noChildren  <-chan struct{}
	leaf        string // always "": no cgroups

	mu    sync.Mutex
	known map[int32]unix.Timeval
}

func (t *tree) setup() error { return nil }

// No cgroups on macOS.
func (t *tree) intoLeaf(*syscall.SysProcAttr, string) func() { return nil }
func (t *tree) killLeaf()                                    {}
func (t *tree) dropLeaf()                                    {}

func (t *tree) startTracking() {
	go func() {
		for {
			if t.gone() {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
}

// gone reports whether the shell has been reaped and no tracked process is alive.
func (t *tree) gone() bool {
	select {
	case <-t.noChildren:
	default:
		_ = t.descendants() // keep tracking
		return false
	}
	return len(t.descendants()) == 0
}

func (t *tree) waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if t.gone() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (t *tree) descendants() []int {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return t.knownPids()
	}
	children := make(map[int32][]int32)
	start := make(map[int32]unix.Timeval, len(procs))
	var group []int32
	for i := range procs {
		kp := &procs[i]
		if kp.Proc.P_stat == sZomb {
			continue
		}
		pid := kp.Proc.P_pid
		start[pid] = kp.Proc.P_starttime
		children[kp.Eproc.Ppid] = append(children[kp.Eproc.Ppid], pid)
		if t.shell > 0 && kp.Eproc.Pgid == int32(t.shell) {
			group = append(group, pid)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	roots := []int32{int32(t.self)}
	for pid, st := range t.known {
		if cur, ok := start[pid]; ok && cur == st {
			roots = append(roots, pid)
		}
	}
	roots = append(roots, group...)
	seen := make(map[int32]bool)
	var out []int
	for len(roots) > 0 {
		p := roots[0]
		roots = roots[1:]
		if p != int32(t.self) {
			if seen[p] {
				continue
			}
			seen[p] = true
			out = append(out, int(p))
		}
		roots = append(roots, children[p]...)
	}
	known := make(map[int32]unix.Timeval, len(seen))
	for p := range seen {
		known[p] = start[p]
	}
	t.known = known
	return out
}

func (t *tree) knownPids() []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]int, 0, len(t.known))
	for p := range t.known {
		out = append(out, int(p))
	}
	return out
}
