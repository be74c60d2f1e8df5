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

// refused is a broken install rule. Its message says what is wrong and
// what to do; Stage adds that nothing was installed, since Check and Pack
// report the same problems without installing anything.
func refused(format string, a ...any) error {
	return errs.New(errs.PluginArchiveRefused, format, a...)
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
		return "", refused("the plugin has more than %d entries; leave out what it does not need at run time (sources, tests, caches)", MaxEntries)
	}
	clean, err := cleanName(name)
	if err != nil {
		return "", err
	}
	key := strings.ToLower(clean)
	if dir {
		if _, isFile := l.files[key]; isFile {
			return "", refused("%q is both a file and a folder (or they differ only in case); rename one", clip(clean))
		}
		l.dirs[key] = true
		return clean, nil
	}
	if prev, dup := l.files[key]; dup {
		return "", refused("%q and %q name the same file (duplicates, or names differing only in case); rename or remove one", clip(prev), clip(clean))
	}
	if l.dirs[key] {
		return "", refused("%q is both a file and a folder (or they differ only in case); rename one", clip(clean))
	}
	for d := path.Dir(clean); d != "."; d = path.Dir(d) {
		dk := strings.ToLower(d)
		if _, isFile := l.files[dk]; isFile {
			return "", refused("%q is both a file and a folder (or they differ only in case); rename one", clip(d))
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
		return "", refused("entry %q has an absolute path; pack the plugin folder's contents with relative names", clip(name))
	case strings.ContainsRune(n, '\\') || strings.ContainsRune(n, ':'):
		return "", refused("entry %q has a backslash or a colon in its name; rename it", clip(name))
	case hasControl(n):
		return "", refused("entry %q has a control character in its name; rename it", clip(name))
	}
	for _, part := range strings.Split(n, "/") {
		if part == "" || part == "." || part == ".." {
			return "", refused("entry %q has an empty, '.' or '..' path element; pack the plugin folder's contents with plain relative names", clip(name))
		}
	}
	return n, nil
}

// over reports a broken entry or byte limit: nothing after it is judged.
func (l *limits) over() bool { return l.entries > MaxEntries || l.total > MaxUnpackedBytes }

// budget is what may still be unpacked.
func (l *limits) budget() int64 { return MaxUnpackedBytes - l.total }

// add counts n more unpacked bytes.
func (l *limits) add(n int64) error {
	l.total += n
	if l.total > MaxUnpackedBytes {
		return refused("the plugin unpacks to more than %d MB; leave out what it does not need at run time (sources, tests, caches)", MaxUnpackedBytes>>20)
	}
	return nil
}

// scanFolder walks a plugin folder without following links and returns
// its files with their hashes, sorted by path. A link, a device, a pipe or
// a socket anywhere refuses the folder, as do the install limits; the
// error lists every such problem (scanAll).
func scanFolder(dir string) ([]File, error) {
	files, problems := scanAll(dir)
	if len(problems) > 0 {
		return nil, refusal(problems)
	}
	return files, nil
}

// scanAll walks a plugin folder as scanFolder does but goes on past a bad
// entry, so an author sees every one at once: each problem names its entry
// (File) in walk order, which is lexical. Only the entry and byte limits
// stop the walk, since what follows them is not judged.
func scanAll(dir string) ([]File, []Problem) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, []Problem{problemOf(errs.Wrap(err, errs.PluginInvalid, "cannot open the plugin folder %s; check that it exists and is a folder", dir))}
	}
	defer root.Close()
	l := newLimits()
	var files []File
	var problems []Problem
	bad := func(p string, err error) {
		pr := problemOf(err)
		pr.File = shownName(p)
		problems = append(problems, pr)
	}
	_ = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				bad(p, errs.Wrap(err, errs.PluginInvalid, "it changed while the folder was read; check again"))
			} else {
				bad(p, errs.Wrap(err, errs.PluginInvalid, "cannot be read (%s); fix its permissions or remove it", reasonOf(err)))
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == "." {
			return nil
		}
		mode := d.Type()
		switch {
		case mode&fs.ModeSymlink != 0:
			bad(p, refused("a symbolic link; a plugin holds only files and folders: copy what it points to in its place, or remove it"))
			return nil
		case mode.IsDir():
			if _, err := l.entry(p, true); err != nil {
				bad(p, err)
				if l.over() {
					return fs.SkipAll
				}
				return fs.SkipDir // its entries would repeat the problem
			}
			return nil
		case !mode.IsRegular():
			bad(p, refused("not a regular file (a device, pipe or socket); remove it"))
			return nil
		}
		name, err := l.entry(p, false)
		if err != nil {
			bad(p, err)
			if l.over() {
				return fs.SkipAll
			}
			return nil
		}
		f, err := hashFile(root, p, l)
		if err != nil {
			bad(p, err)
			if l.over() {
				return fs.SkipAll
			}
			return nil
		}
		f.Path = name
		files = append(files, f)
		return nil
	})
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, problems
}

// hashFile reads one regular file of root through the byte budget.
func hashFile(root *os.Root, p string, l *limits) (File, error) {
	f, err := root.Open(filepath.FromSlash(p))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, errs.Wrap(err, errs.PluginInvalid, "it changed while the folder was read; check again")
		}
		return File{}, errs.Wrap(err, errs.PluginInvalid, "cannot be read (%s); fix its permissions or remove it", reasonOf(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return File{}, errs.Wrap(err, errs.PluginInvalid, "cannot be read (%s); fix its permissions or remove it", reasonOf(err))
	}
	if !fi.Mode().IsRegular() { // swapped since the walk listed it
		return File{}, refused("not a regular file; remove it")
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, l.budget()+1))
	if err != nil {
		return File{}, errs.Wrap(err, errs.PluginInvalid, "cannot be read (%s); fix its permissions or remove it", reasonOf(err))
	}
	if err := l.add(n); err != nil {
		return File{}, err
	}
	return File{Size: n, Exec: fi.Mode()&0o111 != 0, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// shownName is an entry's name as a problem list shows it: clipped, and
// with control characters escaped, so a name cannot rewrite the line it
// is printed on.
func shownName(name string) string {
	if hasControl(name) || Misleading(name) {
		q := strconv.QuoteToASCII(name)
		return clip(q[1 : len(q)-1])
	}
	return clip(name)
}

// reasonOf is an error's text without the path its problem already names.
func reasonOf(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// refusal is the error of an install check that found problems: the first
// in its message with how many there are, every one in its details
// ("problems"). A broken install rule anywhere makes it
// PLUGIN_ARCHIVE_REFUSED, else it is the first problem's code.
func refusal(list []Problem) error {
	code := list[0].Code
	for _, p := range list {
		if p.Code == errs.PluginArchiveRefused {
			code = p.Code
		}
	}
	if code == "" {
		code = errs.PluginInvalid
	}
	first := list[0].Where() + ": " + list[0].Message
	if len(list) == 1 {
		return errs.New(code, "%s", first).With("problems", list).With("field", list[0].Field).With("file", list[0].File)
	}
	return errs.New(code, "%s, the first: %s; %s lists them all", count(len(list), "problem"), first, CheckToolName).With("problems", list)
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
