//go:build unix

package search

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFolderFilesReadsOnlyRegularFiles: the one-openat read refuses a link
// (even one to a file in the same folder), a FIFO without blocking on it, a
// folder, and names a file over MaxFileBytes without reading it.
func TestFolderFilesReadsOnlyRegularFiles(t *testing.T) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"sub/plain.txt": "plain\n", "sub/secret.json": "{}"})
	sub := filepath.Join(ws, "sub")
	if err := os.Symlink("secret.json", filepath.Join(sub, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(sub, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(sub, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()
	r, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d := newHitDirRef(r, "sub")
	defer d.release()
	tests := []struct {
		name string
		want string
		ok   func(error) bool
	}{
		{"plain.txt", "plain\n", func(err error) bool { return err == nil }},
		{"link.txt", "", func(err error) bool { return errors.Is(err, errRootChanged) }},
		{"fifo", "", func(err error) bool { return errors.Is(err, errRootChanged) }},
		{"..", "", func(err error) bool { return errors.Is(err, errRootChanged) }},
		{"big.bin", "", func(err error) bool { return sizeOf(err) == MaxFileBytes+1 }},
		{"missing", "", func(err error) bool { return errors.Is(err, os.ErrNotExist) }},
	}
	var buf []byte
	for _, tc := range tests {
		data, err := d.files.read(tc.name, &buf)
		if !tc.ok(err) || string(data) != tc.want {
			t.Errorf("read(%s) = %q, %v", tc.name, data, err)
		}
	}
	// A folder outside the root is never opened.
	out := newHitDirRef(r, "../"+filepath.Base(ws))
	defer out.release()
	if data, err := out.files.read("sub/plain.txt", &buf); err == nil {
		t.Errorf("read through a folder outside the root: %q", data)
	}
}
