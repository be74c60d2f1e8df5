package desktop

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/platform/instance"
)

func TestSplitOpenArgs(t *testing.T) {
	tests := []struct {
		args    []string
		session string
		targets []string
	}{
		{nil, "", nil},
		{[]string{"proj"}, "", []string{"proj"}},
		{[]string{"--session", "s1", "a", "b.piplug"}, "s1", []string{"a", "b.piplug"}},
		{[]string{"--session=s2", "--data-dir", "/d", "x"}, "s2", []string{"x"}},
		{[]string{"-session", "s3", "--data-dir=/d"}, "s3", nil},
		{[]string{"-devserver", "x", "--", "--session"}, "", []string{"x", "--session"}},
		{[]string{"-"}, "", []string{"-"}},
	}
	for _, tt := range tests {
		session, targets := SplitOpenArgs(tt.args)
		if session != tt.session || !slices.Equal(targets, tt.targets) {
			t.Errorf("SplitOpenArgs(%q) = %q, %q; want %q, %q", tt.args, session, targets, tt.session, tt.targets)
		}
	}
}

func TestClassifyOpen(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(filepath.Join(real, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"acme.piplug": "zip", "LOUD.PIPLUG": "zip", "notes.txt": "x"} {
		if err := os.WriteFile(filepath.Join(real, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(real, "proj"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	realDir, _ := filepath.EvalSymlinks(real)
	tests := []struct {
		target, kind, path string
	}{
		{"real/proj", api.OpenFolder, filepath.Join(realDir, "proj")},
		{"link", api.OpenFolder, filepath.Join(realDir, "proj")}, // links resolved: the project is the real folder
		{filepath.Join(real, "acme.piplug"), api.OpenPlugin, filepath.Join(realDir, "acme.piplug")},
		{"real/LOUD.PIPLUG", api.OpenPlugin, filepath.Join(realDir, "LOUD.PIPLUG")},
		{"real/notes.txt", api.OpenRefused, "real/notes.txt"},
		{"missing", api.OpenRefused, "missing"},
	}
	for _, tt := range tests {
		got := ClassifyOpen(tt.target, dir)
		if got.Kind != tt.kind || got.Path != tt.path {
			t.Errorf("ClassifyOpen(%q) = %+v, want %s %s", tt.target, got, tt.kind, tt.path)
		}
		if tt.kind == api.OpenRefused && !strings.Contains(got.Message, tt.target) {
			t.Errorf("ClassifyOpen(%q): message %q does not name it", tt.target, got.Message)
		}
	}
}

// PendingOpens returns what was queued once, in order: a start's --session
// looked up (a missing one refused with the next step), then its targets.
func TestPendingOpensDrainsInOrder(t *testing.T) {
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: t.TempDir(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	s, err := core.CreateSession(t.Context(), api.CreateSessionInput{Title: "named"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	opens := &Opens{}
	shell := &Shell{h: &testApp{core: core}, opens: opens}
	if got, err := shell.PendingOpens(); err != nil || len(got) != 0 {
		t.Fatalf("nothing queued: %v, %v", got, err)
	}
	opens.Push(instance.Request{Args: []string{"--session", s.ID, "proj"}, Dir: dir})
	opens.Push(instance.Request{Args: []string{"--session=gone"}, Dir: dir})
	got, err := shell.PendingOpens()
	if err != nil {
		t.Fatal(err)
	}
	kinds := make([]string, len(got))
	for i, r := range got {
		kinds[i] = r.Kind
	}
	if !slices.Equal(kinds, []string{api.OpenSession, api.OpenFolder, api.OpenRefused}) {
		t.Fatalf("kinds = %v (%+v)", kinds, got)
	}
	if got[0].Session == nil || got[0].Session.ID != s.ID || !strings.HasSuffix(got[1].Path, "proj") || !strings.Contains(got[2].Message, "sidebar") {
		t.Errorf("requests = %+v", got)
	}
	if again, err := shell.PendingOpens(); err != nil || len(again) != 0 {
		t.Errorf("read twice: %+v, %v", again, err)
	}
}

func TestLooksLikeOpenTarget(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("proj", 0o755); err != nil {
		t.Fatal(err)
	}
	for arg, want := range map[string]bool{"./x": true, ".": true, "a.piplug": true, "proj": true, "tol": false, "exprot": false} {
		if got := LooksLikeOpenTarget(arg); got != want {
			t.Errorf("LooksLikeOpenTarget(%q) = %v, want %v", arg, got, want)
		}
	}
}
