package attachments_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// newPasted is a session's pasted folder (not created yet) and its store.
func newPasted(t *testing.T) (*attachments.Pasted, *attachments.Store) {
	t.Helper()
	scratch := filepath.Join(t.TempDir(), "scratch", "sess1")
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		t.Fatal(err)
	}
	store := attachments.New(filepath.Join(t.TempDir(), "attachments"))
	return attachments.NewPasted(filepath.Join(scratch, attachments.PastedFolder), store), store
}

// sparse is a file of size bytes that costs no disk and no time to make.
func sparse(t *testing.T, dir, name string, size int64) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(i), uint8(i>>8), 200, 255
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// entries lists the pasted folder ("" when it does not exist).
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}

func TestAddFilesLimits(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name  string
		sizes []int64
		held  api.AttachmentBudget
		want  errs.Code
	}{
		{"21 files", slices.Repeat([]int64{1}, 21), api.AttachmentBudget{}, errs.AttachmentTooMany},
		{"2 more than the 19 held", []int64{1, 1}, api.AttachmentBudget{Count: 19}, errs.AttachmentTooMany},
		{"one file above 64 MiB", []int64{64*mib + 1}, api.AttachmentBudget{}, errs.AttachmentTooLarge},
		{"three files of 50 MiB", []int64{50 * mib, 50 * mib, 50 * mib}, api.AttachmentBudget{}, errs.AttachmentsTooLarge},
		{"40 MiB over the 100 MiB held", []int64{40 * mib}, api.AttachmentBudget{Count: 1, Bytes: 100 * mib}, errs.AttachmentsTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := newPasted(t)
			src := t.TempDir()
			var paths []string
			for i, size := range tc.sizes {
				paths = append(paths, sparse(t, src, "f"+strings.Repeat("x", i)+".bin", size))
			}
			got, err := p.AddFiles(paths, tc.held)
			if !errs.Is(err, tc.want) {
				t.Fatalf("AddFiles = %v, %v; want %s", got, err, tc.want)
			}
			if p := errs.ToPayload(err); !strings.Contains(p.Message, ";") {
				t.Errorf("message %q names no next step", p.Message)
			}
			if names := entries(t, p.Dir()); len(names) != 0 {
				t.Errorf("a refused batch copied %v", names)
			}
		})
	}
}

func TestAddFilesAtTheLimitsCopies(t *testing.T) {
	p, _ := newPasted(t)
	src := t.TempDir()
	var paths []string
	for i := range 20 {
		paths = append(paths, sparse(t, src, strings.Repeat("n", i+1)+".txt", 1))
	}
	got, err := p.AddFiles(paths, api.AttachmentBudget{})
	if err != nil || len(got) != 20 {
		t.Fatalf("AddFiles of 20 = %d, %v", len(got), err)
	}
	if names := entries(t, p.Dir()); len(names) != 20 {
		t.Fatalf("pasted folder holds %d files, want 20", len(names))
	}
}

func TestAddDataLimits(t *testing.T) {
	p, _ := newPasted(t)
	if _, err := p.AddData("a.png", []byte("x"), api.AttachmentBudget{Count: attachments.MaxPerMessage}); !errs.Is(err, errs.AttachmentTooMany) {
		t.Fatalf("21st = %v, want ATTACHMENT_TOO_MANY", err)
	}
	if _, err := p.AddData("a.txt", []byte("xx"), api.AttachmentBudget{Count: 1, Bytes: attachments.MaxMessageBytes - 1}); !errs.Is(err, errs.AttachmentsTooLarge) {
		t.Fatalf("over the total = %v, want ATTACHMENTS_TOO_LARGE", err)
	}
}

func TestUniqueNames(t *testing.T) {
	p, _ := newPasted(t)
	tests := []struct{ in, want string }{
		{"shot.png", "shot.png"},
		{"shot.png", "shot (2).png"},
		{"shot.png", "shot (3).png"},
		{".env", ".env"},
		{".env", ".env (2)"},
		{"a.tar.gz", "a.tar.gz"},
		{"a.tar.gz", "a.tar (2).gz"},
		{"../../etc/passwd", "passwd"},
		{`C:\Users\me\notes.txt`, "notes.txt"},
		{"..", "pasted"},
		{"", "pasted (2)"},
		{"bell\a.txt", "bell_.txt"},
		{strings.Repeat("é", 100) + ".md", strings.Repeat("é", 58) + ".md"},
	}
	// "pasted" itself is taken by the ".." case first.
	for _, tc := range tests {
		a, err := p.AddData(tc.in, []byte("data"), api.AttachmentBudget{})
		if err != nil {
			t.Fatalf("AddData(%q): %v", tc.in, err)
		}
		if a.Name != tc.want || a.Path != filepath.Join(p.Dir(), tc.want) {
			t.Errorf("AddData(%q) = %q at %s, want %q", tc.in, a.Name, a.Path, tc.want)
		}
	}
}

func TestAddFilesCopiesAndDescribes(t *testing.T) {
	p, store := newPasted(t)
	src := t.TempDir()
	text := filepath.Join(src, "notes.md")
	if err := os.WriteFile(text, []byte("# notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := pngOf(t, 2000, 200)
	img := filepath.Join(src, "wide.png")
	if err := os.WriteFile(img, big, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := p.AddFiles([]string{text, img}, api.AttachmentBudget{})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].SHA256 != "" || got[0].Size != 8 || !strings.HasPrefix(got[0].MediaType, "text/") {
		t.Errorf("text attachment = %+v", got[0])
	}
	im := got[1]
	if im.MediaType != "image/png" || im.Size != int64(len(big)) || im.Width != attachments.MaxEdge || im.Height != 156 {
		t.Errorf("image attachment = %+v, want a %d×156 prepared copy", im, attachments.MaxEdge)
	}
	copied, err := os.ReadFile(im.Path)
	if err != nil || !bytes.Equal(copied, big) {
		t.Errorf("the pasted copy is not the original bytes (%v)", err)
	}
	stored, err := store.Read(im.SHA256)
	if err != nil || len(stored) != im.ImageBytes || im.ImageMediaType == "" {
		t.Fatalf("stored image = %d bytes, %v; reference %+v", len(stored), err, im)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(stored))
	if err != nil || cfg.Width != attachments.MaxEdge {
		t.Errorf("stored image is %d wide (%v), want downscaled to %d", cfg.Width, err, attachments.MaxEdge)
	}
	if fi, err := os.Stat(im.Path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("copy mode = %v, %v; want 0600", fi.Mode(), err)
	}
}

func TestAddFilesRefusesFolders(t *testing.T) {
	p, _ := newPasted(t)
	if _, err := p.AddFiles([]string{t.TempDir()}, api.AttachmentBudget{}); !errs.Is(err, errs.AttachmentNotRegular) {
		t.Fatalf("folder = %v, want ATTACHMENT_NOT_REGULAR", err)
	}
	if _, err := p.AddFiles([]string{"relative.txt"}, api.AttachmentBudget{}); !errs.Is(err, errs.InvalidArgument) {
		t.Fatalf("relative path = %v, want INVALID_ARGUMENT", err)
	}
}

func TestVerifyRebuildsFromDisk(t *testing.T) {
	p, _ := newPasted(t)
	a, err := p.AddData("shot.png", pngOf(t, 40, 30), api.AttachmentBudget{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.AddData("data.csv", []byte("a,b\n1,2\n"), api.AttachmentBudget{})
	if err != nil {
		t.Fatal(err)
	}
	lie := a
	lie.Size, lie.Width, lie.MediaType, lie.Name = 1, 9999, "text/html", "evil"
	got, err := p.Verify([]api.Attachment{lie, f, f})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != a || got[1] != f {
		t.Fatalf("Verify = %+v\nwant %+v and %+v", got, a, f)
	}

	outside := filepath.Join(t.TempDir(), "x.txt")
	if err := os.WriteFile(outside, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name string
		ref  api.Attachment
		want errs.Code
	}{
		{"outside the folder", api.Attachment{Path: outside}, errs.AttachmentInvalid},
		{"climbing out", api.Attachment{Path: filepath.Join(p.Dir(), "..", "x.txt")}, errs.AttachmentInvalid},
		{"relative", api.Attachment{Path: "shot.png"}, errs.AttachmentInvalid},
		{"the folder itself", api.Attachment{Path: p.Dir()}, errs.AttachmentInvalid},
		{"gone", api.Attachment{Path: filepath.Join(p.Dir(), "gone.txt")}, errs.AttachmentInvalid},
		{"sha not stored", api.Attachment{Path: a.Path, SHA256: strings.Repeat("a", 64)}, errs.AttachmentInvalid},
		{"sha not a key", api.Attachment{Path: a.Path, SHA256: "../../x"}, errs.AttachmentInvalid},
	}
	for _, tc := range bad {
		if _, err := p.Verify([]api.Attachment{tc.ref}); !errs.Is(err, tc.want) {
			t.Errorf("%s: Verify = %v, want %s", tc.name, err, tc.want)
		}
	}
	if _, err := p.Verify(slices.Repeat([]api.Attachment{f}, 21)); !errs.Is(err, errs.AttachmentTooMany) {
		t.Errorf("21 references: %v, want ATTACHMENT_TOO_MANY", err)
	}
}
