package pathguard

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unicode"
)

// detectCaseInsensitive is the default Options.CaseInsensitive. Linux and
// the other Unix systems are treated as case-sensitive without probing. On
// darwin and windows, where both kinds of volume exist, it finds the
// nearest existing ancestor of dir whose name has letters, Lstats its
// case-swapped spelling and compares with os.SameFile. When nothing can be
// probed it assumes insensitive, the platform default; a wrong "insensitive"
// only widens matching to names sameDirOnDisk confirms on disk.
//
// The probe checks the volume of that ancestor, which is dir's volume unless
// a mount point sits in between.
func detectCaseInsensitive(dir string) bool {
	switch runtime.GOOS {
	case "darwin", "ios", "windows":
	default:
		return false
	}
	for d := dir; ; d = filepath.Dir(d) {
		base := filepath.Base(d)
		if swapped := swapCase(base); swapped != base {
			if fi, err := os.Lstat(d); err == nil {
				sfi, err := os.Lstat(filepath.Join(filepath.Dir(d), swapped))
				if err != nil {
					return !os.IsNotExist(err)
				}
				return os.SameFile(fi, sfi)
			}
		}
		if filepath.Dir(d) == d {
			return true
		}
	}
}

// swapCase turns upper-case letters to lower case and vice versa.
func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsUpper(r):
			return unicode.ToLower(r)
		case unicode.IsLower(r):
			return unicode.ToUpper(r)
		}
		return r
	}, s)
}
