package hostcore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// A database damaged past its header (found by the first query that reads
// a bad page, not by the open) is refused untouched, and the message says
// it is damaged, where it is and how to start fresh; doing that works.
func TestDamagedDatabaseNamesTheRecovery(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := core.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "pi.sqlite")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := 4096; i < len(b); i++ { // every page but the first, which holds the header
		b[i] ^= 0x5a
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}

	_, err = hostcore.New(t.Context(), hostcore.Config{DataDir: dir})
	if !errs.Is(err, errs.StorageCorrupt) {
		t.Fatalf("New on a damaged database: %v; want STORAGE_CORRUPT", err)
	}
	msg := errs.ToPayload(err).Message
	for _, want := range []string{"damaged", file, "mv '" + file + "' '" + file + ".damaged'"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "disk space") {
		t.Errorf("message %q blames disk space", msg)
	}
	after, err := os.ReadFile(file)
	if err != nil || !bytes.Equal(after, b) {
		t.Fatalf("the damaged database was modified (%v)", err)
	}

	for _, side := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(file+side, file+".damaged"+side); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	core, err = hostcore.New(t.Context(), hostcore.Config{DataDir: dir})
	if err != nil {
		t.Fatalf("after moving the damaged database aside: %v", err)
	}
	core.Close()
}

// A data folder that cannot be made (a file where a folder must be) is
// named, with the flag that chooses another. This runs as root too, where
// permission bits would not stop anything.
func TestDataFolderNotCreatable(t *testing.T) {
	base := t.TempDir()
	blocker := filepath.Join(base, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(base, "existing")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: existing})
	if err != nil {
		t.Fatal(err)
	}
	core.Close()
	logs := filepath.Join(existing, "logs")
	if err := os.RemoveAll(logs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logs, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, dataDir, named string }{
		{"under a file", filepath.Join(blocker, "data"), filepath.Join(blocker, "data")},
		{"logs is a file", existing, logs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertNotWritable(t, tt.dataDir, tt.named)
		})
	}
}

func assertNotWritable(t *testing.T, dataDir, named string) {
	t.Helper()
	_, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dataDir})
	if !errs.Is(err, errs.DataDirNotWritable) {
		t.Fatalf("New: %v; want DATA_DIR_NOT_WRITABLE", err)
	}
	msg := errs.ToPayload(err).Message
	for _, want := range []string{"not writable", named, "--data-dir"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}

// Four hosts starting together on a new data folder all come up (the
// desktop app and `pi-desktop tool` runs may start at the same moment).
func TestConcurrentFirstStart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	const n = 4
	errc := make(chan error, n)
	start := make(chan struct{})
	for range n {
		go func() {
			<-start
			core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dir})
			if err == nil {
				err = core.Close()
			}
			errc <- err
		}()
	}
	close(start)
	for range n {
		if err := <-errc; err != nil {
			t.Errorf("New: %v", err)
		}
	}
}
