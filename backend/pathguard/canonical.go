package pathguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// maxLinkHops bounds the dangling-link walk (live links are resolved by
// filepath.EvalSymlinks, which has its own bound). It matches Linux's
// MAXSYMLINKS-style limits closely enough to reject loops quickly.
const maxLinkHops = 40

// canonicalize returns the canonical form of the clean absolute path p: the
// longest existing prefix with every symlink resolved, followed by the
// missing tail. A dangling link is replaced by its target, resolved
// lexically against the link's directory, because that is where a create
// through the link would land; the walk then continues from there, so a
// dangling link can never be classified by its own location.
//
// The common case (everything exists) is one EvalSymlinks call; the walk is
// for paths with a missing part.
func canonicalize(p string) (string, error) {
	if c, err := filepath.EvalSymlinks(p); err == nil {
		return c, nil
	}
	vol := filepath.VolumeName(p)
	cur := vol + string(filepath.Separator)
	todo := components(p[len(vol):])
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case ".":
			continue
		case "..":
			// cur is canonical (no links), so its lexical parent is its
			// physical parent.
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			// Missing (or unreadable: the OS cannot traverse it either).
			// Fold the rest lexically; if it still starts with this
			// component, nothing below can exist and the walk is done.
			rest := filepath.Clean(filepath.Join(append([]string{c}, todo...)...))
			if rest == c || strings.HasPrefix(rest, c+string(filepath.Separator)) {
				return filepath.Join(cur, rest), nil
			}
			todo = components(rest)
			continue
		}
		if fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) == 0 {
			cur = next
			continue
		}
		// A link (or, on Windows, a junction reported as irregular). A live
		// one is resolved whole by the OS-aware EvalSymlinks.
		if real, err := filepath.EvalSymlinks(next); err == nil {
			cur = real
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			if fi.Mode()&fs.ModeSymlink == 0 {
				cur = next // irregular but not a link: an ordinary entry
				continue
			}
			return "", errs.Wrap(err, errs.ToolFailed, "cannot read the symbolic link %s; check its permissions and retry", next)
		}
		if hops++; hops > maxLinkHops {
			return "", errs.New(errs.InvalidArgument, "the path %s goes through a symbolic link loop; fix or remove the links and retry", p).
				With("field", "path")
		}
		tvol := filepath.VolumeName(target)
		if tvol != "" || filepath.IsAbs(target) || (target != "" && os.IsPathSeparator(target[0])) {
			if tvol == "" {
				tvol = filepath.VolumeName(cur)
			}
			cur = tvol + string(filepath.Separator)
			target = target[len(filepath.VolumeName(target)):]
		}
		todo = append(components(target), todo...)
	}
	return cur, nil
}

// components splits a volume-less path into its non-empty components.
func components(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r < 0x80 && os.IsPathSeparator(uint8(r)) })
}
