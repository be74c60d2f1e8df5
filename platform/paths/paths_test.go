package paths_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/platform/paths"
)

func TestResolve(t *testing.T) {
	env := func(goos string, vars map[string]string) paths.Env {
		return paths.Env{GOOS: goos, HomeDir: "/home/u", Getenv: func(k string) string { return vars[k] }}
	}
	tests := []struct {
		name string
		flag string
		env  paths.Env
		want string
	}{
		{"flag wins", "/flag", env("linux", map[string]string{paths.EnvDataDir: "/env"}), "/flag"},
		{"env over default", "", env("linux", map[string]string{paths.EnvDataDir: "/env"}), "/env"},
		{"linux xdg", "", env("linux", map[string]string{"XDG_DATA_HOME": "/xdg"}), "/xdg/pi-desktop"},
		{"linux relative xdg ignored", "", env("linux", map[string]string{"XDG_DATA_HOME": "rel"}), "/home/u/.local/share/pi-desktop"},
		{"linux home", "", env("linux", nil), "/home/u/.local/share/pi-desktop"},
		{"darwin", "", env("darwin", nil), "/home/u/Library/Application Support/PI-Desktop"},
		{"windows appdata", "", env("windows", map[string]string{"APPDATA": "/appdata"}), "/appdata/PI-Desktop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := paths.Resolve(tt.flag, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if got != filepath.FromSlash(tt.want) {
				t.Errorf("Resolve = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestResolveWithoutHomeFails(t *testing.T) {
	_, err := paths.Resolve("", paths.Env{GOOS: "linux", Getenv: func(string) string { return "" }})
	if err == nil {
		t.Fatal("want an error naming the override when no home is known")
	}
}

func TestLayoutEnsure(t *testing.T) {
	l := paths.Layout{Root: filepath.Join(t.TempDir(), "data")}
	if err := l.Ensure(); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{l.Scratch(), l.Visualizations(), l.Reviews(), l.Worktrees(), l.Logs()} {
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			t.Errorf("%s not created: %v", dir, err)
		}
	}
}

func TestLayoutPrepare(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, root, failing string
	}{
		{"new", filepath.Join(base, "data"), ""},
		{"under a file", filepath.Join(file, "data"), filepath.Join(file, "data")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := paths.Layout{Root: tt.root}
			err := l.Prepare()
			var de *paths.DirError
			switch {
			case tt.failing == "" && err != nil:
				t.Fatal(err)
			case tt.failing != "" && (!errors.As(err, &de) || de.Dir != tt.failing):
				t.Fatalf("Prepare = %v; want a DirError naming %s", err, tt.failing)
			case tt.failing == "":
				// The probe leaves nothing behind.
				entries, _ := os.ReadDir(l.Logs())
				if len(entries) != 0 {
					t.Errorf("logs folder holds %v after Prepare", entries)
				}
			}
		})
	}
}
