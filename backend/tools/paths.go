package tools

import (
	"os"
	"path"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// DisplayPath is how a resolved path appears to the model: workspace paths
// are '/'-separated and relative; scratch, visualization and external paths
// are absolute, because the model addresses those roots by absolute path.
func DisplayPath(r pathguard.Resolved) string {
	if r.Root == pathguard.Workspace {
		return r.Rel
	}
	return filepath.ToSlash(r.Abs)
}

// joinDisplay appends a '/'-separated result path to a display directory.
func joinDisplay(dir, rel string) string {
	if dir == "." || dir == "" {
		return rel
	}
	return path.Join(dir, rel)
}

// searchGuard pins the identity of a search root before a walk and checks it
// after: the engines walk by path, so a root swapped for a link while they
// ran would have led them elsewhere, and their results are dropped.
type searchGuard struct {
	c      *Call
	before os.FileInfo
}

func guardSearch(c *Call) (searchGuard, error) {
	fi, err := c.Resolver.Stat(*c.Target)
	return searchGuard{c: c, before: fi}, err
}

func (g searchGuard) check() error {
	t := *g.c.Target
	again, err := g.c.Resolver.Resolve(t.Abs)
	if err == nil && again.Root == t.Root && again.Abs == t.Abs {
		if fi, err := g.c.Resolver.Stat(t); err == nil && os.SameFile(fi, g.before) {
			return nil
		}
	}
	return errs.New(errs.PathOutsideWorkspace, "%s changed while it was being searched; nothing is reported. Retry the call", DisplayPath(t)).With("field", "path")
}
