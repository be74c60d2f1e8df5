package pathguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// RootCache remembers root canonicalisations between Resolvers, so building
// one per tool call costs two Lstats per root instead of a walk of every
// component (issue #9 budget). Targets are never cached: Resolve walks each
// one afresh.
//
// An entry for a directory d holds canon = canonicalize(d) and what Lstat
// said of d and of canon when it was made. It is used only when both Lstats
// again show a real directory (not a link) and the same file. Then d and
// canon reach the same directory now, so:
//   - d swapped for a link, replaced by another directory, or removed fails
//     the check and d is canonicalised afresh;
//   - the only change that passes is an ancestor of canon turned into a link
//     that leads to the same place (a parent moved and linked back). canon
//     then names, through that link, the very folder it named before
//     (Lstat identity: device and inode), so a path walked from it down
//     (Resolve, see canonicalBelowRoot) lands in that folder and operations
//     open that folder; a path walked whole classifies as outside and asks.
//     Scratch and visualization paths are always walked whole, since their
//     base folder must be a real one (spec §4b.1).
//
// A zero RootCache is ready; it is safe for concurrent use.
type RootCache struct {
	mu     sync.Mutex
	m      map[string]rootEntry
	absent map[string]struct{} // roots found missing when last looked for
}

type rootEntry struct {
	canon       string
	dir, target fs.FileInfo // Lstat of the directory and of canon
}

// maxRootEntries bounds the cache (a few roots per session in use); when it
// is full it starts over.
const maxRootEntries = 1024

// canonicalRoot is canonicalize(given) for a root, through c when c is set.
// A root that does not exist yet is its parent's canonical form plus its
// name, the parent's form cached the same way.
func (c *RootCache) canonicalRoot(given string) (string, error) {
	canon, _, err := c.canonicalRootSeen(given)
	return canon, err
}

// rootSeen is what canonicalRootSeen's own Lstats showed of a root folder
// and its parent, so New does not ask the disk the same questions again
// (issue #24: they were three of the eight syscalls of building a
// Resolver). A fact is only set when that Lstat was made; the others are
// left for the caller to look up.
type rootSeen struct {
	dir, parent known
	// realDir: Lstat of given showed a real directory and given is its own
	// canonical form, so a Stat of canon would say it is a directory.
	realDir bool
	// canonInfo is an Lstat of canon that showed a real directory, taken
	// when canon was confirmed as given's canonical form (nil when none
	// was): the identity Resolve and openDir check the root against.
	canonInfo fs.FileInfo
}

// known is a fact about one path: whether it was looked at, and then
// whether it was absent or a real directory (realDirOrMissing).
type known struct{ looked, ok bool }

// or returns the fact, or realDirOrMissing(p) when it was not looked at.
func (k known) or(p string) bool {
	if k.looked {
		return k.ok
	}
	return realDirOrMissing(p)
}

// canonicalRootSeen is canonicalRoot, also returning what it saw.
//
// A root found missing last time (a session's scratch or visualization
// folder before its first use) is looked for after its parent, which
// spares the Lstat that would only find it missing again: its parent is
// looked at, then it, as the re-check below does. Found after all, it is
// taken as any existing root.
func (c *RootCache) canonicalRootSeen(given string) (string, rootSeen, error) {
	var seen rootSeen
	if c == nil {
		canon, err := canonicalize(given)
		return canon, seen, err
	}
	absent := c.wasAbsent(given)
	if !absent {
		if fi, err := os.Lstat(given); err == nil {
			return c.existingRoot(given, fi)
		} else if !os.IsNotExist(err) {
			canon, err := canonicalize(given)
			return canon, seen, err
		}
	}
	parent := filepath.Dir(given)
	if parent == given {
		canon, err := canonicalize(given)
		return canon, seen, err
	}
	pfi, err := os.Lstat(parent)
	if err != nil {
		canon, err := canonicalize(given)
		return canon, seen, err
	}
	pc, _, err := c.canonicalDir(parent, pfi)
	if err != nil {
		return "", seen, err
	}
	// Check the root is (still) missing: had it appeared meanwhile, its
	// own form (it may be a link) is the answer, not the parent's plus name.
	fi, err := os.Lstat(given)
	if err == nil && absent {
		c.setAbsent(given, false)
		return c.existingRoot(given, fi)
	}
	if !os.IsNotExist(err) {
		c.setAbsent(given, false)
		canon, err := canonicalize(given)
		return canon, seen, err
	}
	c.setAbsent(given, true)
	seen.parent = known{looked: true, ok: realDirInfo(pfi)}
	seen.dir = known{looked: true, ok: true} // missing, as that last Lstat said
	return filepath.Join(pc, filepath.Base(given)), seen, nil
}

// existingRoot is canonicalRootSeen for a root given whose Lstat, fi, just
// found it.
func (c *RootCache) existingRoot(given string, fi fs.FileInfo) (string, rootSeen, error) {
	var seen rootSeen
	canon, cfi, err := c.canonicalDir(given, fi)
	seen.canonInfo = cfi
	seen.dir = known{looked: true, ok: realDirInfo(fi)}
	seen.realDir = err == nil && canon == given && realDirInfo(fi)
	return canon, seen, err
}

// wasAbsent reports whether given was missing when last looked for.
func (c *RootCache) wasAbsent(given string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.absent[given]
	return ok
}

func (c *RootCache) setAbsent(given string, absent bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !absent {
		delete(c.absent, given)
		return
	}
	if c.absent == nil || len(c.absent) >= maxRootEntries {
		c.absent = map[string]struct{}{}
	}
	c.absent[given] = struct{}{}
}

// canonicalDir returns canonicalize(dir); fi is a fresh Lstat of dir. When
// the answer was confirmed (dir and canon the same real directory), it
// also returns the Lstat of canon that showed it; otherwise nil.
func (c *RootCache) canonicalDir(dir string, fi fs.FileInfo) (string, fs.FileInfo, error) {
	if !realDirInfo(fi) {
		canon, err := canonicalize(dir)
		return canon, nil, err
	}
	c.mu.Lock()
	e, ok := c.m[dir]
	c.mu.Unlock()
	if ok && os.SameFile(e.dir, fi) {
		tfi := fi
		if e.canon != dir {
			tfi, _ = os.Lstat(e.canon)
		}
		if tfi != nil && realDirInfo(tfi) && os.SameFile(e.target, tfi) {
			return e.canon, tfi, nil
		}
	}
	canon, err := canonicalize(dir)
	if err != nil {
		return "", nil, err
	}
	// Cache only what was seen consistently: dir, checked before the walk,
	// and canon, checked after it, must be the same directory.
	tfi, err := os.Lstat(canon)
	if err != nil || !realDirInfo(tfi) || !os.SameFile(fi, tfi) {
		c.forget(dir)
		return canon, nil, nil
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxRootEntries {
		c.m = map[string]rootEntry{}
	}
	c.m[dir] = rootEntry{canon: canon, dir: fi, target: tfi}
	c.mu.Unlock()
	return canon, tfi, nil
}

func (c *RootCache) forget(dir string) {
	c.mu.Lock()
	delete(c.m, dir)
	c.mu.Unlock()
}

// realDirInfo reports whether fi (from Lstat) is a directory that is not a link
// or other reparse point.
func realDirInfo(fi fs.FileInfo) bool {
	return fi.IsDir() && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) == 0
}
