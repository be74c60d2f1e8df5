package fileindex

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/search"
)

// tree is the index's listing, folder by folder, so a change in one folder
// is applied by listing that folder again.
type tree struct {
	dirs  map[string]*dirNode // '/'-separated folder path relative to the root, "" = root
	files int
}

type dirNode struct {
	files   []string // paths relative to the root of the folder's files
	folded  []string // fold of each of files, for matching
	subdirs []string // names of its visible folders
}

func newTree() *tree { return &tree{dirs: map[string]*dirNode{"": {}}} }

func dirOf(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

func baseOf(rel string) string { return rel[strings.LastIndexByte(rel, '/')+1:] }

// below reports whether rel lies strictly inside folder dir.
func below(dir, rel string) bool {
	if dir == "" {
		return rel != ""
	}
	return len(rel) > len(dir) && rel[len(dir)] == '/' && strings.HasPrefix(rel, dir)
}

func (t *tree) addDir(rel string) {
	t.dirs[rel] = &dirNode{}
	if p := t.dirs[dirOf(rel)]; p != nil {
		p.subdirs = append(p.subdirs, baseOf(rel))
	}
}

func (t *tree) addFile(rel string) {
	if n := t.dirs[dirOf(rel)]; n != nil {
		n.files = append(n.files, rel)
		n.folded = append(n.folded, fold(rel))
		t.files++
	}
}

// flatten is the list queries scan.
func (t *tree) flatten() list {
	l := list{paths: make([]string, 0, t.files), folded: make([]string, 0, t.files)}
	for _, n := range t.dirs {
		l.paths = append(l.paths, n.files...)
		l.folded = append(l.folded, n.folded...)
	}
	return l
}

// list is what queries scan: paths and their folds, index for index.
type list struct{ paths, folded []string }

func (l *list) add(rel string) {
	l.paths = append(l.paths, rel)
	l.folded = append(l.folded, fold(rel))
}

// frozen is l with its capacity cut, so later appends never write where a
// reader of this copy looks.
func (l list) frozen() list {
	return list{l.paths[:len(l.paths):len(l.paths)], l.folded[:len(l.folded):len(l.folded)]}
}

// drop removes folder d and everything below it, and unwatches them.
func (t *tree) drop(root, d string, w *watchSet) {
	for rel, n := range t.dirs {
		if rel == d || below(d, rel) {
			t.files -= len(n.files)
			delete(t.dirs, rel)
			w.remove(filepath.Join(root, filepath.FromSlash(rel)))
		}
	}
	if d == "" {
		t.dirs[""] = &dirNode{}
		return
	}
	if p := t.dirs[dirOf(d)]; p != nil {
		name := baseOf(d)
		for i, s := range p.subdirs {
			if s == name {
				p.subdirs = append(p.subdirs[:i:i], p.subdirs[i+1:]...)
				break
			}
		}
	}
}

// rescan lists folder d again with the walker's rules (so the ignore files
// of every folder above it apply): its files, its folders, and whole any
// folder that is new to the index; with recursive, everything below d. A
// folder no longer visible (gone, or now ignored) is dropped with its
// subtree. It returns the folders it started to watch: files made in them
// between their listing and their watch have no event, so the caller lists
// them once more.
//
// Watches of vanished folders are removed before new ones are added: a
// folder renamed keeps its inotify watch, and adding its new path would
// otherwise revive the watch under the old name.
func (t *tree) rescan(ctx context.Context, root, d string, recursive bool, w *watchSet) ([]string, error) {
	sub := &tree{dirs: map[string]*dirNode{d: {}}}
	seen := d == ""
	err := search.WalkVisible(ctx, root, func(rel string) bool {
		switch {
		case rel == d:
			seen = true
			return true
		case below(d, rel):
			if !recursive && dirOf(rel) == d && t.dirs[rel] != nil {
				// A folder the index knows: its own events keep it fresh.
				sub.dirs[d].subdirs = append(sub.dirs[d].subdirs, baseOf(rel))
				return false
			}
			sub.addDir(rel)
			return true
		case below(rel, d):
			return true // on the way down to d
		}
		return false
	}, func(rel string) error {
		sub.addFile(rel)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) || errs.CodeOf(err) == errs.NotFound {
		t.drop(root, "", w)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !seen {
		t.drop(root, d, w)
		return nil, nil
	}
	kept := map[string]bool{}
	for _, name := range sub.dirs[d].subdirs {
		child := name
		if d != "" {
			child = d + "/" + name
		}
		if sub.dirs[child] == nil {
			kept[child] = true
		}
	}
	for rel, n := range t.dirs {
		if rel != d && !below(d, rel) {
			continue
		}
		if rel != d && keptBy(kept, d, rel) {
			continue
		}
		t.files -= len(n.files)
		delete(t.dirs, rel)
		if sub.dirs[rel] == nil {
			w.remove(filepath.Join(root, filepath.FromSlash(rel)))
		}
	}
	var added []string
	for rel, n := range sub.dirs {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if !w.watching(abs) {
			if err := w.add(abs); err != nil {
				return nil, err
			}
			added = append(added, rel)
		}
		t.dirs[rel] = n
		t.files += len(n.files)
	}
	return added, nil
}

// keptBy reports whether rel (below d) lies in one of the kept child
// folders of d.
func keptBy(kept map[string]bool, d, rel string) bool {
	rest := rel
	if d != "" {
		rest = rel[len(d)+1:]
	}
	child := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		child = rest[:i]
	}
	if d != "" {
		child = d + "/" + child
	}
	return kept[child]
}
