package search

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A walked file is opened only while it is the regular file the folder
// listed: a name swapped for a link to a sibling inside the same folder
// (os.Root would follow it) is refused, so the data folder's keys.json is
// never read under a workspace name.
func TestOpenRegularRefusesALinkInsideTheFolder(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "pidata"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "pidata", "keys.json"), []byte(`{"key":"secret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "plain.txt"), []byte("plain"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("pidata", "keys.json"), filepath.Join(ws, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir := newDirRef(r)
	defer dir.release()

	// openRegular (a named file; every walked file off Unix) and the
	// folder's reads (walked files on Unix) both refuse the link.
	if f, err := openRegular(r, "notes.txt"); !errors.Is(err, errRootChanged) {
		if f != nil {
			data, _ := io.ReadAll(f)
			f.Close()
			t.Fatalf("openRegular(notes.txt) read %q through the link; want errRootChanged", data)
		}
		t.Fatalf("openRegular(notes.txt) = %v; want errRootChanged", err)
	}
	var buf []byte
	if data, err := dir.files.read("notes.txt", &buf); !errors.Is(err, errRootChanged) {
		t.Fatalf("read(notes.txt) = %q, %v; want errRootChanged", data, err)
	}
	f, err := openRegular(r, "plain.txt")
	if err != nil {
		t.Fatalf("openRegular(plain.txt) = %v", err)
	}
	f.Close()
	if data, err := dir.files.read("plain.txt", &buf); err != nil || string(data) != "plain" {
		t.Fatalf("read(plain.txt) = %q, %v", data, err)
	}
}
