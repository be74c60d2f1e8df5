package proc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// A cgroup v2 leaf per command tree, where the session may create one (a
// delegated cgroup: systemd's user@UID.service and the app scopes under it,
// or root). Every process of the tree is born in the leaf (the runner starts
// the shell with CLONE_INTO_CGROUP), and writing "1" to its cgroup.kill
// kills all of them at once, setsid descendants of a runner that died by
// SIGKILL included, which the subreaper alone cannot reach. Without a leaf
// the subreaper is the owner, as before.

const leafPrefix = "pi-run-"

// cgroupSelfDir is the cgroup v2 directory of this process.
func cgroupSelfDir() (string, error) {
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	return cgroupDir(string(cg), string(mi))
}

// cgroupDir joins the cgroup2 mount (from mountinfo: /sys/fs/cgroup, or
// /sys/fs/cgroup/unified on a hybrid system) with the v2 path of
// /proc/self/cgroup ("0::/path").
func cgroupDir(cgroup, mountinfo string) (string, error) {
	var rel string
	found := false
	for _, l := range strings.Split(cgroup, "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok {
			rel, found = p, true
			break
		}
	}
	if !found || !strings.HasPrefix(rel, "/") {
		return "", errors.New("no cgroup v2 entry in /proc/self/cgroup")
	}
	for _, line := range strings.Split(mountinfo, "\n") {
		// id parent maj:min root mountpoint opts [optional...] - fstype source superopts
		i := strings.Index(line, " - ")
		if i < 0 || !strings.HasPrefix(line[i+3:], "cgroup2 ") {
			continue
		}
		f := strings.Fields(line[:i])
		if len(f) < 5 {
			continue
		}
		root, mnt := unescapeMount(f[3]), unescapeMount(f[4])
		sub := rel
		if root != "/" {
			var ok bool
			if sub, ok = strings.CutPrefix(rel, root); !ok || (sub != "" && sub[0] != '/') {
				continue // the mount shows another part of the hierarchy
			}
		}
		return filepath.Join(mnt, sub), nil
	}
	return "", errors.New("no cgroup2 mount")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			n := (int(s[i+1]-'0') << 6) | (int(s[i+2]-'0') << 3) | int(s[i+3]-'0')
			b.WriteByte(byte(n))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// newLeaf creates an empty leaf cgroup for one command tree beside the
// host's processes, or says why it cannot.
func newLeaf() (string, error) {
	base, err := cgroupSelfDir()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(base, leafPrefix)
	if err != nil {
		return "", err
	}
	// The root cgroup has no cgroup.kill; a leaf has it from Linux 5.14.
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		removeLeaf(dir)
		return "", errors.New("cgroup.kill is missing (Linux before 5.14)")
	}
	return dir, nil
}

// killLeaf kills whatever is left in the leaf and removes it. It waits up
// to bound for the leaf to empty (a process in uninterruptible sleep dies
// late) and reports whether it did.
func killLeaf(dir string, bound time.Duration) bool {
	if removeLeaf(dir) {
		return true
	}
	deadline := time.Now().Add(bound)
	for {
		_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
		if !leafPopulated(dir) && removeLeaf(dir) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// removeLeaf removes the leaf; true when it is gone (or was already).
func removeLeaf(dir string) bool {
	err := syscall.Rmdir(dir)
	return err == nil || errors.Is(err, syscall.ENOENT)
}

func leafPopulated(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.events"))
	if err != nil {
		return false
	}
	return !bytes.Contains(b, []byte("populated 0"))
}
