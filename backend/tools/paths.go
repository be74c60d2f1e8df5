package tools

import (
	"os"
	"path"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/search"
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
// after, and holds the folder the walk starts from (opened through the
// resolver, so the search never reaches its root by path; see
// search.Within). The walk skips the host's data folder.
type searchGuard struct {
	c      *Call
	before os.FileInfo
	within search.Within
}

func guardSearch(c *Call) (searchGuard, error) {
	fi, err := c.Resolver.Stat(*c.Target)
	if err != nil {
		return searchGuard{}, err
	}
	base, name, err := c.Resolver.OpenIn(*c.Target)
	if err != nil {
		return searchGuard{}, err
	}
	return searchGuard{c: c, before: fi, within: search.Within{Base: base, Name: name, Skip: c.Resolver.Protected}}, nil
}

// close releases the folder the search started from.
func (g searchGuard) close() { g.within.Base.Close() }

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
