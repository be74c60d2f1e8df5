package pathguard

import (
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// The host's data folder (Roots.Data) holds the database, the stored keys,
// logs and every session's scratch, visualization and worktree folders. No
// tool may reach it, in any mode and with or without approval: Resolve
// refuses a target in it with PATH_PROTECTED, so every tool is covered,
// and walks skip it through Protected. The session's own scratch and
// visualization roots are exempt, and so is its workspace when that lies
// strictly inside the data folder (an isolated session's worktree).

// dataDir is the protected data folder of a Resolver.
type dataDir struct {
	enabled bool
	canon   string
	fold    bool
	// exemptWorkspace: the workspace lies strictly inside the data folder.
	exemptWorkspace bool
}

// newDataDir canonicalises the data folder like a root; "" disables it.
func newDataDir(dir string, workspace root, caseFn func(string) bool, cache *RootCache) (dataDir, error) {
	if dir == "" {
		return dataDir{}, nil
	}
	if !filepath.IsAbs(dir) {
		return dataDir{}, errs.New(errs.InvalidArgument, "the data folder %q is not an absolute path; pass the absolute folder path", dir).
			With("field", "data")
	}
	canon, err := cache.canonicalRoot(filepath.Clean(dir))
	if err != nil {
		return dataDir{}, err
	}
	d := dataDir{enabled: true, canon: canon, fold: caseFn(canon)}
	tail, _, ok := within(canon, workspace.canon, false)
	d.exemptWorkspace = ok && len(tail) > 0
	return d, nil
}

// Protected reports whether the canonical absolute path abs lies in the
// host's data folder outside the session's own roots. The data folder
// matches case-folded on a case-insensitive volume (wider, so safer); the
// exemptions match only exactly as their roots are spelled.
func (r *Resolver) Protected(abs string) bool {
	d := &r.data
	if !d.enabled {
		return false
	}
	if _, _, ok := within(d.canon, abs, d.fold); !ok {
		return false
	}
	for _, rt := range [...]*root{&r.scratch, &r.viz} {
		if _, _, ok := within(rt.canon, abs, false); rt.enabled && ok {
			return false
		}
	}
	for i := range r.skills {
		// <data dir>/skills/<name>: readable as a skill root, never more
		// (the policy refuses writes there).
		if _, _, ok := within(r.skills[i].canon, abs, false); ok {
			return false
		}
	}
	if _, _, ok := within(r.workspace.canon, abs, false); d.exemptWorkspace && ok {
		return false
	}
	return true
}

// protectedErr refuses a path in the data folder. The message names what
// to do instead, because the model reads it.
func protectedErr(spelled, abs string) error {
	return errs.New(errs.PathProtected,
		"%s is inside PI-Desktop's own data folder (database, keys, logs, other sessions), which no tool may read or change; work in the project folder, or in this session's scratch folder", spelled).
		With("field", "path").With("path", filepath.ToSlash(abs))
}
