package hostcore

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// maxProtectedDepth bounds how many folders above a target are probed.
const maxProtectedDepth = 128

// protectedTarget classifies where a change lands (issue 13, protected
// paths): by name (.git and the agent's configuration folders, anywhere in
// the tree and in any case), then by what the folders above it are on disk:
// a git dir whatever its name (a worktree's or submodule's, or one that a
// .git file points to), found as git finds one. It probes only names, never
// reports them, and anything it cannot read counts as not a git dir: the
// name rules still hold. Only folders inside the target's root are probed.
func protectedTarget(t pathguard.Resolved) permission.Protected {
	rel := t.Rel
	if t.Root == pathguard.External {
		// Nothing outside the session's roots is touched before it is
		// allowed, so an external target is classified by name only.
		return permission.ProtectedName(filepath.ToSlash(t.Abs), false)
	}
	if p := permission.ProtectedName(rel, t.Root == pathguard.Workspace); p != permission.NotProtected {
		return p
	}
	stop := t.RootDir
	dir := filepath.Dir(t.Abs)
	for range maxProtectedDepth {
		if isGitDir(dir) || gitFileCovers(dir, t.Abs, stop) {
			return permission.ProtectedGit
		}
		parent := filepath.Dir(dir)
		if dir == stop || parent == dir || !strings.HasPrefix(dir, stop) {
			break
		}
		dir = parent
	}
	return permission.NotProtected
}

// isGitDir reports whether dir looks like a repository's git dir: two of
// HEAD, objects/ and refs/. Git needs all three, but the two-of-three rule
// means a git dir assembled one file at a time by Write already needs a
// card for its last piece.
func isGitDir(dir string) bool {
	n := 0
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err == nil && fi.Mode().IsRegular() {
		n++
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dir, d)); err == nil && fi.IsDir() {
			n++
		}
	}
	return n >= 2
}

// gitFileCovers reports whether dir holds a .git file (a worktree's or
// submodule's) whose "gitdir:" line points at a folder holding target. The
// gitdir is only looked up on disk when it lies inside rootDir: a hostile
// repository's .git file may name a network share or an automount, and
// nothing outside the roots is touched before policy allows it (the target
// is inside rootDir, so a gitdir outside it can only hold it through a link,
// which the lexical comparison then misses safely: the name rules still hold).
func gitFileCovers(dir, target, rootDir string) bool {
	name := filepath.Join(dir, ".git")
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	// O_NONBLOCK: a FIFO swapped in after the Lstat must not block the call.
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	line, _ := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return false
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(dir, gitdir)
	}
	gitdir = filepath.Clean(gitdir)
	if !within(gitdir, rootDir) {
		return within(target, gitdir)
	}
	if real, err := filepath.EvalSymlinks(gitdir); err == nil {
		gitdir = real
	}
	return within(target, gitdir)
}

// within reports whether p is dir or below it (both clean).
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// protectedChange classifies everything a mutating call may write: its
// target and, for an Edit with MV, the destination. A destination that does
// not resolve is left to the tool, which refuses it.
// The destination it judged is pinned on call, so the tool refuses one that
// resolves elsewhere by the time it runs.
func protectedChange(tool tools.Tool, args json.RawMessage, resolver *pathguard.Resolver, target pathguard.Resolved, call *tools.Call) permission.Protected {
	p := protectedTarget(target)
	if m, ok := tool.(tools.Mover); ok {
		if dest := m.MoveTarget(args); dest != "" {
			call.MoveJudged = true
			if d, err := resolver.Resolve(dest); err == nil {
				call.MoveDest = d.Abs
				if p == permission.NotProtected {
					p = protectedTarget(d)
				}
			}
		}
	}
	return p
}
