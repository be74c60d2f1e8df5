package hostcore_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// readOnly makes dir read-only for this process until the test ends: a
// read-only bind mount as root (who ignores permission bits), else 0500.
func readOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
		return
	}
	if err := syscall.Mount(dir, dir, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("running as root without mount rights (%v): a read-only folder cannot be made here; TestDataFolderNotCreatable covers the message", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remount read-only: %v", err)
	}
}

// A read-only data folder, new or already in use, is named as not
// writable (not "internal error; see the log", a log that cannot be
// written there).
func TestReadOnlyDataFolder(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string)
	}{
		{"empty", func(*testing.T, string) {}},
		{"in use", func(t *testing.T, dir string) {
			core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			core.Close()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			tt.prepare(t, dir)
			readOnly(t, dir)
			assertNotWritable(t, dir, dir)
		})
	}
}
