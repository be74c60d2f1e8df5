package tools_test

import (
	"cmp"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// leakMarker is in every name and every file outside the workspace.
const leakMarker = "LEAKMARKER"

// TestSearchDuringLinkSwap runs Grep (both engines, every output mode, with
// and without path) and Glob while a goroutine swaps a workspace folder
// between the real folder and a link to an outside folder as fast as it
// can. Searches may fail (the folder changed) but no byte and no name from
// the outside folder may ever appear in a result.
func TestSearchDuringLinkSwap(t *testing.T) {
	const perShape = 1000
	engines := []string{"-"}
	if _, err := exec.LookPath("rg"); err == nil {
		engines = append(engines, "")
	} else {
		t.Log("rg not installed (apt-get install ripgrep): checking the builtin engine only")
	}
	type shape struct {
		tool string
		args map[string]any
	}
	var shapes []shape
	for _, mode := range []string{"content", "filesWithMatches", "count"} {
		shapes = append(shapes,
			shape{"Grep", map[string]any{"pattern": "hello", "outputMode": mode}},
			shape{"Grep", map[string]any{"pattern": "hello", "outputMode": mode, "path": "sub"}})
	}
	shapes = append(shapes,
		shape{"Glob", map[string]any{"pattern": "**"}},
		shape{"Glob", map[string]any{"pattern": "**", "path": "sub"}})

	for _, rg := range engines {
		w := newWSWith(t, map[string]string{
			"top.txt":             "hello top\n",
			"sub/inside.txt":      "hello inside\n",
			"sub/deeper/more.txt": "hello more\n",
		}, rg)
		outside := t.TempDir()
		for _, f := range []string{leakMarker + ".txt", leakMarker + "dir/" + leakMarker + ".txt", "inside.txt", "deeper/more.txt"} {
			p := filepath.Join(outside, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("hello "+leakMarker+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		stop := swapForever(t, filepath.Join(w.dir, "sub"), outside)
		var wg sync.WaitGroup
		for _, s := range shapes {
			if s.tool == "Glob" && rg != "-" {
				continue // Glob has one engine
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				ran, linkSeen := 0, 0
				for attempts := 0; ran < perShape && attempts < 50*perShape; attempts++ {
					p, _ := s.args["path"].(string)
					target, err := w.resolver.Resolve(cmp.Or(p, "."))
					if err != nil || target.Root != pathguard.Workspace {
						// A path that is a link now resolves outside the
						// workspace: the host would show a card, not search.
						linkSeen++
						continue
					}
					res := w.runOn(s.tool, s.args, target)
					ran++
					out, _ := json.Marshal(res)
					if strings.Contains(string(out), leakMarker) {
						t.Errorf("rg=%q %s %v leaked the outside folder: %s", rg, s.tool, s.args, out)
						return
					}
					if res.OK && res.Root != "workspace" {
						t.Errorf("root = %q", res.Root)
					}
				}
				if ran < perShape {
					t.Errorf("rg=%q %s %v: only %d searches ran (%d saw the link at resolve time)", rg, s.tool, s.args, ran, linkSeen)
				}
			}()
		}
		wg.Wait()
		if n := stop(); n < 100 {
			t.Errorf("the folder was swapped only %d times", n)
		}
	}
}

// runOn runs a tool on a target resolved by the caller, as hostcore does
// after its own checks.
func (w *ws) runOn(tool string, args map[string]any, target pathguard.Resolved) tools.Result {
	raw, _ := json.Marshal(args)
	folded, _, err := w.registry.Validate(tool, raw)
	if err != nil {
		return tools.Failure(err)
	}
	tl, _ := w.registry.Lookup(tool)
	return tl.Run(w.t.Context(), &tools.Call{SessionID: "s", Args: folded, Target: &target, Resolver: w.resolver})
}

// swapForever swaps dir between itself and a link to target until the
// returned stop is called; stop restores dir and returns the swap count.
func swapForever(t *testing.T, dir, target string) (stop func() int) {
	t.Helper()
	real, link := dir+".real", dir+".link"
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	var done atomic.Bool
	var n atomic.Int64
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for !done.Load() {
			for _, mv := range [][2]string{{dir, real}, {link, dir}, {dir, link}, {real, dir}} {
				if err := os.Rename(mv[0], mv[1]); err != nil {
					t.Errorf("swap: %v", err)
					return
				}
			}
			n.Add(1)
			runtime.Gosched() // let the searches on this core run between swaps
		}
	}()
	return func() int {
		done.Store(true)
		<-finished
		return int(n.Load())
	}
}
