//go:build !windows

package hostcore_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// craftedEnv is a host environment with a temporary HOME, credentials the
// policy must drop and ordinary variables it must keep.
func craftedEnv(home string, extra ...string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8", "SHELL=/bin/bash",
		"ANTHROPIC_API_KEY=sk-ant-leak1", "OPENAI_API_KEY=sk-leak2", "AWS_SECRET_ACCESS_KEY=leak3",
		"AWS_ACCESS_KEY_ID=AKIALEAK4", "AWS_SESSION_TOKEN=leak5", "GITHUB_TOKEN=ghp_leak6", "DB_PASSWORD=leak7",
		"STRIPE_SECRET_KEY=leak8", "AWS_REGION=eu-west-1", "KEEP_ME=kept", "NPM_TOKEN=passed", "DROP_ME=leak9",
	}, extra...)
}

var (
	mustArrive = []string{"PATH", "HOME", "LANG", "AWS_REGION", "KEEP_ME", "NPM_TOKEN"}
	mustNot    = []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "AWS_SESSION_TOKEN", "GITHUB_TOKEN", "DB_PASSWORD", "STRIPE_SECRET_KEY", "DROP_ME"}
)

// checkEnvDump checks the output of `env` against the policy.
func checkEnvDump(t *testing.T, where, dump string) {
	t.Helper()
	var names []string
	for _, line := range strings.Split(dump, "\n") {
		if n, _, ok := strings.Cut(line, "="); ok {
			names = append(names, n)
		}
	}
	for _, n := range mustArrive {
		if !slices.Contains(names, n) {
			t.Errorf("%s: %s did not arrive (got %v)", where, n, names)
		}
	}
	for _, n := range mustNot {
		if slices.Contains(names, n) {
			t.Errorf("%s: %s arrived", where, n)
		}
	}
	if strings.Contains(dump, "leak") {
		t.Errorf("%s: a dropped value arrived:\n%s", where, dump)
	}
}

// waitFile waits for a file a command writes (renamed into place when
// complete).
func waitFile(t *testing.T, pattern string) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m, _ := filepath.Glob(pattern); len(m) == 1 {
			b, err := os.ReadFile(m[0])
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", pattern)
		}
	}
}

// Commands the agent starts (Bash, background tasks, worktree setup) get
// the host's environment without credentials, as the settings adjust it.
func TestCommandEnvironmentPolicy(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "proj")
	for _, d := range []string{home, project} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(project, "main.go"), "package main\n")
	gitInit(t, project)
	sink := setupSink{results: make(chan hostcore.SetupResult, 4)}
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(root, "data"), Sink: sink, RgPath: "-", Environ: craftedEnv(home)})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	s, err := core.Settings(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	s.EnvPassthrough, s.EnvDrop = []string{"NPM_TOKEN"}, []string{"DROP_ME"}
	if _, err := core.UpdateSettings(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	p, err := core.AddProject(t.Context(), project)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.SetProjectSetup(t.Context(), p.ID, "env > setup-env.tmp && mv setup-env.tmp setup-env.txt"); err != nil {
		t.Fatal(err)
	}
	sess, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := waitSetup(t, sink); r.State != "done" {
		t.Fatalf("setup = %+v", r)
	}
	checkEnvDump(t, "worktree setup", waitFile(t, filepath.Join(root, "data", "worktrees", "*", sess.ID, "setup-env.txt")))
	if _, err := core.ConfigureSession(t.Context(), sess.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		t.Fatal(err)
	}
	run := func(args map[string]any) tools.Result {
		raw, _ := json.Marshal(args)
		return core.Execute(t.Context(), hostcore.ToolRequest{SessionID: sess.ID, TurnID: "turn", ToolCallID: fmt.Sprint(time.Now().UnixNano()), Tool: "Bash", Args: raw})
	}
	res := run(map[string]any{"command": "env"})
	if !res.OK {
		t.Fatalf("Bash = %+v", res)
	}
	checkEnvDump(t, "Bash", res.Fields["stdout"].(string))
	if res := run(map[string]any{"command": "env > bg-env.tmp && mv bg-env.tmp bg-env.txt", "runInBackground": true}); !res.OK {
		t.Fatalf("background Bash = %+v", res)
	}
	checkEnvDump(t, "background task", waitFile(t, filepath.Join(root, "data", "worktrees", "*", sess.ID, "bg-env.txt")))
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || !strings.Contains(string(st), ") Z ")
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	b := waitFile(t, path)
	pid, err := strconv.Atoi(strings.TrimSpace(b))
	if err != nil {
		t.Fatalf("%s: %q", path, b)
	}
	return pid
}

// slowProfile is a bash login profile whose interactive part (what the
// login-shell PATH probe runs, not what Bash's `bash -lc` runs) starts a
// helper in a session of its own and then hangs for the given seconds.
func slowProfile(t *testing.T, home string, seconds int) {
	t.Helper()
	write(t, filepath.Join(home, ".bash_profile"), `. "$HOME/.bashrc"`+"\n")
	write(t, filepath.Join(home, ".bashrc"), fmt.Sprintf(`case $- in *i*)
  echo $$ > "$HOME/probe.tmp" && mv "$HOME/probe.tmp" "$HOME/probe.pid"
  setsid sleep 300 </dev/null >/dev/null 2>&1 &
  echo $! > "$HOME/child.tmp" && mv "$HOME/child.tmp" "$HOME/child.pid"
  sleep %d;;
esac
`, seconds))
}

func slowCore(t *testing.T, seconds int) (*hostcore.Core, string, string) {
	t.Helper()
	return slowCoreWith(t, seconds, hostcore.Config{})
}

// slowCoreWith is slowCore with cfg's other fields (DataDir, RgPath and
// Environ are set here).
func slowCoreWith(t *testing.T, seconds int, cfg hostcore.Config) (*hostcore.Core, string, string) {
	t.Helper()
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "proj")
	for _, d := range []string{home, project} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	slowProfile(t, home, seconds)
	cfg.DataDir, cfg.RgPath, cfg.Environ = filepath.Join(root, "data"), "-", craftedEnv(home)
	core, err := hostcore.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return core, home, project
}

// With a slow interactive profile the first Bash call waits for the probe
// no longer than its 5 s bound, then runs with the host PATH; the probe and
// what its profile started are gone by then.
func TestFirstBashCallWithASlowLoginProfile(t *testing.T) {
	core, home, project := slowCore(t, 30)
	defer core.Close()
	p, err := core.AddProject(t.Context(), project)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.ConfigureSession(t.Context(), sess.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := core.Execute(t.Context(), hostcore.ToolRequest{SessionID: sess.ID, TurnID: "turn", ToolCallID: "c1", Tool: "Bash", Args: json.RawMessage(`{"command":"echo first-call"}`)})
	took := time.Since(start)
	if !res.OK || !strings.Contains(res.Content, "first-call") {
		t.Fatalf("Bash = %+v", res)
	}
	probe, child := readPid(t, filepath.Join(home, "probe.pid")), readPid(t, filepath.Join(home, "child.pid"))
	for _, pid := range []int{probe, child} {
		if alive(pid) {
			t.Errorf("process %d of the probe is alive after the first call", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if took > 20*time.Second {
		t.Errorf("the first call took %v; the probe's bound is 5 s", took)
	}
}

// With DeferPathProbe (the desktop app) the probe waits for WarmPathProbe,
// so the window's start does not share the CPU with the user's shell
// startup files; Close still stops it.
func TestDeferredLoginProbeStartsOnWarm(t *testing.T) {
	core, home, _ := slowCoreWith(t, 300, hostcore.Config{DeferPathProbe: true})
	pidFile := filepath.Join(home, "probe.pid")
	// A probe started with the host writes its pid well within this wait;
	// a busy machine can only make the check pass wrongly, never fail.
	time.Sleep(500 * time.Millisecond)
	if _, err := os.Stat(pidFile); err == nil {
		t.Error("the deferred probe ran before WarmPathProbe")
	}
	core.WarmPathProbe()
	probe, child := readPid(t, pidFile), readPid(t, filepath.Join(home, "child.pid"))
	closeEndsProbe(t, core, probe, child)
	core.WarmPathProbe() // after Close: starts nothing
	time.Sleep(200 * time.Millisecond)
	if b, _ := os.ReadFile(pidFile); strings.TrimSpace(string(b)) != strconv.Itoa(probe) {
		t.Errorf("WarmPathProbe after Close ran the probe again (pid file %q)", b)
	}
}

// closeEndsProbe closes core and checks that none of pids (the probe's
// shell and what its profile started) outlived it.
func closeEndsProbe(t *testing.T, core *hostcore.Core, pids ...int) {
	t.Helper()
	if err := core.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d of the probe outlived Close", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// Close stops a probe still running: once it returns, neither the probe's
// shell nor what its profile started is alive.
func TestCloseStopsTheLoginProbe(t *testing.T) {
	core, home, _ := slowCore(t, 300)
	probe, child := readPid(t, filepath.Join(home, "probe.pid")), readPid(t, filepath.Join(home, "child.pid"))
	closeEndsProbe(t, core, probe, child)
}
