package pathguard

import (
	"os"
	"path/filepath"
	"strings"
)

// within reports whether p is root or below it, comparing whole components
// (so /p/proj_evil is not inside /p/proj). It returns the components of p
// below root and whether every root component matched exactly; with fold a
// component may also match case-insensitively. Both paths must be clean and
// absolute. Volume names (drive letters, UNC shares) always compare
// case-insensitively, as Windows does.
func within(rootDir, p string, fold bool) (tail []string, exact, ok bool) {
	rv, pv := filepath.VolumeName(rootDir), filepath.VolumeName(p)
	if !strings.EqualFold(rv, pv) {
		return nil, false, false
	}
	rc, pc := components(rootDir[len(rv):]), components(p[len(pv):])
	if len(pc) < len(rc) {
		return nil, false, false
	}
	exact = rv == pv
	for i := range rc {
		switch {
		case rc[i] == pc[i]:
		case fold && strings.EqualFold(rc[i], pc[i]):
			exact = false
		default:
			return nil, false, false
		}
	}
	return pc[len(rc):], exact, true
}

// prefixOf returns the first n components of the clean absolute path p.
func prefixOf(p string, n int) string {
	vol := filepath.VolumeName(p)
	pc := components(p[len(vol):])
	return vol + string(filepath.Separator) + filepath.Join(pc[:n]...)
}

// sameDirOnDisk confirms a case-folded match: spelled is rootDir spelled
// with different case. strings.EqualFold is not the file system's folding
// (the Kelvin sign folds to k, for one), so when the differently spelled
// directory exists it must be the root itself; when it does not exist, a
// case-insensitive volume would have found the root, so nothing can be
// reached through the spelling and the caller rewrites the path onto
// rootDir's spelling, where the operation really lands.
func sameDirOnDisk(rootDir, spelled string) bool {
	sfi, err := os.Lstat(spelled)
	if err != nil {
		return os.IsNotExist(err)
	}
	rfi, err := os.Lstat(rootDir)
	return err == nil && os.SameFile(rfi, sfi)
}
