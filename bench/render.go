package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// benchRender measures the transcript of a seeded 5,000-message session in
// Chromium: the real frontend against the real backend (the dev build's
// Wails dev server, as the end-to-end tests use it), from the click on the
// session to its latest message on screen, then a scroll from the bottom to
// the top one step per frame. The peer is the same messages as one static
// HTML page without script — what the browser needs for that much content —
// scrolled the same way.
func benchRender(rep *report, rounds int) error {
	chromium, err := renderTools()
	if err != nil {
		return err
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	assets := filepath.Join(root, "frontend", "dist")
	if _, err := os.Stat(filepath.Join(assets, "index.html")); err != nil {
		return fmt.Errorf("the render section needs the built frontend (make build): %w", err)
	}
	dir, sessionID, lastText, err := seededDataDir(longSessionMessages)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	peer := filepath.Join(dir, "peer.html")
	if err := writePeerHTML(filepath.Join(dir, "data"), sessionID, peer); err != nil {
		return err
	}
	say("render: building the dev binary")
	bin := filepath.Join(dir, "pi-dev")
	build := exec.Command("go", "build", "-tags", "dev,webkit2_41", "-o", bin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the dev binary: %w", err)
	}
	display, stopX, err := startXvfb()
	if err != nil {
		return err
	}
	defer stopX()
	port, err := freePort()
	if err != nil {
		return err
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	var log bytes.Buffer
	app := exec.Command(bin, "-devserver", fmt.Sprintf("127.0.0.1:%d", port), "-assetdir", assets, "-loglevel", "Error")
	app.Env = append(os.Environ(), "DISPLAY="+display, "PI_DESKTOP_DATA_DIR="+filepath.Join(dir, "data"),
		"WEBKIT_DISABLE_COMPOSITING_MODE=1", "NO_AT_BRIDGE=1")
	app.Stdout, app.Stderr = &log, &log
	if err := app.Start(); err != nil {
		return err
	}
	defer func() {
		app.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { app.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			app.Process.Kill()
			<-done
		}
	}()
	if err := waitHTTP(url, 60*time.Second); err != nil {
		return fmt.Errorf("%w; app output:\n%s", err, log.String())
	}
	say("render: %d rounds in Chromium", rounds)
	node := exec.Command("node", filepath.Join("e2e", "bench", "render.mjs"), url, longSessionTitle, lastText, peer, fmt.Sprint(rounds))
	node.Dir = filepath.Join(root, "frontend")
	node.Env = append(os.Environ(), "PI_E2E_CHROMIUM="+chromium)
	node.Stderr = os.Stderr
	out, err := node.Output()
	if err != nil {
		return fmt.Errorf("render.mjs: %w; app output:\n%s", err, log.String())
	}
	var res struct {
		Open       []float64   `json:"open"`
		Ours       [][]float64 `json:"ours"`
		PeerFrames [][]float64 `json:"peer"`
		DomRows    int         `json:"domRows"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return fmt.Errorf("render.mjs printed %q: %w", out, err)
	}
	var open sample
	for _, ms := range res.Open {
		open = append(open, time.Duration(ms*float64(time.Millisecond)))
	}
	rep.add(row{section: "Render", figure: fmt.Sprintf("Open a %d-message session in Chromium: click → latest message on screen", longSessionMessages),
		ours: fmtSample(open), peer: "—", ratio: "—", budget: "—"})
	o, p := frameStats(res.Ours), frameStats(res.PeerFrames)
	rep.add(row{section: "Render", figure: "Scroll it bottom → top, 1,200 px per frame: frame time p50 / p95, frames over 25 ms (peer: the same messages as static HTML)",
		ours: o.String(), peer: p.String(), ratio: fmt.Sprintf("%.2f×", o.p95/max(p.p95, 0.001)), budget: "—"})
	rep.note("Render: %d transcript rows were in the DOM after the scroll (of %d messages); the virtualized list keeps only rows near the viewport.", res.DomRows, longSessionMessages)
	return nil
}

// droppedFrame is 1.5 vsync intervals at 60 Hz: a frame this long missed
// at least one display refresh.
const droppedFrame = 25.0

type frames struct {
	p50, p95    float64
	over, total int
}

func (f frames) String() string {
	return fmt.Sprintf("%.1f / %.1f ms, %d of %d dropped", f.p50, f.p95, f.over, f.total)
}

func frameStats(rounds [][]float64) frames {
	var all []float64
	for _, r := range rounds {
		all = append(all, r...)
	}
	if len(all) == 0 {
		return frames{}
	}
	slices.Sort(all)
	f := frames{p50: all[len(all)/2], p95: all[len(all)*95/100], total: len(all)}
	for _, v := range all {
		if v > droppedFrame {
			f.over++
		}
	}
	return f
}

// writePeerHTML renders the seeded transcript as one static page: each
// message's text in a paragraph (code kept preformatted) and each tool call
// as a line, at the window's reading width.
func writePeerHTML(dataDir, sessionID, file string) error {
	ctx := context.Background()
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: dataDir, Version: "bench"})
	if err != nil {
		return err
	}
	defer core.Close()
	tr, err := core.Transcript(ctx, sessionID)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(`<!doctype html><meta charset="utf-8"><style>body{font:14px/1.5 system-ui,sans-serif;max-width:820px;margin:0 auto;padding:16px}` +
		`pre{background:#f0f0ee;padding:12px;border-radius:6px;white-space:pre-wrap}.u{background:#eee;border-radius:12px;padding:8px 12px;margin-left:30%}` +
		`.t{border:1px solid #ddd;border-radius:6px;padding:6px 10px;font:12px monospace}</style>`)
	for _, m := range tr.Messages {
		class := ""
		if m.Role == provider.RoleUser {
			class = ` class="u"`
		}
		for _, blk := range m.Content {
			if blk.Type != provider.BlockText {
				continue
			}
			parts := strings.Split(blk.Text, "```")
			for i, part := range parts {
				if i%2 == 1 {
					fmt.Fprintf(&b, "<pre>%s</pre>", html.EscapeString(part))
				} else if strings.TrimSpace(part) != "" {
					fmt.Fprintf(&b, "<p%s>%s</p>", class, strings.ReplaceAll(html.EscapeString(part), "\n", "<br>"))
				}
			}
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, `<div class="t">✓ %s %s</div>`, html.EscapeString(c.Tool), html.EscapeString(string(c.Args)))
		}
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitHTTP(url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		resp, err := http.Get(url)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 && bytes.Contains(body, []byte("/wails/ipc.js")) {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("the dev server at %s did not answer within %s", url, timeout)
}

// renderTools finds what the render section runs, so a missing one fails
// the bench before the slow sections, not after them; it returns Chromium.
func renderTools() (string, error) {
	for _, tool := range []string{"Xvfb", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Errorf("the render section needs %s (make deps-bench installs it): %w", tool, err)
		}
	}
	chromium := os.Getenv("PI_E2E_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		return "", fmt.Errorf("the render section needs Chromium (make deps-bench installs it; or set PI_E2E_CHROMIUM): %w", err)
	}
	return chromium, nil
}
