package main

import (
	"bufio"
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// benchApp starts the production binary under Xvfb several times and
// measures, from exec: the window mapped (xwininfo), the first painted
// content (a screenshot that is not one flat colour, as scripts/smoke.sh
// checks), and after 5 s idle the PSS of the app and every process below it
// (WebKit's web and network processes).
func benchApp(rep *report, bin string, rounds int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("the app section needs the production binary (make build): %w", err)
	}
	for _, tool := range []string{"Xvfb", "xwininfo", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("the app section needs %s (apt-get install xvfb x11-utils imagemagick): %w", tool, err)
		}
	}
	display, stopX, err := startXvfb()
	if err != nil {
		return err
	}
	defer stopX()
	data, err := os.MkdirTemp("", "pi-bench-app-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(data)

	var mapped, painted sample
	var pss floats
	var procs int
	for i := -1; i < rounds; i++ { // round -1 is the first start: it creates the database, not timed
		say("app: start %d/%d", i+1, rounds)
		m, p, kb, n, err := startOnce(bin, display, filepath.Join(data, "data"), "", 5*time.Second, i >= 0)
		if err != nil {
			return err
		}
		if i < 0 {
			continue
		}
		mapped, painted, pss, procs = append(mapped, m), append(painted, p), append(pss, float64(kb)), n
	}
	rep.add(row{section: "App", figure: "App start under Xvfb: exec → window mapped (polled every 10 ms)", ours: fmtSample(mapped), peer: "—", ratio: "—",
		budget: "≤ 1 s", meets: verdict(mapped.median() <= time.Second)})
	rep.add(row{section: "App", figure: "App start under Xvfb: exec → first content painted (screenshot not blank; polled, resolution one screenshot ≈ 0.1–0.3 s)",
		ours: fmtSample(painted), peer: "—", ratio: "—", budget: "—"})
	lo, hi := pss.span()
	rep.add(row{section: "App", figure: fmt.Sprintf("App memory at idle (5 s after first paint): PSS summed over the app and its %d child processes", procs-1),
		ours: fmt.Sprintf("%.0f MB (%.0f–%.0f)", pss.median()/1024, lo/1024, hi/1024), peer: "—", ratio: "—",
		budget: "≤ 220 MB", meets: verdict(pss.median()/1024 <= appIdleBudgetMB)})
	return benchAppLongSession(rep, bin, display, rounds)
}

// The app's memory budgets (decisions.md): PSS of all its processes at
// idle and with a 5,000-message session open.
const (
	appIdleBudgetMB        = 220
	appLongSessionBudgetMB = 250
)

// longSessionMessages is the size of the long session the app and render
// sections open (issue: "a 5,000-message session").
const longSessionMessages = 5000

// benchAppLongSession starts the app opened on a seeded 5,000-message
// session (--session) and reads the memory of all its processes once the
// transcript has had 15 s to load and render.
func benchAppLongSession(rep *report, bin, display string, rounds int) error {
	dir, sessionID, _, err := seededDataDir(longSessionMessages)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var pss floats
	var procs int
	for i := 0; i < max(1, rounds/2); i++ {
		say("app: long session %d/%d", i+1, max(1, rounds/2))
		_, _, kb, n, err := startOnce(bin, display, filepath.Join(dir, "data"), sessionID, 15*time.Second, true)
		if err != nil {
			return err
		}
		pss, procs = append(pss, float64(kb)), n
	}
	lo, hi := pss.span()
	rep.add(row{section: "App", figure: fmt.Sprintf("App memory with a %d-message session open (15 s after first paint): PSS over the app and its %d child processes", longSessionMessages, procs-1),
		ours: fmt.Sprintf("%.0f MB (%.0f–%.0f)", pss.median()/1024, lo/1024, hi/1024), peer: "—", ratio: "—",
		budget: "≤ 250 MB", meets: verdict(pss.median()/1024 <= appLongSessionBudgetMB)})
	return nil
}

func startXvfb() (string, func(), error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	// -noreset: the server must not reset when the app exits between rounds.
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1440x900x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	w.Close()
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		cmd.Process.Kill()
		return "", nil, fmt.Errorf("Xvfb did not report a display: %w", err)
	}
	stop := func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }
	return ":" + strings.TrimSpace(line), stop, nil
}

// startOnce starts the app on dataDir (opening sessionID when set) and
// measures it; settle is the idle time before the memory is read.
func startOnce(bin, display, dataDir, sessionID string, settle time.Duration, measure bool) (mapped, painted time.Duration, pssKB int64, procs int, err error) {
	env := append(os.Environ(), "DISPLAY="+display)
	var log bytes.Buffer
	args := []string{"--data-dir", dataDir}
	if sessionID != "" {
		args = append(args, "--session", sessionID)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &log, &log
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, 0, 0, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}()
	alive := func() bool {
		select {
		case e := <-exited:
			exited <- e
			return false
		default:
			return true
		}
	}
	x := func(name string, args ...string) *exec.Cmd { c := exec.Command(name, args...); c.Env = env; return c }

	win := ""
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && alive(); time.Sleep(10 * time.Millisecond) {
		out, _ := x("xwininfo", "-name", "PI-Desktop").Output()
		if bytes.Contains(out, []byte("Map State: IsViewable")) {
			mapped = time.Since(t0)
			for _, l := range strings.Split(string(out), "\n") {
				if i := strings.Index(l, "Window id: "); i >= 0 {
					win = strings.Fields(l[i+len("Window id: "):])[0]
				}
			}
			break
		}
	}
	if win == "" {
		return 0, 0, 0, 0, fmt.Errorf("no mapped PI-Desktop window within 30 s; app output:\n%s", log.String())
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		shot := time.Since(t0)
		out, err := x("import", "-window", win, "png:-").Output()
		if err == nil && nonBlank(out) {
			painted = shot
			break
		}
		if time.Now().After(deadline) || !alive() {
			return 0, 0, 0, 0, fmt.Errorf("the window stayed blank for 30 s; app output:\n%s", log.String())
		}
	}
	if !measure {
		return mapped, painted, 0, 0, nil
	}
	time.Sleep(settle)
	pids := descendants(cmd.Process.Pid)
	for _, pid := range pids {
		pssKB += smapsPss(pid)
	}
	return mapped, painted, pssKB, len(pids), nil
}

// nonBlank is smoke.sh's test: more than 64 colours and a grey standard
// deviation above 0.02.
func nonBlank(pngData []byte) bool {
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return false
	}
	b := img.Bounds()
	colours := map[uint32]struct{}{}
	var sum, sq, n float64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if len(colours) <= 64 {
				colours[(r>>8)<<16|(g>>8)<<8|bl>>8] = struct{}{}
			}
			v := (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(bl)) / 65535
			sum, sq, n = sum+v, sq+v*v, n+1
		}
	}
	mean := sum / n
	return len(colours) > 64 && math.Sqrt(max(0, sq/n-mean*mean)) > 0.02
}

// descendants is pid and every process below it.
func descendants(root int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command name, which may hold spaces: state ppid …
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 {
			ppid, _ := strconv.Atoi(f[1])
			children[ppid] = append(children[ppid], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

func smapsPss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "Pss:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return 0
}
