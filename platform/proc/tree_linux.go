package proc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// __WALL: reap clone children too.
const waitOptions = syscall.WALL

// tree is the runner's view of the processes it owns. On Linux the runner is
// a child subreaper: every orphan of the tree re-parents to it, so the tree
// is exactly the runner's descendants, and "no child left" (ECHILD) means
// "no process of the tree left".
type tree struct {
	self, shell int
	noChildren  <-chan struct{}
	// leaf is the cgroup the shell was started in ("" = none).
	leaf string
}

// intoLeaf makes the shell start in the cgroup leaf dir (CLONE_INTO_CGROUP),
// so that every process of the tree is born there. It returns a func that
// releases the descriptor, or nil when the leaf cannot be opened.
func (t *tree) intoLeaf(sys *syscall.SysProcAttr, dir string) func() {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	sys.UseCgroupFD, sys.CgroupFD = true, fd
	return func() { _ = syscall.Close(fd) }
}

// killLeaf kills every process in the leaf at once, descendants that left
// the runner's view included.
func (t *tree) killLeaf() {
	if t.leaf != "" {
		_ = os.WriteFile(t.leaf+"/cgroup.kill", []byte("1"), 0)
	}
}

// dropLeaf removes the leaf once the tree is gone (the host removes it
// otherwise).
func (t *tree) dropLeaf() {
	if t.leaf != "" {
		_ = removeLeaf(t.leaf)
	}
}

func (t *tree) setup() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

func (t *tree) startTracking() {}

func (t *tree) gone() bool {
	select {
	case <-t.noChildren:
		return true
	default:
		return false
	}
}

func (t *tree) waitGone(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.noChildren:
		return true
	case <-timer.C:
		return false
	}
}

// descendants lists the live descendants of the runner from /proc.
func (t *tree) descendants() []int {
	return descendantsOf(t.self)
}

func descendantsOf(root int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := make(map[int][]int)
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, state, ok := readStat(pid)
		if !ok || state == 'Z' || state == 'X' {
			continue
		}
		children[ppid] = append(children[ppid], pid)
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// readStat returns the parent pid and state from /proc/<pid>/stat.
func readStat(pid int) (ppid int, state byte, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// comm may contain spaces and parentheses: fields follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+2:])
	if len(f) < 2 || len(f[0]) == 0 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(string(f[1]))
	return ppid, f[0][0], err == nil
}
