package pathguard

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Root names where a path lands. The values are the "root" field of tool
// results, so they are API.
type Root string

const (
	Workspace     Root = "workspace"
	Scratch       Root = "scratch"
	Visualization Root = "visualization"
	External      Root = "external"
	// Skill is the folder of one of the session's skills: read-only (Read,
	// Glob, Grep without a card; never a write), addressed by absolute path.
	Skill Root = "skill"
)

// Roots are the directories of one session, as the session service reports
// them. Paths must be absolute; they are canonicalised by New.
//
// In a temporary session Workspace and Scratch are the same folder. Scratch
// is checked first, so its files resolve with Root == Scratch, while a
// relative spelling is lexically Workspace (it never skips a card).
type Roots struct {
	Workspace     string // absolute; must exist (a project folder, or a temporary session's scratch dir)
	Scratch       string // absolute <data>/scratch/<sessionId>; may not exist yet; "" disables it
	Visualization string // absolute <data>/visualizations/<sessionId>; "" when the feature is off (then nothing classifies as Visualization)
	Data          string // absolute host data folder: refused to every tool except the roots above (protect.go); "" disables the rule
	// Skills are the folders of the session's skills (absolute): read-only
	// roots, classified after the others, so a skill folder inside the
	// workspace stays the workspace's (with its cards), and only a folder
	// elsewhere (the user's, or the project's seen from a worktree) becomes
	// Skill. A skill folder in the data folder is exempt from Data.
	Skills []string
}

// Options tune a Resolver. The zero value is correct; a long-lived caller
// sets Roots to make New cheap.
type Options struct {
	// CaseInsensitive reports whether the volume holding dir compares names
	// case-insensitively. nil = detect: on darwin and windows probe the root
	// with a case-swapped Lstat + os.SameFile (true when undecidable), on
	// every other GOOS false. Tests inject it to exercise folding on Linux.
	CaseInsensitive func(dir string) bool
	// Roots, when set, keeps root canonicalisations between Resolvers built
	// with it (see RootCache); nil canonicalises every root afresh.
	Roots *RootCache
}

// Resolved is the result of resolving one path spelling.
type Resolved struct {
	// Root is where the path really lands, after canonicalisation. Policy
	// and execution use this.
	Root Root
	// Lexical is where the spelling lands before the disk is consulted. It
	// may only be used to skip an approval card for a scratch or
	// visualization write, and only together with Root having the same
	// value: a link planted in scratch that points into the project has
	// Lexical == Scratch but Root == Workspace. Relative spellings are only
	// ever lexically Workspace or External (scratch and visualization are
	// addressed by absolute path).
	Lexical Root
	// Abs is the canonical absolute path: the existing prefix with symlinks
	// resolved, the missing tail re-attached, cleaned. Inside a root it is
	// spelled with RootDir as its prefix, so filepath.Join(RootDir, Rel)
	// equals Abs.
	Abs string
	// RootDir is the canonical root directory ("" for External).
	RootDir string
	// Rel is Abs relative to RootDir with '/' separators ("." for the root
	// itself); for External it is Abs in forward-slash form.
	Rel string
}

// Resolver classifies paths against one session's roots. It holds no
// mutable state and is safe for concurrent use.
type Resolver struct {
	workspace, scratch, viz root
	skills                  []root
	order                   []*root // classification order (ordered)
	data                    dataDir
	// afterRecheck, when set by a test, runs between the pre-execution
	// re-resolution and the os.Root operation, so a test can swap a link
	// into exactly the window os.Root has to defend.
	afterRecheck func()
}

// root is one configured root directory.
type root struct {
	kind    Root
	enabled bool
	given   string // cleaned spelling from Roots: lexical matches accept it (data-dir aliases)
	canon   string // canonical directory: classification compares against this
	fold    bool   // the volume compares names case-insensitively
	// realDir: while New built it, an Lstat showed canon itself a real
	// directory (so New's check that the workspace is a folder is done).
	realDir bool
	// canonInfo is what an Lstat of canon showed while New confirmed it
	// canonical, or nil: a later Lstat that finds the same directory there
	// lets Resolve walk only below canon, and openDir skip re-walking it.
	canonInfo fs.FileInfo
}

// New canonicalises roots. The workspace must be an existing directory.
// Scratch and visualization may not exist yet; their deepest existing
// ancestor is canonicalised. A scratch or visualization folder (or its base
// folder in the data directory) that is a symlink or junction is ignored,
// so nothing classifies into it: spec §4b.1 requires real directories, and a
// redirected data folder must not turn, say, the project into an
// auto-allowed scratch root.
func New(roots Roots, opts Options) (*Resolver, error) {
	caseFn := opts.CaseInsensitive
	if caseFn == nil {
		caseFn = detectCaseInsensitive
	}
	r := &Resolver{}
	var err error
	if r.workspace, err = newRoot(Workspace, "workspace", roots.Workspace, caseFn, opts.Roots); err != nil {
		return nil, err
	}
	if err := checkWorkspaceDir(r.workspace, roots.Workspace); err != nil {
		return nil, err
	}
	if r.scratch, err = newRoot(Scratch, "scratch", roots.Scratch, caseFn, opts.Roots); err != nil {
		return nil, err
	}
	if r.viz, err = newRoot(Visualization, "visualization", roots.Visualization, caseFn, opts.Roots); err != nil {
		return nil, err
	}
	for _, dir := range roots.Skills {
		sk, err := newRoot(Skill, "skill", dir, caseFn, opts.Roots)
		if err != nil {
			return nil, err
		}
		if sk.enabled && realDirOrMissing(sk.canon) && sk.canon != filepath.Dir(sk.canon) {
			r.skills = append(r.skills, sk)
		}
	}
	if r.data, err = newDataDir(roots.Data, r.workspace, caseFn, opts.Roots); err != nil {
		return nil, err
	}
	r.order = append(r.order, &r.scratch, &r.viz, &r.workspace)
	for i := range r.skills {
		r.order = append(r.order, &r.skills[i])
	}
	return r, nil
}

// newRoot builds one root; an empty dir gives a disabled root.
func newRoot(kind Root, field, dir string, caseFn func(string) bool, cache *RootCache) (root, error) {
	if dir == "" {
		if kind == Workspace {
			return root{}, errs.New(errs.InvalidArgument, "the session has no workspace folder; bind the session to a project or use its scratch folder").
				With("field", field)
		}
		return root{kind: kind}, nil
	}
	if !filepath.IsAbs(dir) {
		return root{}, errs.New(errs.InvalidArgument, "the %s folder %q is not an absolute path; pass the absolute folder path", field, dir).
			With("field", field)
	}
	given := filepath.Clean(dir)
	canon, seen, err := cache.canonicalRootSeen(given)
	if err != nil {
		return root{}, err
	}
	r := root{kind: kind, enabled: true, given: given, canon: canon, fold: caseFn(canon), realDir: seen.realDir, canonInfo: seen.canonInfo}
	if kind != Workspace && !(seen.parent.or(filepath.Dir(given)) && seen.dir.or(given)) {
		r.enabled = false
	}
	return r, nil
}

// checkWorkspaceDir requires the workspace root to be an existing folder;
// an Lstat made while canonicalising it may already have shown that.
func checkWorkspaceDir(ws root, given string) error {
	if ws.realDir {
		return nil
	}
	fi, err := os.Stat(ws.canon)
	if err != nil || !fi.IsDir() {
		return errs.Wrap(err, errs.NotFound,
			"the workspace folder %s does not exist or is not a folder; re-bind the project to an existing folder", given).
			With("field", "workspace")
	}
	return nil
}

// realDirOrMissing reports whether p is absent or a real directory (not a
// symlink, junction or other reparse point). Ancestors of p may be aliases.
func realDirOrMissing(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return os.IsNotExist(err)
	}
	return fi.IsDir() && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) == 0
}

// ordered lists the roots in classification order: scratch and
// visualization before the workspace, so a data folder nested inside a
// project stays controlled (spec §4b.1); the skill folders last.
func (r *Resolver) ordered() []*root { return r.order }
