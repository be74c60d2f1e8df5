package hostcore_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// put writes a file, creating its folders.
func put(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, p, s)
}

// The Files pane reaches the workspace only: each spelling that leads out
// of it is refused, whichever way it is spelled.
func TestViewFileContainment(t *testing.T) {
	e := newEnv(t)
	put(t, filepath.Join(e.project, "src", "app.ts"), "export const x = 1;\n")
	if err := os.Symlink(filepath.Join(e.outside, "secret.txt"), filepath.Join(e.project, "leak.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.outside, filepath.Join(e.project, "outdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(e.project, "main.go"), filepath.Join(e.project, "alias.go")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path string
		code errs.Code // "" = shown
		text string
	}{
		{path: "src/app.ts", text: "export const x = 1;\n"},
		{path: "alias.go", text: "package main\n\nfunc main() {}\n"}, // a link that stays inside
		{path: "leak.txt", code: errs.PathOutsideWorkspace},
		{path: "outdir/secret.txt", code: errs.PathOutsideWorkspace},
		{path: "../outside/secret.txt", code: errs.PathOutsideWorkspace},
		{path: "src/../../outside/secret.txt", code: errs.PathOutsideWorkspace},
		{path: filepath.Join(e.outside, "secret.txt"), code: errs.InvalidArgument},
		{path: filepath.Join(e.project, "main.go"), code: errs.InvalidArgument}, // absolute, even inside
		{path: "src", code: errs.InvalidArgument},
		{path: "missing.txt", code: errs.NotFound},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			v, err := e.core.ViewFile(t.Context(), e.session.ID, c.path)
			if c.code != "" {
				if !errs.Is(err, c.code) || v.Text != "" {
					t.Fatalf("ViewFile(%q) = %+v, %v; want %s", c.path, v, err, c.code)
				}
				if _, _, err := e.core.WorkspacePath(t.Context(), e.session.ID, c.path); err == nil && c.code != errs.InvalidArgument {
					t.Errorf("WorkspacePath(%q) succeeded", c.path)
				}
				return
			}
			if err != nil || v.Text != c.text || v.Stamp == "" || v.Binary || v.TooLarge {
				t.Fatalf("ViewFile(%q) = %+v, %v; want %q", c.path, v, err, c.text)
			}
		})
	}
}

func TestViewFileBinaryTooLargeAndStamp(t *testing.T) {
	e := newEnv(t)
	write(t, filepath.Join(e.project, "img.bin"), "PNG\x00\x01\x02")
	write(t, filepath.Join(e.project, "big.txt"), strings.Repeat("a", hostcore.MaxViewBytes+1))
	v, err := e.core.ViewFile(t.Context(), e.session.ID, "img.bin")
	if err != nil || !v.Binary || v.Text != "" || v.Note == "" {
		t.Errorf("binary = %+v, %v", v, err)
	}
	v, err = e.core.ViewFile(t.Context(), e.session.ID, "big.txt")
	if err != nil || !v.TooLarge || v.Text != "" || !strings.Contains(v.Note, "editor") {
		t.Errorf("too large = %+v, %v", v, err)
	}
	before, err := e.core.FileStamp(t.Context(), e.session.ID, "main.go")
	if err != nil || !before.Exists {
		t.Fatalf("stamp = %+v, %v", before, err)
	}
	write(t, filepath.Join(e.project, "main.go"), "package main // changed, and longer\n")
	after, _ := e.core.FileStamp(t.Context(), e.session.ID, "main.go")
	if after.Stamp == before.Stamp {
		t.Errorf("the stamp did not change with the file: %q", after.Stamp)
	}
	os.Remove(filepath.Join(e.project, "main.go"))
	if gone, err := e.core.FileStamp(t.Context(), e.session.ID, "main.go"); err != nil || gone.Exists {
		t.Errorf("stamp of a deleted file = %+v, %v", gone, err)
	}
}

// With the data folder inside the project, the pane neither lists, finds
// nor opens anything of it.
func TestFilesPaneRefusesTheDataFolder(t *testing.T) {
	project := t.TempDir()
	write(t, filepath.Join(project, "keep.txt"), "k\n")
	data := filepath.Join(project, "pidata")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: data, RgPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	p, err := core.AddProject(t.Context(), project)
	if err != nil {
		t.Fatal(err)
	}
	s, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(data, "notes.txt"), "private\n")
	l, err := core.ListFolder(t.Context(), s.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range l.Entries {
		names = append(names, en.Name)
	}
	if !slices.Equal(names, []string{"keep.txt"}) {
		t.Errorf("ListFolder = %v; want only keep.txt", names)
	}
	if _, err := core.ListFolder(t.Context(), s.ID, "pidata"); !errs.Is(err, errs.NotFound) {
		t.Errorf("ListFolder(pidata) = %v; want NOT_FOUND", err)
	}
	found, err := core.FindFiles(t.Context(), s.ID, "notes")
	if err != nil || len(found.Files) != 0 {
		t.Errorf("FindFiles = %+v, %v; want nothing", found, err)
	}
	if _, err := core.ViewFile(t.Context(), s.ID, "pidata/notes.txt"); !errs.Is(err, errs.PathProtected) {
		t.Errorf("ViewFile(pidata/notes.txt) = %v; want PATH_PROTECTED", err)
	}
	if _, _, err := core.WorkspacePath(t.Context(), s.ID, "pidata"); !errs.Is(err, errs.PathProtected) {
		t.Errorf("WorkspacePath(pidata) = %v; want PATH_PROTECTED", err)
	}
}

func TestListFolderAndFindFiles(t *testing.T) {
	e := newEnv(t)
	write(t, filepath.Join(e.project, ".gitignore"), "dist/\n")
	put(t, filepath.Join(e.project, "dist", "bundle.js"), "x")
	put(t, filepath.Join(e.project, "src", "deep", "util.go"), "package deep\n")
	l, err := e.core.ListFolder(t.Context(), e.session.ID, "src")
	if err != nil || len(l.Entries) != 1 || l.Entries[0].Path != "src/deep" || !l.Entries[0].Dir {
		t.Fatalf("ListFolder(src) = %+v, %v", l, err)
	}
	if _, err := e.core.ListFolder(t.Context(), e.session.ID, "dist"); !errs.Is(err, errs.NotFound) {
		t.Errorf("ListFolder(dist) = %v; want NOT_FOUND (ignored)", err)
	}
	if _, err := e.core.ListFolder(t.Context(), e.session.ID, "../outside"); err == nil {
		t.Error("ListFolder(../outside) succeeded")
	}
	found, err := e.core.FindFiles(t.Context(), e.session.ID, "util")
	if err != nil || !slices.Equal(found.Files, []string{"src/deep/util.go"}) {
		t.Errorf("FindFiles(util) = %+v, %v", found, err)
	}
	if found, _ := e.core.FindFiles(t.Context(), e.session.ID, "bundle"); len(found.Files) != 0 {
		t.Errorf("FindFiles found an ignored file: %v", found.Files)
	}
}
