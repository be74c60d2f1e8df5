package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

const childArg = "__bench_child"

// oneGB is a command printing 1 GiB of 80-byte lines.
const oneGB = `yes '2026-11-29T23:09:04Z INFO compiling package github.com/example/mod/pkg ok' | head -c 1073741824`

type childResult struct {
	WallNs int64  `json:"wallNs"`
	HWMKB  int64  `json:"hwmKB"` // VmHWM: the process's peak resident memory
	Note   string `json:"note"`
}

// benchBash1G runs 1 GiB of output through the Bash tool (hostcore.Execute,
// the process-tree runner, the capture with its spill file) and through a
// plain `bash -c … | io.Copy(io.Discard)`, each in a fresh child process so
// the peak resident memory (VmHWM) is the run's own.
func benchBash1G(rep *report) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	// Both children get the same empty HOME: a login shell then reads no
	// profile of this machine's user (here one took 0.6 s to start, counted
	// against the tool's throughput and not the peer's `bash -c`).
	home, err := os.MkdirTemp("", "pi-bench-home-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	run := func(mode string) (childResult, error) {
		cmd := exec.Command(self, childArg, mode)
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return childResult{}, fmt.Errorf("bash child %s: %w: %s", mode, err, ee.Stderr)
			}
			return childResult{}, err
		}
		var r childResult
		if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
			return childResult{}, fmt.Errorf("bash child %s: %w: %s", mode, err, out)
		}
		return r, nil
	}
	var capWall, copyWall sample
	var capHWM, copyHWM floats
	note := ""
	for i := range 3 {
		say("bash: 1 GiB of output, round %d/3", i+1)
		order := []string{"capture", "copy"}
		if i%2 == 1 {
			order = []string{"copy", "capture"}
		}
		for _, mode := range order {
			r, err := run(mode)
			if err != nil {
				return err
			}
			if mode == "capture" {
				capWall, capHWM, note = append(capWall, time.Duration(r.WallNs)), append(capHWM, float64(r.HWMKB)), r.Note
			} else {
				copyWall, copyHWM = append(copyWall, time.Duration(r.WallNs)), append(copyHWM, float64(r.HWMKB))
			}
		}
	}
	gbs := func(s sample) string {
		lo, hi := s.minMax()
		f := func(d time.Duration) float64 { return float64(1<<30) / d.Seconds() / 1e6 }
		return fmt.Sprintf("%.0f MB/s (%.0f–%.0f)", f(s.median()), f(hi), f(lo))
	}
	q := float64(copyWall.median()) / float64(capWall.median())
	rep.add(row{section: "Bash", figure: "Bash tool, 1 GiB of stdout end to end (Execute → runner → capture + spill) vs `bash -c` piped to io.Copy",
		ours: gbs(capWall), peer: gbs(copyWall), ratio: fmt.Sprintf("%.2f×", q), budget: "≥ 0.9× throughput", meets: verdict(q >= 0.9)})
	mb := func(f floats) string {
		lo, hi := f.span()
		return fmt.Sprintf("%.0f MB (%.0f–%.0f)", f.median()/1024, lo/1024, hi/1024)
	}
	rep.add(row{section: "Bash", figure: "Peak resident memory (VmHWM) of the process running that 1 GiB command; " + note,
		ours: mb(capHWM), peer: mb(copyHWM), ratio: fmt.Sprintf("%.2f×", capHWM.median()/copyHWM.median()), budget: "bounded whatever the size", meets: verdict(capHWM.median() < 200*1024)})
	return nil
}

// bashChild is one measured run in its own process.
func bashChild(args []string) int {
	if len(args) != 1 {
		return 2
	}
	var r childResult
	var err error
	switch args[0] {
	case "capture":
		r, err = childCapture()
	case "copy":
		r, err = childCopy()
	default:
		err = fmt.Errorf("unknown child %q", args[0])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	r.HWMKB = vmHWM()
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

func childCapture() (childResult, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "pi-bench-bash-")
	if err != nil {
		return childResult{}, err
	}
	defer os.RemoveAll(dir)
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: filepath.Join(dir, "data"), RgPath: "-"})
	if err != nil {
		return childResult{}, err
	}
	defer core.Close()
	p, err := core.AddProject(ctx, proj)
	if err != nil {
		return childResult{}, err
	}
	s, err := core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		return childResult{}, err
	}
	if _, err := core.ConfigureSession(ctx, s.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		return childResult{}, err
	}
	args, _ := json.Marshal(map[string]any{"command": oneGB, "timeout": 3600})
	t0 := time.Now()
	res := core.Execute(ctx, hostcore.ToolRequest{SessionID: s.ID, TurnID: "t", ToolCallID: "c", Tool: "Bash", Args: args})
	wall := time.Since(t0)
	if !res.OK {
		return childResult{}, fmt.Errorf("Bash: %s %s", res.Code, res.Message)
	}
	note := "the model sees the head, the rest is in a 512 KB spill file"
	if !strings.Contains(res.Content, "truncated") {
		note = "no truncation marker?"
	}
	return childResult{WallNs: wall.Nanoseconds(), Note: note}, nil
}

func childCopy() (childResult, error) {
	t0 := time.Now()
	cmd := exec.Command("bash", "-c", oneGB)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return childResult{}, err
	}
	if err := cmd.Start(); err != nil {
		return childResult{}, err
	}
	n, _ := io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return childResult{}, err
	}
	if n != 1<<30 {
		return childResult{}, fmt.Errorf("copied %d bytes", n)
	}
	return childResult{WallNs: time.Since(t0).Nanoseconds()}, nil
}

func vmHWM() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return 0
}
