package plugin

import (
	"archive/zip"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// ArchiveExt is the extension of a packed plugin (a zip).
const ArchiveExt = ".piplug"

// Staged is a plugin that passed every install check and was copied into
// a staging folder beside the installed ones: nothing of it is installed
// (nor run) until Commit.
type Staged struct {
	Manifest      Manifest
	ManifestBytes []byte
	Files         []File
	// Hash is the consent hash of what Commit installs.
	Hash string

	dir        string // the staging folder
	pluginsDir string
	unused     []Problem // set by CheckContent
}

// Stage checks src, a plugin folder or a .piplug file, and copies it into
// a staging folder under pluginsDir. Every check comes before anything is
// written: the entry count, names, links and devices, the manifest, and
// for an archive the bytes it really unpacks to (each entry decompressed
// once through a hard limit, whatever its header claims). Errors:
// PLUGIN_ARCHIVE_REFUSED, PLUGIN_INVALID.
func Stage(src, pluginsDir string) (*Staged, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return nil, errs.Wrap(err, errs.NotFound, "%s cannot be read; give a plugin folder or a %s file", src, ArchiveExt)
	}
	var s *Staged
	if fi.IsDir() {
		s, err = stageFolder(src, pluginsDir)
	} else {
		s, err = stageArchive(src, pluginsDir)
	}
	if e := errs.As(err); e != nil && e.Code == errs.PluginArchiveRefused {
		c := *e
		c.Message += "; nothing was installed"
		return nil, &c
	}
	return s, err
}

func stageFolder(src, pluginsDir string) (*Staged, error) {
	files, err := scanFolder(src)
	if err != nil {
		return nil, err
	}
	data, err := readManifest(os.DirFS(src), files)
	if err != nil {
		return nil, err
	}
	if _, err := checkManifest(data); err != nil {
		return nil, err
	}
	srcRoot, err := os.OpenRoot(src)
	if err != nil {
		return nil, errs.Wrap(err, errs.PluginInvalid, "cannot open the plugin folder %s", src)
	}
	defer srcRoot.Close()
	return stageWith(pluginsDir, func(dst *os.Root) error {
		l := newLimits()
		for _, f := range files {
			if err := copyInto(dst, f.Path, f.Exec, l, func() (io.ReadCloser, error) { return srcRoot.Open(filepath.FromSlash(f.Path)) }); err != nil {
				return err
			}
		}
		return nil
	})
}

func stageArchive(src, pluginsDir string) (*Staged, error) {
	if !strings.EqualFold(filepath.Ext(src), ArchiveExt) {
		return nil, errs.New(errs.InvalidArgument, "%s is neither a folder nor a %s file", src, ArchiveExt)
	}
	zr, err := zip.OpenReader(src)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, refused("%s is not a readable zip archive", filepath.Base(src))
	}
	if zr == nil {
		return nil, refused("%s is not a readable zip archive", filepath.Base(src))
	}
	defer zr.Close()
	// Pass one writes nothing: names, types and every entry's real
	// decompressed size, through the shared hard limit.
	if len(zr.File) > MaxEntries {
		return nil, refused("the archive has %d entries, more than %d", len(zr.File), MaxEntries)
	}
	l := newLimits()
	var manifest []byte
	var problems []Problem
	bad := func(name string, err error) {
		p := problemOf(err)
		p.File = shownName(name)
		problems = append(problems, p)
	}
	// Every bad entry is reported, not only the first; a broken limit ends
	// the pass, since what follows it is not judged.
	for _, f := range zr.File {
		if l.over() {
			break
		}
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			bad(f.Name, refused("a symbolic link; a plugin holds only files and folders: pack what it points to in its place"))
			continue
		case mode.IsDir() || strings.HasSuffix(f.Name, "/"):
			if _, err := l.entry(f.Name, true); err != nil {
				bad(f.Name, err)
			}
			continue
		case !mode.IsRegular():
			bad(f.Name, refused("not a regular file (a device, pipe or socket)"))
			continue
		}
		name, err := l.entry(f.Name, false)
		if err != nil {
			bad(f.Name, err)
			continue
		}
		var keep io.Writer = io.Discard
		var buf strings.Builder
		if name == ManifestName {
			keep = &buf
		}
		n, err := unpack(f, keep, l.budget())
		if err == nil {
			err = l.add(n)
		}
		if err != nil {
			bad(f.Name, err)
			continue
		}
		if name == ManifestName {
			manifest = []byte(buf.String())
		}
	}
	if len(problems) > 0 {
		return nil, refusal(problems)
	}
	if manifest == nil {
		return nil, errs.New(errs.PluginInvalid, "the archive has no %s at its root; pack the plugin folder's contents, not the folder", ManifestName).With("field", "")
	}
	if _, err := checkManifest(manifest); err != nil {
		return nil, err
	}
	return stageWith(pluginsDir, func(dst *os.Root) error {
		l := newLimits()
		for _, f := range zr.File {
			if f.Mode().IsDir() || strings.HasSuffix(f.Name, "/") {
				name, err := l.entry(f.Name, true)
				if err != nil {
					return err
				}
				if err := dst.MkdirAll(filepath.FromSlash(name), 0o755); err != nil {
					return err
				}
				continue
			}
			if err := copyInto(dst, strings.TrimSuffix(f.Name, "/"), f.Mode()&0o111 != 0, l, f.Open); err != nil {
				return err
			}
		}
		return nil
	})
}

// unpack decompresses f into w, refusing more than budget bytes: the hard
// limit is on what comes out, not on what the header says.
func unpack(f *zip.File, w io.Writer, budget int64) (int64, error) {
	rc, err := f.Open()
	if err != nil {
		return 0, refused("entry %q cannot be decompressed", clip(f.Name))
	}
	defer rc.Close()
	n, err := io.Copy(w, io.LimitReader(rc, budget+1))
	if n > budget {
		return n, refused("the plugin unpacks to more than %d MB", MaxUnpackedBytes>>20)
	}
	if err != nil {
		return n, refused("entry %q is corrupt (%v); pack the plugin again", clip(f.Name), err)
	}
	return n, nil
}

// copyInto writes one file into dst through the limits again (the source
// may have changed since it was checked), never over an existing name.
func copyInto(dst *os.Root, name string, exec bool, l *limits, open func() (io.ReadCloser, error)) error {
	clean, err := l.entry(name, false)
	if err != nil {
		return err
	}
	if d := path.Dir(clean); d != "." {
		if err := dst.MkdirAll(filepath.FromSlash(d), 0o755); err != nil {
			return err
		}
	}
	src, err := open()
	if err != nil {
		return err
	}
	defer src.Close()
	perm := os.FileMode(0o644)
	if exec {
		perm = 0o755
	}
	out, err := dst.OpenFile(filepath.FromSlash(clean), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(src, l.budget()+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return l.add(n)
}

// stageWith makes a staging folder under pluginsDir, fills it with fill,
// and reads back what was written: the hash covers the copy, not the
// source.
func stageWith(pluginsDir string, fill func(*os.Root) error) (_ *Staged, err error) {
	if err := os.MkdirAll(pluginsDir, 0o755); err != nil {
		return nil, errs.Wrap(err, errs.DataDirNotWritable, "cannot create %s", pluginsDir)
	}
	dir, err := os.MkdirTemp(pluginsDir, ".staging-")
	if err != nil {
		return nil, errs.Wrap(err, errs.DataDirNotWritable, "cannot create a staging folder in %s", pluginsDir)
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(dir)
		}
	}()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	err = fill(root)
	root.Close()
	if err != nil {
		if errs.As(err) != nil {
			return nil, err
		}
		return nil, errs.Wrap(err, errs.PluginInvalid, "cannot copy the plugin: %v", err)
	}
	files, err := scanFolder(dir)
	if err != nil {
		return nil, err
	}
	data, err := readManifest(os.DirFS(dir), files)
	if err != nil {
		return nil, err
	}
	m, err := checkManifest(data)
	if err != nil {
		return nil, err
	}
	return &Staged{Manifest: m, ManifestBytes: data, Files: files, Hash: ConsentHash(data, files), dir: dir, pluginsDir: pluginsDir}, nil
}

func readManifest(fsys fs.FS, files []File) ([]byte, error) {
	for _, f := range files {
		if f.Path == ManifestName {
			if f.Size > MaxManifestBytes {
				return nil, errs.New(errs.PluginInvalid, "%s is larger than %d bytes", ManifestName, MaxManifestBytes).With("field", "")
			}
			data, err := fs.ReadFile(fsys, ManifestName)
			if err != nil {
				return nil, errs.Wrap(err, errs.PluginInvalid, "cannot read %s", ManifestName)
			}
			return data, nil
		}
	}
	return nil, errs.New(errs.PluginInvalid, "the plugin has no %s at its root; add one (PluginScaffold writes a skeleton)", ManifestName).With("field", "")
}

// Dir is where Commit installs the plugin: <pluginsDir>/<id>/<version>.
func (s *Staged) Dir() string { return InstallDir(s.pluginsDir, s.Manifest.ID, s.Manifest.Version) }

// InstallDir is <pluginsDir>/<id>/<version>.
func InstallDir(pluginsDir, id, version string) string {
	return filepath.Join(pluginsDir, id, version)
}

// Commit moves the staged plugin to Dir, replacing what was there, and
// removes the plugin's other versions. The caller stops the plugin's
// process first.
func (s *Staged) Commit() (string, error) {
	final := s.Dir()
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", errs.Wrap(err, errs.DataDirNotWritable, "cannot create %s", filepath.Dir(final))
	}
	var old string
	if _, err := os.Lstat(final); err == nil {
		tmp, err := os.MkdirTemp(s.pluginsDir, ".old-")
		if err != nil {
			return "", errs.Wrap(err, errs.DataDirNotWritable, "cannot make room for the new copy in %s", s.pluginsDir)
		}
		old = filepath.Join(tmp, "v")
		if err := os.Rename(final, old); err != nil {
			return "", errs.Wrap(err, errs.DataDirNotWritable, "cannot replace %s", final)
		}
		defer os.RemoveAll(tmp)
	}
	if err := os.Rename(s.dir, final); err != nil {
		if old != "" {
			_ = os.Rename(old, final)
		}
		return "", errs.Wrap(err, errs.DataDirNotWritable, "cannot install the plugin into %s", final)
	}
	s.dir = ""
	entries, _ := os.ReadDir(filepath.Dir(final))
	for _, e := range entries {
		if e.Name() != s.Manifest.Version {
			_ = os.RemoveAll(filepath.Join(filepath.Dir(final), e.Name()))
		}
	}
	return final, nil
}

// Discard removes the staging folder; after Commit it does nothing.
func (s *Staged) Discard() {
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
		s.dir = ""
	}
}

// Verify re-reads an installed plugin's folder and reports its consent
// hash now (a file edited after consent changes it).
func Verify(dir string) (string, error) {
	_, hash, err := Scan(dir)
	return hash, err
}

// Summary is what the staged plugin contributes and asks for, with the
// files CheckContent found unusable among its warnings.
func (s *Staged) Summary() Summary {
	sum := Describe(s.Manifest, s.Files, s.Hash)
	for _, p := range s.unused {
		sum.Warnings = append(sum.Warnings, p.Where()+": "+p.Message+"; the app will not use this file")
	}
	return sum
}

// CheckContent notes the staged skills, subagents and commands the app
// would not use (PluginCheck's content problems). They do not refuse the
// install: the rest of the plugin works without them, so the consent card
// names them and the user decides. Only ctx's end is an error.
func (s *Staged) CheckContent(ctx context.Context) error {
	unused, err := contentProblems(ctx, s.dir)
	if err != nil {
		return err
	}
	s.unused = unused
	return nil
}

// Scan reads an installed plugin's folder: its files (with their hashes)
// and its consent hash now.
func Scan(dir string) ([]File, string, error) {
	files, err := scanFolder(dir)
	if err != nil {
		return nil, "", err
	}
	data, err := readManifest(os.DirFS(dir), files)
	if err != nil {
		return nil, "", err
	}
	return files, ConsentHash(data, files), nil
}
