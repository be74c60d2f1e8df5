package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// callsPerRound is how many Bash calls one timed round makes (one call is a
// few milliseconds: a round of one would be mostly noise).
const callsPerRound = 20

// benchRunner measures the Bash tool's per-call cost through Execute
// against `bash -lc true`, and the runner's memory while a command runs
// against bash's, with the dedicated runner (cmd/pi-desktop-runner) and,
// when the app binary is there, with the app re-executed as the runner (the
// fallback). Both sides run with the same temporary HOME, so the machine's
// own startup files weigh on both alike.
func benchRunner(rep *report, exits *atExit, runner, app string, rounds, warm int) error {
	tmp, err := os.MkdirTemp("", "pi-bench-runner-")
	if err != nil {
		return err
	}
	exits.add(func() { _ = os.RemoveAll(tmp) })
	if _, err := os.Stat(runner); err != nil {
		say("runner: %s is missing (make build makes it); building it for this run", runner)
		runner = filepath.Join(tmp, proc.RunnerName)
		b := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", runner, "./cmd/pi-desktop-runner")
		b.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := b.CombinedOutput(); err != nil {
			return fmt.Errorf("build the runner: %w: %s", err, out)
		}
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	oldHome := os.Getenv("HOME")
	os.Setenv("HOME", home)
	defer os.Setenv("HOME", oldHome)

	type variant struct{ label, exe string }
	variants := []variant{{"dedicated runner (" + sizeMB(runner) + ")", runner}}
	if _, err := os.Stat(app); err == nil {
		variants = append(variants, variant{"fallback: the app re-executed (" + sizeMB(app) + ")", app})
	} else {
		rep.note("runner: %s is missing, so the fallback rows (the app binary re-executed as the runner) were not measured", app)
	}
	for i, v := range variants {
		if err := benchBashCall(rep, tmp, v.label, v.exe, "true", 0, rounds, warm); err != nil {
			return err
		}
		if i == 0 {
			// Calls a model's round trip apart, the usual case: the spare
			// runner has started by the next call.
			if err := benchBashCall(rep, tmp, v.label, v.exe, "true", pacedGap, rounds, warm); err != nil {
				return err
			}
			// A command that writes: the turn's snapshots run around it.
			if err := benchBashCall(rep, tmp, v.label, v.exe, "touch touched.txt", 0, rounds, warm); err != nil {
				return err
			}
		}
	}
	for _, v := range variants {
		if err := benchRunnerPSS(rep, v.label, v.exe, rounds); err != nil {
			return err
		}
	}
	return nil
}

func sizeMB(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.1f MB", float64(fi.Size())/1e6)
}

// pacedGap is the untimed pause between paced calls: shorter than a
// model's round trip, longer than a runner's start.
const pacedGap = 50 * time.Millisecond

// benchBashCall times Bash {"command": command} through hostcore.Execute
// in a turn (policy, audit row, checkpoints unless the command is
// read-only, runner, login shell, capture) against the command a user
// would type, `bash -lc command`. With gap > 0 each call (on both sides)
// follows an untimed pause of gap; with 0 the calls come back to back, as
// several Bash calls of one response do.
func benchBashCall(rep *report, tmp, label, runner, command string, gap time.Duration, rounds, warm int) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp(tmp, "core-")
	if err != nil {
		return err
	}
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		return err
	}
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: filepath.Join(dir, "data"), RgPath: "-", RunnerExe: runner})
	if err != nil {
		return err
	}
	defer core.Close()
	p, err := core.AddProject(ctx, proj)
	if err != nil {
		return err
	}
	s, err := core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		return err
	}
	if _, err := core.ConfigureSession(ctx, s.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		return err
	}
	args, _ := json.Marshal(map[string]any{"command": command})
	var callErr error
	n := 0
	// timed runs call callsPerRound times, each after the pause, and
	// returns the mean of the calls alone.
	timed := func(call func()) time.Duration {
		var d time.Duration
		for range callsPerRound {
			time.Sleep(gap)
			t0 := time.Now()
			call()
			d += time.Since(t0)
		}
		return d / callsPerRound
	}
	ours := func() time.Duration {
		return timed(func() {
			n++
			res := core.Execute(ctx, hostcore.ToolRequest{SessionID: s.ID, TurnID: "t", ToolCallID: "c" + strconv.Itoa(n), Tool: "Bash", Args: args})
			if !res.OK && callErr == nil {
				callErr = fmt.Errorf("Bash %s: %s %s", command, res.Code, res.Message)
			}
		})
	}
	peer := func() time.Duration {
		return timed(func() {
			c := exec.Command("bash", "-lc", command)
			c.Dir = proj
			if err := c.Run(); err != nil && callErr == nil {
				callErr = fmt.Errorf("bash -lc %s: %w", command, err)
			}
		})
	}
	say("runner: Bash `%s` per call, %s", command, label)
	res := interleave(rounds, warm, ours, peer)
	if callErr != nil {
		return callErr
	}
	q := ratio(res[0], res[1])
	what := "read-only: no checkpoint"
	if command != "true" {
		what = "it writes: a before-bash and an after-bash checkpoint snapshot"
	}
	pace := ""
	if gap > 0 {
		pace = fmt.Sprintf(", calls %s apart (untimed, both sides)", gap)
	}
	rep.add(row{section: "Bash", figure: "Bash `" + command + "` per call through Execute in a turn (" + what + "; the runner started ahead by the spare" + pace + "), " + label + ", vs `bash -lc '" + command + "'`",
		ours: fmtSample(res[0]), peer: fmtSample(res[1]), ratio: fmt.Sprintf("%.2f×", q), budget: "≤ 1.5×", meets: verdict(q <= 1.5)})
	return nil
}

// benchRunnerPSS reads the runner's proportional set size while its
// command (bash waiting on sleep) runs, against that bash's own.
func benchRunnerPSS(rep *report, label, runner string, rounds int) error {
	var ours, anon, peer floats
	say("runner: memory while a command runs, %s", label)
	for range rounds {
		p, err := proc.Start(context.Background(), proc.Spec{Path: "bash", Args: []string{"-c", "sleep 30; :"}, RunnerExe: runner, KillGrace: 100 * time.Millisecond})
		if err != nil {
			return err
		}
		// Let the runner settle into its wait (both pages and goroutines).
		time.Sleep(300 * time.Millisecond)
		rpid, err := parentOf(p.Pid())
		var pss, pssAnon, bashPss float64
		if err == nil {
			pss, pssAnon, err = smapsPSS(rpid)
		}
		if err == nil {
			bashPss, _, err = smapsPSS(p.Pid())
		}
		_ = p.Kill()
		_, _ = p.Wait()
		if err != nil {
			return fmt.Errorf("runner memory: %w", err)
		}
		ours, anon, peer = append(ours, pss), append(anon, pssAnon), append(peer, bashPss)
	}
	mb := func(f floats) string {
		lo, hi := f.span()
		return fmt.Sprintf("%.2f MB (%.2f–%.2f)", f.median()/1024, lo/1024, hi/1024)
	}
	rep.add(row{section: "Bash", figure: fmt.Sprintf("Runner PSS while a command runs, %s (of it private: %.2f MB); the shell's own PSS beside it", label, anon.median()/1024),
		ours: mb(ours), peer: mb(peer), ratio: fmt.Sprintf("%.1f×", ours.median()/peer.median()), budget: "≤ 2 MB", meets: verdict(ours.median() <= 2*1024)})
	return nil
}

func parentOf(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+2:])
	if i < 0 || len(f) < 2 {
		return 0, errors.New("bad stat line")
	}
	return strconv.Atoi(f[1])
}

// smapsPSS is a process's Pss and Pss_Anon in kB (smaps_rollup).
func smapsPSS(pid int) (pss, anon float64, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0, 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "Pss:":
			pss = v
		case "Pss_Anon:":
			anon = v
		}
	}
	if pss == 0 {
		return 0, 0, fmt.Errorf("no Pss for pid %d", pid)
	}
	return pss, anon, nil
}
