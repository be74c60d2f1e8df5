package hostcore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

func TestNewCreatesLayoutAndSweeps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	c, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dir, Version: "test", GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"pi.sqlite", "scratch", "visualizations", "reviews", "worktrees", "logs/pi-desktop.log"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err != nil {
			t.Errorf("%s missing: %v", sub, err)
		}
	}
	info := c.Info()
	if info.Version != "test" || info.DataDir != dir || len(info.CommandShells) != 1 || info.CommandShells[0].ID != "bash" {
		t.Errorf("info = %+v", info)
	}
	orphan := filepath.Join(dir, "scratch", "0190eeee-dead-7000-8000-000000000000")
	if err := os.Mkdir(orphan, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c, err = hostcore.New(t.Context(), hostcore.Config{DataDir: dir, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Error("the startup sweep left an orphaned scratch folder")
	}
}

func TestNewReportsCorruptDatabase(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pi.sqlite"), bytes.Repeat([]byte("x"), 32<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dir})
	if !errs.Is(err, errs.StorageCorrupt) {
		t.Fatalf("New = %v; want STORAGE_CORRUPT", err)
	}
}
