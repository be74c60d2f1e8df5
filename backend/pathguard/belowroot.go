package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"strings"
)

// canonicalize is the package's canonicalize(lex) for a Resolver: a path
// lexically inside one of its roots is walked from that root down, and
// anything else (or any surprise on the way) takes the whole walk.
// The walk from a root also tells what it saw of lex itself (Target).
func (r *Resolver) canonicalize(lex string) (string, Target, error) {
	if canon, seen, ok := r.canonicalBelowRoot(lex); ok {
		return canon, seen, nil
	}
	canon, err := canonicalize(lex)
	return canon, Target{}, err
}

// Target is what a Resolve saw of the path itself on its way, when it
// looked (see Resolver.ResolveTarget): either its Lstat, of an entry that
// is no link, or that it is missing. The zero Target knows nothing.
type Target struct {
	Info    fs.FileInfo
	Missing bool
}

// Known reports whether the walk saw the target.
func (t Target) Known() bool { return t.Info != nil || t.Missing }

// canonicalBelowRoot returns canonicalize(lex) when lex, clean and
// absolute, lies lexically inside the workspace or a skill folder (a root
// New confirmed canonical) and an Lstat of that root finds the very
// directory New saw (root.canonInfo, device and inode). That Lstat stands
// for the walk of the root's ancestors, four or five syscalls of every
// Resolve (issue #24), with the RootCache's reasoning: the one change it
// lets through is an ancestor turned into a link that leads to the same
// place, and then the path is physically inside the root it is classified
// in, and operations open that very folder (openDir checks the identity).
// Below the root every component is looked at, as EvalSymlinks does: a
// link, an irregular entry or an error other than "missing" gives up (ok
// false) and leaves the path to the whole walk. A missing component ends
// the walk with lex itself, which is what canonicalize returns for a
// missing part of a clean path. The last Lstat is lex's own: the Target.
//
// Not on Windows, where EvalSymlinks also restores each name's case as
// stored on disk.
func (r *Resolver) canonicalBelowRoot(lex string) (string, Target, bool) {
	if runtime.GOOS == "windows" {
		return "", Target{}, false
	}
	// Scratch and visualization must be real folders down to their base
	// folder in the data directory (spec §4b.1), which only the whole walk
	// sees: a path inside one of them (a temporary session's workspace is
	// its scratch folder) is walked whole.
	for _, rt := range [...]*root{&r.scratch, &r.viz} {
		if _, ok := belowDir(rt.canon, lex); ok {
			return "", Target{}, false
		}
	}
	for _, rt := range r.order {
		start, ok := belowDir(rt.canon, lex)
		if !ok || !rt.enabled || rt.canonInfo == nil {
			continue
		}
		fi, err := os.Lstat(rt.canon)
		if err != nil || !realDirInfo(fi) || !os.SameFile(fi, rt.canonInfo) {
			return "", Target{}, false
		}
		// lex[start] is the separator before each component below the root.
		for end := start; end < len(lex); {
			next := strings.IndexByte(lex[end+1:], '/')
			if end = len(lex); next >= 0 {
				end = start + 1 + next
			}
			if fi, err = os.Lstat(lex[:end]); errors.Is(err, fs.ErrNotExist) {
				return lex, Target{Missing: true}, true
			}
			if err != nil || fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
				return "", Target{}, false
			}
			start = end
		}
		return lex, Target{Info: fi}, true
	}
	return "", Target{}, false
}

// belowDir reports whether the clean path p is dir or lies below it, and
// where in p the separator that ends dir's part stands (len(p) when p is
// dir). Byte for byte: a spelling in another case takes the whole walk.
func belowDir(dir, p string) (int, bool) {
	if dir == "" || !strings.HasPrefix(p, dir) {
		return 0, false
	}
	if len(p) == len(dir) {
		return len(p), true
	}
	if strings.HasSuffix(dir, "/") { // the file system's root
		return len(dir) - 1, true
	}
	if p[len(dir)] != '/' {
		return 0, false
	}
	return len(dir), true
}
