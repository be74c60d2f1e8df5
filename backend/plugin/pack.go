package plugin

import (
	"archive/zip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Pack writes the plugin folder src as a .piplug at dst (never over an
// existing file) after the checks install makes: the folder's entries,
// links and devices, its limits and its manifest. The archive written is
// then staged once as install would stage it, so a .piplug that Pack
// returns is one install accepts. It returns what the plugin contributes.
func Pack(src, dst string) (Summary, error) {
	files, err := scanFolder(src)
	if err != nil {
		return Summary{}, err
	}
	data, err := readManifest(os.DirFS(src), files)
	if err != nil {
		return Summary{}, err
	}
	if _, err := checkManifest(data); err != nil {
		return Summary{}, err
	}
	if filepath.Ext(dst) != ArchiveExt {
		return Summary{}, errs.New(errs.InvalidArgument, "%s must end in %s", dst, ArchiveExt).With("field", "path")
	}
	root, err := os.OpenRoot(src)
	if err != nil {
		return Summary{}, errs.Wrap(err, errs.PluginInvalid, "cannot open the plugin folder %s", src)
	}
	defer root.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".pack-*"+ArchiveExt)
	if err != nil {
		return Summary{}, errs.Wrap(err, errs.ToolFailed, "cannot write in %s", filepath.Dir(dst))
	}
	defer os.Remove(tmp.Name())
	if err := writeArchive(tmp, root, files); err != nil {
		tmp.Close()
		return Summary{}, err
	}
	if err := tmp.Close(); err != nil {
		return Summary{}, errs.Wrap(err, errs.ToolFailed, "cannot write %s", dst)
	}
	check, err := os.MkdirTemp(filepath.Dir(tmp.Name()), ".pack-check-")
	if err != nil {
		return Summary{}, errs.Wrap(err, errs.ToolFailed, "cannot check %s", dst)
	}
	defer os.RemoveAll(check)
	staged, err := Stage(tmp.Name(), check)
	if err != nil {
		return Summary{}, err
	}
	sum := staged.Summary()
	staged.Discard()
	// A link, not a rename: an existing dst is refused, never replaced.
	if err := os.Link(tmp.Name(), dst); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return Summary{}, errs.New(errs.Conflict, "%s already exists; remove it or pack to another name", dst).With("field", "path")
		}
		return Summary{}, errs.Wrap(err, errs.ToolFailed, "cannot write %s", dst)
	}
	return sum, nil
}

// writeArchive zips files of root into w, in path order, keeping each
// file's exec bit.
func writeArchive(w io.Writer, root *os.Root, files []File) error {
	zw := zip.NewWriter(w)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.Path, Method: zip.Deflate}
		h.SetMode(0o644)
		if f.Exec {
			h.SetMode(0o755)
		}
		out, err := zw.CreateHeader(h)
		if err != nil {
			return errs.Wrap(err, errs.ToolFailed, "cannot write the archive")
		}
		in, err := root.Open(filepath.FromSlash(f.Path))
		if err != nil {
			return errs.Wrap(err, errs.PluginInvalid, "cannot read %s", f.Path)
		}
		_, err = io.Copy(out, io.LimitReader(in, f.Size+1))
		in.Close()
		if err != nil {
			return errs.Wrap(err, errs.ToolFailed, "cannot write the archive")
		}
	}
	if err := zw.Close(); err != nil {
		return errs.Wrap(err, errs.ToolFailed, "cannot write the archive")
	}
	return nil
}
