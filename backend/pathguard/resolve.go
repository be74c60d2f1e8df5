package pathguard

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Resolve classifies the path spelling p. A relative p joins the workspace;
// an absolute p is tried against scratch and visualization before the
// workspace, else it is External. Only malformed spellings and link loops
// are errors: landing outside every root is a classification, not an error,
// because an outside path may still be approved (spec §4a).
func (r *Resolver) Resolve(p string) (Resolved, error) {
	res, _, err := r.ResolveTarget(p)
	return res, err
}

// ResolveTarget is Resolve, also returning what the resolution saw of the
// target itself when it looked at it last (a path walked from its root
// down, see canonicalBelowRoot): a pipeline's early shape check can use
// that instead of asking the disk again (issue #24). It is a fact of the
// resolution's moment; operations still go through OpenFile and the
// others, which resolve again.
func (r *Resolver) ResolveTarget(p string) (Resolved, Target, error) {
	if err := validate(p); err != nil {
		return Resolved{}, Target{}, err
	}
	relative := !filepath.IsAbs(p)
	var lex string
	if relative {
		lex = filepath.Join(r.workspace.canon, p)
	} else {
		lex = filepath.Clean(p)
	}
	canon, seen, err := r.canonicalize(lex)
	if err != nil {
		return Resolved{}, Target{}, err
	}
	// A case-folded match rewrites the root part of the path onto the
	// root's own spelling (see sameDirOnDisk). Where the differently cased
	// spelling did not exist, its tail was never walked on disk, so the
	// rewritten path is canonicalised and classified again until stable.
	for range maxLinkHops {
		res := r.classify(canon)
		if res.Abs == canon {
			if r.Protected(res.Abs) {
				return Resolved{}, Target{}, protectedErr(p, res.Abs)
			}
			res.Lexical = r.classifyLexical(lex, relative)
			return res, seen, nil
		}
		if canon, err = canonicalize(res.Abs); err != nil {
			return Resolved{}, Target{}, err
		}
		seen = Target{} // what was seen was of another spelling
	}
	return Resolved{}, Target{}, errs.New(errs.InvalidArgument, "the path %s keeps changing case through symbolic links; spell it as it is on disk", p).
		With("field", "path")
}

// classify places the canonical path abs in the first root that contains it.
func (r *Resolver) classify(abs string) Resolved {
	for _, rt := range r.ordered() {
		if !rt.enabled {
			continue
		}
		tail, exact, ok := within(rt.canon, abs, rt.fold)
		if !ok {
			continue
		}
		if !exact && !sameDirOnDisk(rt.canon, prefixOf(abs, len(components(rt.canon[len(filepath.VolumeName(rt.canon)):])))) {
			continue
		}
		rel := "."
		if len(tail) > 0 {
			rel = strings.Join(tail, "/")
		}
		return Resolved{
			Root:    rt.kind,
			Abs:     filepath.Join(append([]string{rt.canon}, tail...)...),
			RootDir: rt.canon,
			Rel:     rel,
		}
	}
	return Resolved{Root: External, Abs: abs, Rel: filepath.ToSlash(abs)}
}

// classifyLexical places the cleaned spelling lex without consulting the
// disk. It accepts a root's spelling as given as well as its canonical form,
// so a data directory reached through an alias (/var vs /private/var) still
// matches. Relative spellings only ever match the workspace: scratch and
// visualization are addressed by absolute path (spec §4b, §4b.1).
func (r *Resolver) classifyLexical(lex string, relative bool) Root {
	for _, rt := range r.ordered() {
		if !rt.enabled || (relative && rt.kind != Workspace) {
			continue
		}
		if _, _, ok := within(rt.canon, lex, rt.fold); ok {
			return rt.kind
		}
		if _, _, ok := within(rt.given, lex, rt.fold); ok {
			return rt.kind
		}
	}
	return External
}

// validate rejects spellings that cannot name a file. Each message names the
// next step, because the model reads it.
func validate(p string) error {
	bad := func(format string, args ...any) error {
		return errs.New(errs.InvalidArgument, format, args...).With("field", "path")
	}
	switch {
	case p == "":
		return bad("path is empty; pass a path relative to the workspace or an absolute path")
	case strings.IndexByte(p, 0) >= 0:
		return bad("path contains a NUL byte; remove it and pass the file's real name")
	}
	if !filepath.IsAbs(p) && (filepath.VolumeName(p) != "" || os.IsPathSeparator(p[0])) {
		// Windows: "C:foo" is relative to C:'s current directory and
		// "\foo" to the current drive; neither names a stable place.
		return bad("path %q is relative to a drive's current folder; pass a full path such as C:\\folder\\file or a workspace-relative path", p)
	}
	if runtime.GOOS == "windows" {
		rest := p[len(filepath.VolumeName(p)):]
		if strings.ContainsAny(rest, `:*?"<>|`) {
			// ':' would address an alternate data stream; the others are
			// never valid in Windows names.
			return bad("path %q contains a character Windows does not allow in names (: * ? \" < > |); remove it", p)
		}
	}
	return nil
}
