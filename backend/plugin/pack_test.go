package plugin_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
)

// folderOf writes validEntries as a plugin folder (bin/server executable).
func folderOf(t *testing.T, edit func(m map[string]any)) string {
	t.Helper()
	src := t.TempDir()
	for _, e := range validEntries(t) {
		if e.mode.IsDir() {
			continue
		}
		body, perm := e.body, os.FileMode(0o644)
		if e.name == plugin.ManifestName {
			body = manifest(t, edit)
		}
		if e.mode&0o111 != 0 {
			perm = 0o755
		}
		p := filepath.Join(src, filepath.FromSlash(e.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, perm); err != nil {
			t.Fatal(err)
		}
	}
	return src
}

// A packed folder installs as the folder itself would: the same files,
// exec bits and consent hash.
func TestPackInstallsAsTheFolder(t *testing.T) {
	src := folderOf(t, nil)
	dst := filepath.Join(t.TempDir(), "tools.piplug")
	sum, err := plugin.Pack(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	fromFolder, err := plugin.Stage(src, filepath.Join(t.TempDir(), "a"))
	if err != nil {
		t.Fatal(err)
	}
	defer fromFolder.Discard()
	fromArchive, err := plugin.Stage(dst, filepath.Join(t.TempDir(), "b"))
	if err != nil {
		t.Fatal(err)
	}
	if fromArchive.Hash != fromFolder.Hash || sum.Hash != fromFolder.Hash || sum.ID != "dev.acme.tools" || len(sum.Tools) != 2 {
		t.Fatalf("archive hash %s, summary %+v; want the folder's %s", fromArchive.Hash, sum, fromFolder.Hash)
	}
	dir, err := fromArchive.Commit()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "bin", "server"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode()&0o111 == 0 {
		t.Errorf("bin/server lost its exec bit: %v", fi.Mode())
	}
	// Never over an existing file.
	if _, err := plugin.Pack(src, dst); !errs.Is(err, errs.Conflict) {
		t.Errorf("Pack over an existing file = %v, want CONFLICT", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dst), ".pack*"))
	if len(leftovers) != 0 {
		t.Errorf("Pack left %v", leftovers)
	}
}

// Pack makes install's checks first: what install would refuse is never
// written.
func TestPackRefusesWhatInstallRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) string
		code  errs.Code
	}{
		{"invalid manifest", func(t *testing.T) string {
			return folderOf(t, func(m map[string]any) { m["version"] = "one" })
		}, errs.PluginInvalid},
		{"a symbolic link", func(t *testing.T) string {
			src := folderOf(t, nil)
			if err := os.Symlink("/etc/passwd", filepath.Join(src, "skills", "link")); err != nil {
				t.Fatal(err)
			}
			return src
		}, errs.PluginArchiveRefused},
		{"no manifest", func(t *testing.T) string {
			src := folderOf(t, nil)
			if err := os.Remove(filepath.Join(src, plugin.ManifestName)); err != nil {
				t.Fatal(err)
			}
			return src
		}, errs.PluginInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			dst := filepath.Join(out, "p.piplug")
			if _, err := plugin.Pack(tc.setup(t), dst); !errs.Is(err, tc.code) {
				t.Fatalf("Pack = %v, want %s", err, tc.code)
			}
			entries, err := os.ReadDir(out)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			if len(entries) != 0 {
				t.Errorf("a refused pack wrote %d entries", len(entries))
			}
		})
	}
}
