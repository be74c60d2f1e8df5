package hostcore

import (
	"github.com/pi-desktop/pi-desktop/backend/names"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// escapedSpelling lets the model pass back a path as tool output showed
// it: names are shown escaped (names.Escape: "a\nb.txt" for a name with a
// line break). When the spelling as given names nothing but its unescaped
// form names an existing file or folder inside the session's roots, the
// unescaped form is used. A spelling that exists as given always wins, and
// a path that exists neither way is taken as given (Write creates the
// name it was told). The result is resolved and checked like any path.
func escapedSpelling(r *pathguard.Resolver, p string) string {
	u, ok := names.Unescape(p)
	if !ok || u == p || exists(r, p) || !exists(r, u) {
		return p
	}
	return u
}

// exists reports whether p names something inside the session's roots;
// an external path is never probed before policy allows it.
func exists(r *pathguard.Resolver, p string) bool {
	res, err := r.Resolve(p)
	if err != nil || res.Root == pathguard.External {
		return false
	}
	_, err = r.Stat(res)
	return err == nil
}
