package plugin

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Install limits (issue 22): what a plugin may unpack to.
const (
	MaxEntries       = 2000
	MaxUnpackedBytes = 50 << 20
)

// File is one regular file of a plugin, as the consent hash covers it.
type File struct {
	Path   string `json:"path"` // slash-separated, relative to the plugin folder
	Size   int64  `json:"size"`
	Exec   bool   `json:"exec,omitempty"`
	SHA256 string `json:"sha256"`
}

func refused(format string, a ...any) error {
	return errs.New(errs.PluginArchiveRefused, format+"; nothing was installed", a...)
}

// limits checks entries one by one as they are met, before any is
// written: their count, their names (relative, no .., no duplicates, no
// two differing only in case, which would collide on macOS and Windows)
// and the bytes they unpack to.
type limits struct {
	entries int
	total   int64
	files   map[string]string // case-folded path → as spelled
	dirs    map[string]bool   // case-folded paths of implied folders
}

func newLimits() *limits { return &limits{files: map[string]string{}, dirs: map[string]bool{}} }

// entry admits one name (slash-separated); dir says it names a folder.
func (l *limits) entry(name string, dir bool) (string, error) {
	l.entries++
	if l.entries > MaxEntries {
		return "", refused("the plugin has more than %d entries", MaxEntries)
	}
	clean, err := cleanName(name)
	if err != nil {
		return "", err
	}
	key := strings.ToLower(clean)
	if dir {
		if _, isFile := l.files[key]; isFile {
			return "", refused("%q is both a file and a folder (or they differ only in case)", clip(clean))
		}
		l.dirs[key] = true
		return clean, nil
	}
	if prev, dup := l.files[key]; dup {
		return "", refused("%q and %q name the same file (duplicates, or names differing only in case)", clip(prev), clip(clean))
	}
	if l.dirs[key] {
		return "", refused("%q is both a file and a folder (or they differ only in case)", clip(clean))
	}
	for d := path.Dir(clean); d != "."; d = path.Dir(d) {
		dk := strings.ToLower(d)
		if _, isFile := l.files[dk]; isFile {
			return "", refused("%q is both a file and a folder (or they differ only in case)", clip(d))
		}
		l.dirs[dk] = true
	}
	l.files[key] = clean
	return clean, nil
}

// cleanName refuses an absolute path, a drive or volume name, a
// backslash, a NUL or control character and any "." or ".." element.
func cleanName(name string) (string, error) {
	n := strings.TrimSuffix(name, "/")
	switch {
	case n == "":
		return "", refused("an entry has an empty name")
	case strings.HasPrefix(n, "/") || isAbs(n):
		return "", refused("entry %q has an absolute path", clip(name))
	case strings.ContainsRune(n, '\\') || strings.ContainsRune(n, ':'):
		return "", refused("entry %q has a backslash or a colon in its name", clip(name))
	case hasControl(n):
		return "", refused("entry %q has a control character in its name", clip(name))
	}
	for _, part := range strings.Split(n, "/") {
		if part == "" || part == "." || part == ".." {
			return "", refused("entry %q has an empty, '.' or '..' path element", clip(name))
		}
	}
	return n, nil
}

// budget is what may still be unpacked.
func (l *limits) budget() int64 { return MaxUnpackedBytes - l.total }

// add counts n more unpacked bytes.
func (l *limits) add(n int64) error {
	l.total += n
	if l.total > MaxUnpackedBytes {
		return refused("the plugin unpacks to more than %d MB", MaxUnpackedBytes>>20)
	}
	return nil
}

// scanFolder walks a plugin folder without following links and returns
// its files with their hashes, sorted by path. A link, a device, a pipe or
// a socket anywhere refuses the folder, as do the install limits.
func scanFolder(dir string) ([]File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, errs.Wrap(err, errs.PluginInvalid, "cannot open the plugin folder %s", dir)
	}
	defer root.Close()
	l := newLimits()
	var files []File
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		mode := d.Type()
		switch {
		case mode&fs.ModeSymlink != 0:
			return refused("%q is a symbolic link; a plugin holds only files and folders", clip(p))
		case mode.IsDir():
			_, err := l.entry(p, true)
			return err
		case !mode.IsRegular():
			return refused("%q is not a regular file (a device, pipe or socket)", clip(p))
		}
		name, err := l.entry(p, false)
		if err != nil {
			return err
		}
		f, err := root.Open(filepath.FromSlash(p))
		if err != nil {
			return err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() { // swapped since the walk listed it
			return refused("%q is not a regular file", clip(p))
		}
		h := sha256.New()
		n, err := io.Copy(h, io.LimitReader(f, l.budget()+1))
		if err != nil {
			return err
		}
		if err := l.add(n); err != nil {
			return err
		}
		files = append(files, File{Path: name, Size: n, Exec: fi.Mode()&0o111 != 0, SHA256: hex.EncodeToString(h.Sum(nil))})
		return nil
	})
	if err != nil {
		if errs.As(err) != nil {
			return nil, err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errs.Wrap(err, errs.PluginInvalid, "the plugin folder %s changed while it was read; try again", dir)
		}
		return nil, errs.Wrap(err, errs.PluginInvalid, "cannot read the plugin folder %s", dir)
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// ConsentHash is what a consent is given to: the manifest's bytes and
// every file's path, exec bit and content hash. Any change to any of them
// asks for consent again.
func ConsentHash(manifest []byte, files []File) string {
	h := sha256.New()
	str := func(v string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(v)))
		h.Write(n[:])
		h.Write([]byte(v))
	}
	str("pi-desktop/plugin-consent/v1")
	str(string(manifest))
	str(strconv.Itoa(len(files)))
	for _, f := range files {
		str(f.Path)
		str(strconv.FormatBool(f.Exec))
		str(f.SHA256)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
