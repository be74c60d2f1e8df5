package search

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// errStop ends a walk early without being an error.
var errStop = errors.New("search: stop walk")

// ignoreFileNames are read in every directory, highest precedence first.
var ignoreFileNames = [...]string{".rgignore", ".ignore", ".gitignore"}

// dirRules are the ignore files of one directory.
type dirRules struct {
	abs    string // '/'-separated absolute path, no trailing slash (except a volume root)
	files  [len(ignoreFileNames)]*ignoreFile
	hasGit bool // the directory holds a ".git" entry: .gitignore above it does not apply
}

// loadDirRules reads the ignore files of an ancestor of the search root,
// by path: they lie above the root, as in rg.
func loadDirRules(dir string) dirRules {
	d := dirRules{abs: filepath.ToSlash(dir)}
	for i, name := range ignoreFileNames {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			d.files[i] = parseIgnoreFile(data)
		}
	}
	_, err := os.Stat(filepath.Join(dir, ".git"))
	d.hasGit = err == nil
	return d
}

// loadDirRulesIn reads the ignore files of a walked folder through read
// (its handle, so a link in it cannot lead the read out of the tree).
// entries is the folder's sorted listing: only the names it holds are
// opened.
func loadDirRulesIn(abs string, read ignoreReader, entries []fs.DirEntry) dirRules {
	d := dirRules{abs: filepath.ToSlash(abs)}
	for i, name := range ignoreFileNames {
		if !listed(entries, name) {
			continue
		}
		if data := read(name); data != nil {
			d.files[i] = parseIgnoreFile(data)
		}
	}
	d.hasGit = listed(entries, ".git")
	return d
}

// ignoreReader reads one ignore file of a folder: nil if it cannot be read
// (as if it were absent, as rg does).
type ignoreReader func(name string) []byte

// readIgnoreFile is the walk's ignoreReader for dir: a regular file is
// read through the folder's descriptor, anything else (a link, which rg
// follows wherever it points) through the walk's top folder, so a link
// is followed only while it stays inside it.
func (dir *dirRef) readIgnoreFile(name string) []byte {
	var buf []byte
	if data, err := dir.files.read(name, &buf); err == nil {
		return data
	}
	return rootIgnoreReader(dir.top)(path.Join(dir.rel, name))
}

// rootIgnoreReader reads ignore files through root.
func rootIgnoreReader(root *os.Root) ignoreReader {
	return func(name string) []byte {
		data, _ := root.ReadFile(name)
		return data
	}
}

// listed reports whether the sorted listing holds name.
func listed(entries []fs.DirEntry, name string) bool {
	_, ok := slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	return ok
}

// relTo returns full relative to d, or ok=false when full is not below d.
func (d *dirRules) relTo(full string) (string, bool) {
	prefix := d.abs
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if !strings.HasPrefix(full, prefix) {
		return "", false
	}
	return full[len(prefix):], true
}

// ruleStack is the chain of directories from the filesystem root down to
// the directory being listed.
type ruleStack []dirRules

// match combines the chain the way rg does: per kind of ignore file the
// deepest directory with a matching line wins, .gitignore stops at the
// nearest directory holding .git, and .rgignore > .ignore > .gitignore.
func (s ruleStack) match(full string, isDir bool) verdict {
	var found [len(ignoreFileNames)]verdict
	sawGit := false
	for i := len(s) - 1; i >= 0; i-- {
		d := &s[i]
		rel, ok := d.relTo(full)
		if !ok {
			continue
		}
		for k, f := range d.files {
			if f == nil || found[k] != noMatch {
				continue
			}
			if k == 2 && sawGit {
				continue
			}
			found[k] = f.match(rel, isDir)
		}
		sawGit = sawGit || d.hasGit
	}
	for _, v := range found {
		if v != noMatch {
			return v
		}
	}
	return noMatch
}

// walkOptions tune a walk.
type walkOptions struct {
	include *override
	// descend, when set, prunes directories (rel to the root) that cannot
	// hold a result. It is an optimisation only.
	descend func(rel string) bool
	// skip, when set, leaves out folders at these absolute paths.
	skip func(abs string) bool
}

// walkFile is one file the walk found: name in the open folder dir, rel
// from the search root ('/'-separated). dir is valid during the callback;
// a callback that reads later acquires it first.
type walkFile struct {
	dir       *dirRef
	name, rel string
}

// walkFiles calls fn for every visible regular file below root, in
// deterministic order, with its '/'-separated path relative to root. fn may
// return errStop to end the walk. Unreadable directories are skipped, as rg
// skips them.
func walkFiles(ctx context.Context, root string, opts walkOptions, fn func(rel string) error) error {
	top, file, err := openSearchRoot(Within{}, root)
	if err != nil {
		return err
	}
	defer top.Close()
	if file != "" {
		return errNotSearchable
	}
	canon, err := canonicalDir(root)
	if err != nil {
		return err
	}
	return walkTree(ctx, top, canon, opts, func(f walkFile) error { return fn(f.rel) })
}

// walkTree walks the open folder top, whose path is abs (used to match
// ignore rules and for skip; never to open anything).
func walkTree(ctx context.Context, top *os.Root, abs string, opts walkOptions, fn func(walkFile) error) error {
	own, err := top.OpenRoot(".") // the walk closes its handles; top stays the caller's
	if err != nil {
		return err
	}
	dir := newDirRef(own)
	defer dir.release()
	err = walkDir(ctx, dir, abs, "", ancestorRules(filepath.Dir(abs), abs), opts, fn)
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// canonicalDir resolves symlinks in root, as rg canonicalizes the root to
// find the ignore files of its ancestors.
func canonicalDir(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return abs, nil
}

// ancestorRules loads, by path, the ignore files of dir and every ancestor
// of it, outermost first. dir is the parent of the search root self; a
// volume root is its own parent and has no ancestors (dir == self).
func ancestorRules(dir, self string) ruleStack {
	var dirs []string
	for d := dir; d != self; {
		dirs = append(dirs, d)
		p := filepath.Dir(d)
		if p == d {
			break
		}
		d = p
	}
	stack := make(ruleStack, 0, len(dirs)+8)
	for i := len(dirs) - 1; i >= 0; i-- {
		stack = append(stack, loadDirRules(dirs[i]))
	}
	return stack
}

// walkDir walks the open folder dir at abs; stack holds the rules of the
// folders above it.
func walkDir(ctx context.Context, dir *dirRef, abs, rel string, stack ruleStack, opts walkOptions, fn func(walkFile) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := listKeeping(dir)
	if err != nil {
		return nil
	}
	stack = append(stack, loadDirRulesIn(abs, dir.readIgnoreFile, entries))
	base := filepath.ToSlash(abs)
	for _, e := range entries {
		name := e.Name()
		typ := e.Type()
		if name == ".git" || typ&fs.ModeSymlink != 0 {
			continue
		}
		isDir := typ.IsDir()
		if !isDir && !typ.IsRegular() {
			continue
		}
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		if !visible(stack, opts.include, strings.TrimSuffix(base, "/")+"/"+name, childRel, name, isDir) {
			continue
		}
		if isDir {
			childAbs := filepath.Join(abs, name)
			if (opts.descend != nil && !opts.descend(childRel)) || (opts.skip != nil && opts.skip(childAbs)) {
				continue
			}
			if err := walkChild(ctx, dir, name, childAbs, childRel, stack, opts, fn); err != nil {
				return err
			}
			continue
		}
		if err := fn(walkFile{dir: dir, name: name, rel: childRel}); err != nil {
			return err
		}
	}
	return nil
}

// walkChild walks the folder name of dir, if it is still a real folder
// (openChild); a folder swapped for a link, or gone, is skipped.
func walkChild(ctx context.Context, dir *dirRef, name, abs, rel string, stack ruleStack, opts walkOptions, fn func(walkFile) error) error {
	ref, err := openChild(dir, name)
	if err != nil {
		return nil
	}
	defer ref.release()
	return walkDir(ctx, ref, abs, rel, stack, opts, fn)
}

// openChildByRoot opens the folder name of dir through dir's os.Root, if
// it is still the real folder the listing showed: a link swapped in since
// is refused.
func openChildByRoot(dir *dirRef, name string) (*dirRef, error) {
	fi, err := dir.root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() || fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, errRootChanged
	}
	child, err := openSame(dir.root, name, fi)
	if err != nil {
		return nil, err
	}
	ref := newDirRef(child)
	ref.top, ref.rel = dir.top, path.Join(dir.rel, name)
	return ref, nil
}

// readDirIn lists an open folder sorted by name, as os.ReadDir does.
func readDirIn(dir *os.Root) ([]fs.DirEntry, error) {
	f, err := dir.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := listDir(f)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// listKeeping lists dir as readDirIn does, through a handle its file
// reads then use too.
func listKeeping(dir *dirRef) ([]fs.DirEntry, error) {
	var (
		entries []fs.DirEntry
		err     error
	)
	if f := dir.plain; f != nil { // opened by openChild: a plain handle lists as it is
		dir.plain = nil
		entries, err = f.ReadDir(-1)
		dir.files.adopt(f)
	} else {
		f, oerr := dir.root.Open(".")
		if oerr != nil {
			return nil, oerr
		}
		entries, err = listDir(f)
		dir.files.adopt(f)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// visible applies, in rg's order, the include override, then the ignore
// files, then hiddenness.
func visible(stack ruleStack, include *override, full, rel, name string, isDir bool) bool {
	switch include.match(rel, isDir) {
	case ignored:
		return false
	case whitelist:
		return true
	}
	switch stack.match(full, isDir) {
	case ignored:
		return false
	case whitelist:
		return true
	}
	return !strings.HasPrefix(name, ".")
}
