package plugin_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
)

// entry is one zip entry to write.
type entry struct {
	name string
	body []byte
	mode fs.FileMode // 0 = a regular 0644 file
}

// writeZip writes a .piplug of entries and returns its path.
func writeZip(t *testing.T, entries []entry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.piplug")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		h.SetMode(0o644)
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func validEntries(t *testing.T) []entry {
	return []entry{
		{name: "plugin.json", body: manifest(t, nil)},
		{name: "bin/", mode: fs.ModeDir | 0o755},
		{name: "bin/server", body: []byte("#!/bin/sh\n"), mode: 0o755},
		{name: "skills/hello/SKILL.md", body: []byte("---\nname: hello\ndescription: hi\n---\n")},
	}
}

// assertNothingWritten: a refused install leaves no trace, not even a
// staging folder.
func assertNothingWritten(t *testing.T, pluginsDir string) {
	t.Helper()
	entries, err := os.ReadDir(pluginsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		t.Errorf("a refused install wrote %d entries into %s", len(entries), pluginsDir)
	}
}

func TestStageArchiveInstalls(t *testing.T) {
	pluginsDir := filepath.Join(t.TempDir(), "plugins")
	s, err := plugin.Stage(writeZip(t, validEntries(t)), pluginsDir)
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Summary()
	if sum.ID != "dev.acme.tools" || len(sum.Tools) != 2 || sum.Tools[0].ModelName != "plugin_dev_acme_tools_look" ||
		sum.Tools[1].Risk != "high" || len(sum.Skills) != 1 || sum.Files != 3 || sum.Hash == "" {
		t.Fatalf("summary = %+v", sum)
	}
	dir, err := s.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(pluginsDir, "dev.acme.tools", "1.2.0") {
		t.Errorf("installed into %s", dir)
	}
	fi, err := os.Stat(filepath.Join(dir, "bin", "server"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode()&0o111 == 0 {
		t.Errorf("bin/server lost its exec bit: %v", fi.Mode())
	}
	if h, err := plugin.Verify(dir); err != nil || h != s.Hash {
		t.Errorf("Verify = %q, %v; want the staged hash %q", h, err, s.Hash)
	}
	// Any change to a file changes the consent hash.
	if err := os.WriteFile(filepath.Join(dir, "skills", "hello", "SKILL.md"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h, _ := plugin.Verify(dir); h == s.Hash {
		t.Error("the consent hash did not change with a file")
	}
	left, _ := os.ReadDir(pluginsDir)
	if len(left) != 1 || left[0].Name() != "dev.acme.tools" {
		t.Errorf("plugins folder holds %v, want only the plugin (no staging left)", left)
	}
}

// A new version replaces the old one's folder.
func TestCommitReplacesOtherVersions(t *testing.T) {
	pluginsDir := filepath.Join(t.TempDir(), "plugins")
	for _, v := range []string{"1.0.0", "1.1.0"} {
		entries := validEntries(t)
		entries[0].body = manifest(t, func(m map[string]any) { m["version"] = v })
		s, err := plugin.Stage(writeZip(t, entries), pluginsDir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadDir(filepath.Join(pluginsDir, "dev.acme.tools"))
	if len(got) != 1 || got[0].Name() != "1.1.0" {
		t.Errorf("versions kept = %v", got)
	}
}

func TestStageRefusesHostileArchives(t *testing.T) {
	many := []entry{{name: "plugin.json", body: manifest(t, nil)}}
	for i := range plugin.MaxEntries {
		many = append(many, entry{name: fmt.Sprintf("f/%d.txt", i), body: []byte("x")})
	}
	bomb := bytes.Repeat([]byte{0}, plugin.MaxUnpackedBytes+1)
	cases := []struct {
		name  string
		extra []entry
		code  errs.Code
	}{
		{"symlink", []entry{{name: "link", body: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777}}, errs.PluginArchiveRefused},
		{"dot-dot", []entry{{name: "../evil.txt", body: []byte("x")}}, errs.PluginArchiveRefused},
		{"nested dot-dot", []entry{{name: "a/../../evil.txt", body: []byte("x")}}, errs.PluginArchiveRefused},
		{"absolute", []entry{{name: "/tmp/evil.txt", body: []byte("x")}}, errs.PluginArchiveRefused},
		{"drive", []entry{{name: "C:/evil.txt", body: []byte("x")}}, errs.PluginArchiveRefused},
		{"backslash", []entry{{name: `a\..\..\evil.txt`, body: []byte("x")}}, errs.PluginArchiveRefused},
		{"device", []entry{{name: "dev", mode: fs.ModeDevice | 0o644}}, errs.PluginArchiveRefused},
		{"pipe", []entry{{name: "fifo", mode: fs.ModeNamedPipe | 0o644}}, errs.PluginArchiveRefused},
		{"duplicate", []entry{{name: "a.txt", body: []byte("1")}, {name: "a.txt", body: []byte("2")}}, errs.PluginArchiveRefused},
		{"case collision", []entry{{name: "A.txt", body: []byte("1")}, {name: "a.txt", body: []byte("2")}}, errs.PluginArchiveRefused},
		{"file and folder", []entry{{name: "a", body: []byte("1")}, {name: "a/b", body: []byte("2")}}, errs.PluginArchiveRefused},
		{"2,001 entries", many[1:], errs.PluginArchiveRefused},
		{"zip bomb", []entry{{name: "big.bin", body: bomb}}, errs.PluginArchiveRefused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pluginsDir := filepath.Join(t.TempDir(), "plugins")
			entries := append([]entry{{name: "plugin.json", body: manifest(t, nil)}}, c.extra...)
			_, err := plugin.Stage(writeZip(t, entries), pluginsDir)
			if !errs.Is(err, c.code) {
				t.Fatalf("Stage = %v, want %s", err, c.code)
			}
			t.Log(err)
			assertNothingWritten(t, pluginsDir)
		})
	}
}

// The limit is on the bytes that come out, not on what the entry's header
// claims: an entry whose header understates its size is refused too.
func TestStageRefusesALyingHeader(t *testing.T) {
	var deflated bytes.Buffer
	zwTmp := zip.NewWriter(&deflated)
	w, _ := zwTmp.Create("x")
	if _, err := w.Write(bytes.Repeat([]byte{0}, 4<<20)); err != nil {
		t.Fatal(err)
	}
	zwTmp.Close()
	zr, err := zip.NewReader(bytes.NewReader(deflated.Bytes()), int64(deflated.Len()))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := zr.File[0].OpenRaw()
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(raw)

	path := filepath.Join(t.TempDir(), "lie.piplug")
	f, _ := os.Create(path)
	zw := zip.NewWriter(f)
	mw, _ := zw.Create("plugin.json")
	mw.Write(manifest(t, nil))
	h := &zip.FileHeader{Name: "small.txt", Method: zip.Deflate, CRC32: zr.File[0].CRC32,
		CompressedSize64: uint64(len(body)), UncompressedSize64: 10}
	rw, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	rw.Write(body)
	zw.Close()
	f.Close()
	pluginsDir := filepath.Join(t.TempDir(), "plugins")
	if _, err := plugin.Stage(path, pluginsDir); !errs.Is(err, errs.PluginArchiveRefused) {
		t.Fatalf("Stage = %v, want PLUGIN_ARCHIVE_REFUSED", err)
	}
	assertNothingWritten(t, pluginsDir)
}

func TestStageRefusesBadManifestBeforeWriting(t *testing.T) {
	entries := validEntries(t)
	entries[0].body = manifest(t, func(m map[string]any) { m["version"] = "one" })
	pluginsDir := filepath.Join(t.TempDir(), "plugins")
	if _, err := plugin.Stage(writeZip(t, entries), pluginsDir); !errs.Is(err, errs.PluginInvalid) {
		t.Fatalf("Stage = %v, want PLUGIN_INVALID", err)
	}
	assertNothingWritten(t, pluginsDir)
	if _, err := plugin.Stage(writeZip(t, entries[1:]), pluginsDir); !errs.Is(err, errs.PluginInvalid) {
		t.Fatalf("Stage without plugin.json = %v, want PLUGIN_INVALID", err)
	}
	assertNothingWritten(t, pluginsDir)
}

func TestStageFolder(t *testing.T) {
	src := t.TempDir()
	for _, e := range validEntries(t) {
		if e.mode.IsDir() {
			continue
		}
		p := filepath.Join(src, filepath.FromSlash(e.name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, e.body, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pluginsDir := filepath.Join(t.TempDir(), "plugins")
	s, err := plugin.Stage(src, pluginsDir)
	if err != nil {
		t.Fatal(err)
	}
	s.Discard()
	assertNothingWritten(t, pluginsDir)

	if err := os.Symlink("/etc/passwd", filepath.Join(src, "skills", "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := plugin.Stage(src, pluginsDir); !errs.Is(err, errs.PluginArchiveRefused) {
		t.Fatalf("Stage of a folder with a link = %v, want PLUGIN_ARCHIVE_REFUSED", err)
	}
	assertNothingWritten(t, pluginsDir)
}
