package tools_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// Grep finds rg on the login shell's PATH when the app's PATH lacks it (a
// Finder/Dock launch misses Homebrew's rg), without holding up the first
// search while the login shell starts: until the probe has answered, the
// builtin engine searches.
func TestGrepFindsRgOnTheLoginPATH(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no login-shell PATH on Windows")
	}
	for _, slow := range []bool{false, true} {
		name := map[bool]string{false: "probe answered", true: "probe still running"}[slow]
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("PATH", t.TempDir()) // the app's PATH: no rg there
			// A fake rg in a directory only the login PATH has: it leaves a
			// mark and finds nothing (exit 1), as rg does.
			bin := filepath.Join(t.TempDir(), "login-bin")
			mark := filepath.Join(t.TempDir(), "rg-ran")
			writeExec(t, filepath.Join(bin, "rg"), "#!/bin/sh\n: > '"+mark+"'\nexit 1\n")
			profile := "PATH='" + bin + "':\"$PATH\"; export PATH\n"
			gate := filepath.Join(home, "gate")
			if slow {
				profile = "while [ ! -e '" + gate + "' ]; do sleep 0.05; done\n" + profile
			}
			if err := os.WriteFile(filepath.Join(home, ".profile"), []byte(profile), 0o644); err != nil {
				t.Fatal(err)
			}
			probe := &shells.PathProbe{Shells: []string{"/bin/sh"}, Timeout: time.Minute}

			w := newWS(t, map[string]string{"a.txt": "needle\n"})
			reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Bash: tools.BashDeps{PathProbe: probe}})...)
			if err != nil {
				t.Fatal(err)
			}
			w.registry = reg
			// No literal, and a non-ASCII rune may start a match: the pattern rg runs for once found.
			const pattern = "[n-oñ][d-e][d-e][c-d][k-l][d-e]"
			if slow {
				res := w.run("Grep", map[string]any{"pattern": pattern})
				if !res.OK || res.Fields["engine"] != "builtin" || res.Content != "[a.txt#"+hashline.DigestOf([]byte("needle\n")).Tag()+"]\n1:needle" {
					t.Fatalf("Grep while the login shell starts = %+v; want the builtin engine's result", res)
				}
				if _, err := os.Stat(mark); err == nil {
					t.Fatal("rg ran before the login PATH was known")
				}
				if err := os.WriteFile(gate, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if r := probe.Result(); r.Err != nil {
				t.Fatalf("probe: %v", r.Err)
			}
			res := w.run("Grep", map[string]any{"pattern": pattern})
			if !res.OK || res.Fields["engine"] != "rg" {
				t.Fatalf("Grep = %+v; want the rg found on the login PATH", res)
			}
			if _, err := os.Stat(mark); err != nil {
				t.Errorf("the login PATH's rg did not run: %v", err)
			}
		})
	}
}

func writeExec(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}
