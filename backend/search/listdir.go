package search

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// MaxDirEntries bounds one folder listing; a larger folder is cut
// (Truncated) and its files are found with the name filter instead.
const MaxDirEntries = 2000

// ListDirOptions is one folder of a tree browser.
type ListDirOptions struct {
	Root   string // absolute directory: the tree's top
	Within Within // as for Glob: pins Root and skips the data folder
	// Dir is the folder to list, '/'-separated and relative to Root ("" is
	// Root itself). Each of its components must be a visible folder, as the
	// listing of its parent showed it.
	Dir string
}

// DirEntry is one visible entry of a listed folder.
type DirEntry struct {
	Name string
	Dir  bool
}

// DirListing is a folder's visible entries: folders first, then files,
// each by name.
type DirListing struct {
	Entries   []DirEntry
	Truncated bool // more than MaxDirEntries entries
}

// ListDir lists one folder below Root with Glob's visibility rules (ignore
// files of the folder and its ancestors, no hidden entries, no links, no
// .git, only folders and regular files), so a tree browser shows what Glob
// would find. The folder is reached component by component through open
// handles: a hidden or ignored folder, a link, or one swapped for a link
// is NOT_FOUND, never followed.
func ListDir(ctx context.Context, opts ListDirOptions) (DirListing, error) {
	top, abs, err := openWalkRoot(opts.Within, opts.Root, "the folder listing")
	if err != nil {
		return DirListing{}, err
	}
	defer top.Close()
	dir := top
	defer func() { dir.Close() }() // the folder reached last; each one between is closed on the way
	stack := append(ancestorRules(filepath.Dir(abs), abs), rulesOf(abs, top, top, ""))
	rel := ""
	if opts.Dir != "" && opts.Dir != "." {
		for name := range strings.SplitSeq(opts.Dir, "/") {
			if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `\`) {
				return DirListing{}, invalidField("path", "%q is not a folder path relative to the workspace", opts.Dir)
			}
			childAbs := filepath.Join(abs, name)
			childRel := joinRel(rel, name)
			fi, err := dir.Lstat(name)
			if err != nil || !fi.IsDir() || fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 || name == ".git" ||
				!visible(stack, nil, filepath.ToSlash(childAbs), childRel, name, true) || opts.Within.skipped(abs, name) {
				return DirListing{}, errs.New(errs.NotFound, "%s is not a folder the file list shows", opts.Dir).With("field", "path")
			}
			child, err := openSame(dir, name, fi)
			if err != nil {
				return DirListing{}, errs.Wrap(err, errs.NotFound, "%s changed while it was opened; reload the list", opts.Dir).With("field", "path")
			}
			if dir != top {
				dir.Close()
			}
			dir = child
			stack = append(stack, rulesOf(childAbs, child, top, childRel))
			abs, rel = childAbs, childRel
		}
	}
	if err := ctx.Err(); err != nil {
		return DirListing{}, errs.Wrap(err, errs.ToolAborted, "the folder listing was cancelled")
	}
	entries, err := readDirIn(dir)
	if err != nil {
		return DirListing{}, errs.Wrap(err, errs.ToolFailed, "cannot list %s", abs)
	}
	out := DirListing{Entries: []DirEntry{}}
	base := strings.TrimSuffix(filepath.ToSlash(abs), "/")
	for _, e := range entries {
		name, typ := e.Name(), e.Type()
		if name == ".git" || typ&fs.ModeSymlink != 0 || (!typ.IsDir() && !typ.IsRegular()) {
			continue
		}
		if !visible(stack, nil, base+"/"+name, joinRel(rel, name), name, typ.IsDir()) || opts.Within.skipped(abs, name) {
			continue
		}
		if len(out.Entries) == MaxDirEntries {
			out.Truncated = true
			break
		}
		out.Entries = append(out.Entries, DirEntry{Name: name, Dir: typ.IsDir()})
	}
	slices.SortStableFunc(out.Entries, func(a, b DirEntry) int {
		if a.Dir != b.Dir {
			if a.Dir {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// rulesOf is the folder's ignore rules, from its own listing (a folder
// that cannot be listed has none: what it holds is not shown anyway). Its
// ignore files are read through top (rel is the folder's path there), so
// one that is a link is followed as the walk follows it.
func rulesOf(abs string, dir, top *os.Root, rel string) dirRules {
	entries, _ := readDirIn(dir)
	read := rootIgnoreReader(top)
	return loadDirRulesIn(abs, func(name string) []byte { return read(path.Join(rel, name)) }, entries)
}
