package attachments

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// What one message may carry (spec §4b, issue 23).
const (
	MaxPerMessage   = 20
	MaxFileBytes    = 64 << 20
	MaxMessageBytes = 128 << 20
	// PastedFolder is the folder under a session's scratch folder that
	// holds the composer's copies.
	PastedFolder = "pasted"
	// maxNameBytes keeps a copy's name well under every file system's
	// limit, with room for " (NN)".
	maxNameBytes = 120
	// maxNameTries bounds the search for a free "name (N).ext".
	maxNameTries = 1000
)

// Pasted is one session's pasted folder: the composer's attachments are
// copied there (each under a name of its own) and images are also stored,
// prepared for providers, in the attachments store.
type Pasted struct {
	dir   string
	store *Store
}

// NewPasted is the pasted folder dir (<scratch>/<session>/pasted), whose
// images go to store. The folder is created on the first copy; its parent
// must exist.
func NewPasted(dir string, store *Store) *Pasted {
	return &Pasted{dir: filepath.Clean(dir), store: store}
}

// Dir is the folder.
func (p *Pasted) Dir() string { return p.dir }

// source is an opened file to copy.
type source struct {
	f    *os.File
	name string
	size int64
}

// AddFiles copies the files at paths (absolute: what a drop or the open
// dialog gives) into the folder, in order, after checking every one and
// the message's limits given what it already holds: nothing is copied
// when one is refused. A link, folder, device or FIFO is refused, never
// followed or read.
func (p *Pasted) AddFiles(paths []string, held api.AttachmentBudget) ([]api.Attachment, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	if err := checkCount(held.Count + len(paths)); err != nil {
		return nil, err
	}
	var srcs []source
	defer func() {
		for _, s := range srcs {
			_ = s.f.Close()
		}
	}()
	total := held.Bytes
	for _, path := range paths {
		s, err := openSource(path)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, s)
		if err := checkSize(s.name, s.size); err != nil {
			return nil, err
		}
		total += s.size
		if err := checkTotal(total); err != nil {
			return nil, err
		}
	}
	root, err := p.openRoot()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var out []api.Attachment
	for _, s := range srcs {
		a, err := p.copyIn(root, s.name, s.f)
		if err != nil {
			// All or nothing: the copies made so far go too.
			for _, done := range out {
				_ = root.Remove(done.Name)
			}
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// AddData stores bytes the composer got without a path (an image pasted
// from the clipboard) under name, made safe and unique.
func (p *Pasted) AddData(name string, data []byte, held api.AttachmentBudget) (api.Attachment, error) {
	if err := checkCount(held.Count + 1); err != nil {
		return api.Attachment{}, err
	}
	name = cleanName(name)
	if err := checkSize(name, int64(len(data))); err != nil {
		return api.Attachment{}, err
	}
	if err := checkTotal(held.Bytes + int64(len(data))); err != nil {
		return api.Attachment{}, err
	}
	root, err := p.openRoot()
	if err != nil {
		return api.Attachment{}, err
	}
	defer root.Close()
	return p.copyIn(root, name, bytes.NewReader(data))
}

// Verify rebuilds a prompt's references from the disk at dispatch: each
// must name a regular file directly in this folder, within the limits,
// and an image's sha256 must name a readable image in the store. Name,
// size, media type and image dimensions come from the disk, never from
// the reference (the window is not trusted with what a model is sent).
func (p *Pasted) Verify(refs []api.Attachment) ([]api.Attachment, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	if err := checkCount(len(refs)); err != nil {
		return nil, err
	}
	root, err := p.existingRoot()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	out := make([]api.Attachment, 0, len(refs))
	var total int64
	seen := map[string]bool{}
	for _, ref := range refs {
		name, ok := p.nameOf(ref.Path)
		if !ok {
			return nil, errs.New(errs.AttachmentInvalid, "%q is not a file the composer attached to this session; remove it from the message and attach it again", truncate.BytesEllipsis(ref.Path, 200)).With("path", ref.Path)
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		fi, err := root.Lstat(name)
		if err != nil {
			return nil, errs.Wrap(err, errs.AttachmentInvalid, "the attached file %s is gone from the session's pasted folder; remove it from the message and attach it again", name).With("path", ref.Path)
		}
		if !fi.Mode().IsRegular() {
			return nil, errs.New(errs.AttachmentNotRegular, "the attached %s is no longer a regular file (a link or folder took its place); remove it from the message and attach the file again", name).With("path", ref.Path)
		}
		if err := checkSize(name, fi.Size()); err != nil {
			return nil, err
		}
		total += fi.Size()
		if err := checkTotal(total); err != nil {
			return nil, err
		}
		a, err := p.describe(root, name, fi.Size())
		if err != nil {
			return nil, err
		}
		if ref.SHA256 != "" {
			if err := p.withImage(&a, ref.SHA256); err != nil {
				return nil, err
			}
			if err := p.tiedTo(root, name, ref.SHA256); err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// nameOf is the file name of path when path is directly in the folder.
func (p *Pasted) nameOf(path string) (string, bool) {
	if path == "" || !filepath.IsAbs(path) {
		return "", false
	}
	clean := filepath.Clean(path)
	if filepath.Dir(clean) != p.dir {
		return "", false
	}
	name := filepath.Base(clean)
	return name, name != "." && name != ".." && name != string(filepath.Separator)
}

func checkCount(n int) error {
	if n > MaxPerMessage {
		return errs.New(errs.AttachmentTooMany, "a message carries at most %d files; send these in two messages, or zip them into one file", MaxPerMessage).With("limit", MaxPerMessage)
	}
	return nil
}

func checkSize(name string, size int64) error {
	if size > MaxFileBytes {
		return errs.New(errs.AttachmentTooLarge, "%s is %d MB, above the %d MB a file may have; attach a smaller file, or put it in the workspace and mention it with @", name, size>>20, MaxFileBytes>>20).With("limit", MaxFileBytes).With("name", name)
	}
	return nil
}

func checkTotal(total int64) error {
	if total > MaxMessageBytes {
		return errs.New(errs.AttachmentsTooLarge, "the message's files together would be %d MB, above the %d MB a message may carry; send some in the next message", total>>20, MaxMessageBytes>>20).With("limit", MaxMessageBytes)
	}
	return nil
}

// openSource opens the file at path for copying, refusing what is not a
// regular file. The handle opened is checked, not just the path: a link
// swapped in after the Lstat fails the open (O_NOFOLLOW) or the SameFile.
func openSource(path string) (source, error) {
	shown := truncate.BytesEllipsis(path, 200)
	if !filepath.IsAbs(path) {
		return source{}, errs.New(errs.InvalidArgument, "%q is not an absolute path; drop the file on the window or choose it with the attach button", shown).With("path", path)
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return source{}, errs.New(errs.NotFound, "%s does not exist (moved or deleted?); attach it again from where it is now", shown).With("path", path)
	}
	if err != nil {
		return source{}, errs.Wrap(err, errs.PermissionDenied, "cannot read %s (%v); check its permissions", shown, err).With("path", path)
	}
	if err := regular(shown, fi); err != nil {
		return source{}, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|sourceFlags, 0)
	if errors.Is(err, syscall.ELOOP) {
		return source{}, notRegular(shown, "a link")
	}
	if err != nil {
		return source{}, errs.Wrap(err, errs.PermissionDenied, "cannot open %s (%v); check its permissions", shown, err).With("path", path)
	}
	ofi, err := f.Stat()
	if err == nil && !os.SameFile(fi, ofi) {
		err = notRegular(shown, "a file that changed while it was opened")
	}
	if err == nil {
		err = regular(shown, ofi)
	}
	if err != nil {
		_ = f.Close()
		return source{}, err
	}
	return source{f: f, name: cleanName(filepath.Base(path)), size: ofi.Size()}, nil
}

func regular(shown string, fi fs.FileInfo) error {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return notRegular(shown, "a link")
	case m.IsDir():
		return errs.New(errs.AttachmentNotRegular, "%s is a folder; attach the files inside it (or a zip of it)", shown).With("path", shown)
	case !m.IsRegular():
		return notRegular(shown, "not a regular file (a device, FIFO or socket)")
	}
	return nil
}

func notRegular(shown, what string) error {
	return errs.New(errs.AttachmentNotRegular, "%s is %s and was not copied; attach the file itself", shown, what).With("path", shown)
}

// openRoot opens the folder, creating it on first use. It must be a real
// folder: a link in its place is refused, never followed.
func (p *Pasted) openRoot() (*os.Root, error) {
	if err := os.Mkdir(p.dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot create the pasted folder %s; check free disk space", p.dir)
	}
	return p.existingRoot()
}

func (p *Pasted) existingRoot() (*os.Root, error) {
	fi, err := os.Lstat(p.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errs.New(errs.AttachmentInvalid, "the session's pasted folder %s is gone (the session's scratch was cleared); attach the files again", p.dir)
	}
	if err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot open the pasted folder %s; check its permissions", p.dir)
	}
	if !fi.IsDir() {
		return nil, errs.New(errs.StorageCorrupt, "the pasted folder %s is not a folder (a link or file took its place); delete it and attach again", p.dir)
	}
	root, err := os.OpenRoot(p.dir)
	if err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot open the pasted folder %s; check its permissions", p.dir)
	}
	if got, err := root.Stat("."); err != nil || !os.SameFile(got, fi) {
		_ = root.Close()
		return nil, errs.New(errs.StorageCorrupt, "the pasted folder %s changed while it was opened; try again", p.dir)
	}
	return root, nil
}

// copyIn writes src under a free variant of name in root and describes
// the copy.
func (p *Pasted) copyIn(root *os.Root, name string, src io.Reader) (api.Attachment, error) {
	dst, name, err := createUnique(root, name)
	if err != nil {
		return api.Attachment{}, err
	}
	n, err := io.Copy(dst, io.LimitReader(src, MaxFileBytes+1))
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > MaxFileBytes {
		err = checkSize(name, n) // it grew while it was copied
	}
	if err != nil {
		_ = root.Remove(name)
		if errs.As(err) != nil {
			return api.Attachment{}, err
		}
		return api.Attachment{}, errs.Wrap(err, errs.StorageUnavailable, "could not copy %s into the pasted folder (%v); check free disk space", name, err)
	}
	a, err := p.describe(root, name, n)
	if err != nil {
		_ = root.Remove(name)
		return api.Attachment{}, err
	}
	p.prepareImage(root, &a)
	return a, nil
}

// createUnique creates name in root, or "name (2).ext", "name (3).ext"…
// when it is taken. O_EXCL: an existing file or a planted link is never
// opened, let alone written through.
func createUnique(root *os.Root, name string) (*os.File, string, error) {
	base, ext := splitExt(name)
	for n := 1; n <= maxNameTries; n++ {
		cand := name
		if n > 1 {
			cand = fmt.Sprintf("%s (%d)%s", base, n, ext)
		}
		f, err := root.OpenFile(cand, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", errs.Wrap(err, errs.StorageUnavailable, "cannot create %s in the pasted folder (%v); check free disk space", cand, err)
		}
		return f, cand, nil
	}
	return nil, "", errs.New(errs.StorageUnavailable, "the pasted folder already holds %d files named like %s; start a new session or rename the file", maxNameTries, name)
}

// splitExt splits "a.tar.gz" as "a.tar" + ".gz"; a dot file (".env") has
// no extension.
func splitExt(name string) (string, string) {
	ext := filepath.Ext(name)
	if ext == name || ext == "." {
		return name, ""
	}
	return strings.TrimSuffix(name, ext), ext
}

// cleanName is a file name safe to create: no separators or control
// characters, not "." or "..", at most maxNameBytes (the extension kept).
func cleanName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == ':' || r == unicode.ReplacementChar {
			return '_'
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if strings.Trim(name, ".") == "" {
		return "pasted"
	}
	if len(name) > maxNameBytes {
		base, ext := splitExt(name)
		if len(ext) > 16 {
			base, ext = name, ""
		}
		name = truncate.Bytes(base, maxNameBytes-len(ext)) + ext
	}
	return name
}

// describe is the reference to the copy name in root.
func (p *Pasted) describe(root *os.Root, name string, size int64) (api.Attachment, error) {
	a := api.Attachment{Path: filepath.Join(p.dir, name), Name: name, Size: size}
	f, err := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return api.Attachment{}, errs.Wrap(err, errs.StorageUnavailable, "cannot read back %s in the pasted folder (%v)", name, err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	a.MediaType = mediaType(name, head[:n])
	return a, nil
}

// mediaType sniffs the content; the extension only names what sniffing
// cannot tell apart (text and unknown binary).
func mediaType(name string, head []byte) string {
	sniffed := http.DetectContentType(head)
	if sniffed != "application/octet-stream" && !strings.HasPrefix(sniffed, "text/plain") {
		return sniffed
	}
	if byExt := mime.TypeByExtension(strings.ToLower(filepath.Ext(name))); byExt != "" && !strings.HasPrefix(byExt, "image/") {
		return byExt
	}
	return sniffed
}

// prepareImage stores a prepared copy of an image the providers accept.
// An image that cannot be prepared (too large, damaged) stays a plain
// file: the model gets its path.
func (p *Pasted) prepareImage(root *os.Root, a *api.Attachment) {
	switch a.MediaType {
	case PNG, JPEG, GIF, WebP:
	default:
		return
	}
	if a.Size > MaxInputBytes {
		return
	}
	f, err := root.OpenFile(a.Name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	_ = f.Close()
	if err != nil {
		return
	}
	prep, err := PrepareImage(data)
	if err != nil {
		return
	}
	sha, err := p.store.Put(prep.Data)
	if err != nil {
		return
	}
	a.SHA256, a.Width, a.Height, a.ImageBytes, a.ImageMediaType = sha, prep.Width, prep.Height, len(prep.Data), prep.MediaType
}

// withImage fills a's image fields from the stored image sha.
func (p *Pasted) withImage(a *api.Attachment, sha string) error {
	data, err := p.store.Read(sha)
	if errs.Is(err, errs.AttachmentChanged) {
		return errs.Wrap(err, errs.AttachmentChanged, "the prepared copy of %s in the attachments store no longer matches its sha256 (changed on disk); nothing was sent — remove it from the message and attach it again", a.Name).With("sha256", sha).With("path", a.Path)
	}
	if err != nil {
		return errs.Wrap(err, errs.AttachmentInvalid, "the prepared copy of %s is not in the attachments store (%s); remove it from the message and attach it again", a.Name, errs.CodeOf(err)).With("sha256", sha)
	}
	cfg, kind, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (kind != "png" && kind != "jpeg") {
		return errs.New(errs.AttachmentInvalid, "the stored copy of %s is not a prepared image; remove it from the message and attach it again", a.Name).With("sha256", sha)
	}
	a.SHA256, a.Width, a.Height, a.ImageBytes, a.ImageMediaType = sha, cfg.Width, cfg.Height, len(data), "image/"+kind
	return nil
}
