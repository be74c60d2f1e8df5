package proc

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// buildRunner builds cmd/pi-desktop-runner as the release does.
func buildRunner(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), RunnerName)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "../../cmd/pi-desktop-runner")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build the runner: %v\n%s", err, b)
	}
	return out
}

// The dedicated runner speaks the protocol of the in-binary one: exit
// codes, output, and a tree that tries to escape is killed with it.
func TestDedicatedRunner(t *testing.T) {
	runner := buildRunner(t)
	t.Run("exit codes and output", func(t *testing.T) {
		for _, tc := range []struct {
			script string
			want   int
			out    string
		}{
			{"echo hi", 0, "hi\n"},
			{"echo err >&2; exit 3", 3, ""},
			{"kill -TERM $$", 128 + 15, ""},
		} {
			var out syncBuffer
			p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", tc.script}, Stdout: &out, RunnerExe: runner})
			if err != nil {
				t.Fatal(err)
			}
			if code, err := p.Wait(); code != tc.want || err != nil || out.String() != tc.out {
				t.Errorf("%q: Wait = %d, %v, stdout %q; want %d, nil, %q", tc.script, code, err, out.String(), tc.want, tc.out)
			}
		}
	})
	t.Run("setsid double fork killed", func(t *testing.T) {
		marker := newMarker(t)
		s := bashSpec(script("setsid sh -c '(sleep 1000 &) ; sleep 1000' &", true), marker, nil, nil)
		s.RunnerExe = runner
		p, err := Start(t.Context(), s)
		if err != nil {
			t.Fatal(err)
		}
		waitMarkers(t, marker, 3)
		_ = p.Kill()
		if _, err := p.Wait(); !errors.Is(err, ErrKilled) {
			t.Errorf("Wait err = %v, want ErrKilled", err)
		}
		assertNoSurvivors(t, marker)
	})
	t.Run("not for direct use", func(t *testing.T) {
		if err := exec.Command(runner).Run(); err == nil {
			t.Error("the runner ran without the runner argument")
		}
	})
}
