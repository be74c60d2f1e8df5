package search

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
}

// walkFiles calls fn for every visible regular file below root, in
// deterministic order, with its '/'-separated path relative to root. fn may
// return errStop to end the walk. Unreadable directories are skipped, as rg
// skips them.
func walkFiles(ctx context.Context, root string, opts walkOptions, fn func(rel string) error) error {
	canon, err := canonicalDir(root)
	if err != nil {
		return err
	}
	stack := ancestorRules(canon)
	err = walkDir(ctx, canon, "", stack, opts, fn)
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

// ancestorRules loads the ignore files of every ancestor of dir, outermost
// first, and of dir itself.
func ancestorRules(dir string) ruleStack {
	var dirs []string
	for d := dir; ; {
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

func walkDir(ctx context.Context, dir, rel string, stack ruleStack, opts walkOptions, fn func(string) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil
	}
	base := filepath.ToSlash(dir)
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
			if opts.descend != nil && !opts.descend(childRel) {
				continue
			}
			child := filepath.Join(dir, name)
			if err := walkDir(ctx, child, childRel, append(stack, loadDirRules(child)), opts, fn); err != nil {
				return err
			}
			continue
		}
		if err := fn(childRel); err != nil {
			return err
		}
	}
	return nil
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
