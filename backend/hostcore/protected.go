package hostcore

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

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
		if isGitDir(dir) || gitFileCovers(dir, t.Abs) {
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
// submodule's) whose "gitdir:" line points at a folder holding target.
func gitFileCovers(dir, target string) bool {
	fi, err := os.Lstat(filepath.Join(dir, ".git"))
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(filepath.Join(dir, ".git"))
	if err != nil {
		return false
	}
	defer f.Close()
	line, _ := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return false
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(dir, gitdir)
	}
	if real, err := filepath.EvalSymlinks(gitdir); err == nil {
		gitdir = real
	}
	gitdir = filepath.Clean(gitdir)
	return target == gitdir || strings.HasPrefix(target, gitdir+string(filepath.Separator))
}

// protectedChange classifies everything a mutating call may write: its
// target and, for an Edit with MV, the destination. A destination that does
// not resolve is left to the tool, which refuses it.
func protectedChange(tool tools.Tool, args json.RawMessage, resolver *pathguard.Resolver, target pathguard.Resolved) permission.Protected {
	if p := protectedTarget(target); p != permission.NotProtected {
		return p
	}
	if m, ok := tool.(tools.Mover); ok {
		if dest := m.MoveTarget(args); dest != "" {
			if d, err := resolver.Resolve(dest); err == nil {
				return protectedTarget(d)
			}
		}
	}
	return permission.NotProtected
}
