package desktop

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestFileURL(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/proj/main.go":     "file:///home/u/proj/main.go",
		"/home/u/my proj/a#b?.txt": "file:///home/u/my%20proj/a%23b%3F.txt",
		"/home/u/proj/naïve.md":    "file:///home/u/proj/na%C3%AFve.md",
		"/":                        "file:///",
	} {
		if got := fileURL(in); got != want {
			t.Errorf("fileURL(%q) = %q; want %q", in, got, want)
		}
	}
}

// Files the OS opener would run, not show, never reach it: programs,
// scripts, shortcuts, bundles and executables the agent may have written.
func TestLaunchableRefusesPrograms(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "notes.md")
	script := filepath.Join(dir, "build-it")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		dir     bool
		refused bool
	}{
		{plain, false, false},
		{dir, true, false},
		{filepath.Join(dir, "setup.BAT"), false, true},
		{filepath.Join(dir, "a.lnk"), false, true},
		{filepath.Join(dir, "run.command"), false, true},
		{filepath.Join(dir, "x.desktop"), false, true},
		{filepath.Join(dir, "Foo.app"), true, true},
		{filepath.Join(dir, "Foo.app", "Contents", "Info.plist"), false, true},
		{script, false, runtime.GOOS != "windows"},
	}
	for _, tt := range tests {
		if why := launchable(tt.path, tt.dir); (why != "") != tt.refused {
			t.Errorf("launchable(%s) = %q, want refused %v", tt.path, why, tt.refused)
		}
	}
}
