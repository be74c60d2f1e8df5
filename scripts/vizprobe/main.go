// Command vizprobe seeds a data directory for scripts/viz-escape-probe.sh
// and reads back what the probe changed. It is a test tool, not part of the
// app.
//
//	vizprobe seed DATA WORKSPACE   prints the id of the session to open
//	vizprobe titles DATA           prints "<target> <title>" per target session
//	vizprobe opened FILE SECONDS   waits until FILE is opened (Linux)
//	vizprobe model RESULT          serves the scripted model of the preview turn
//	vizprobe result RESULT         prints the title the preview page reported
//
// The seeded session holds one finished turn whose answer references
// probe.html, a fragment that tries to reach the host's Wails IPC from the
// sandboxed visualization frame three ways and, through each, renames its
// own target session to "escaped-<way>". A title that changed is a sandbox
// escape. The workspace holds probe-page.html, which a turn of the scripted
// model (vizprobe model) opens in the BrowserPreview pane: the same routes
// and more, from a page with its own origin (preview.go).
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/platform/paths"
	"github.com/pi-desktop/pi-desktop/platform/proc"

	_ "modernc.org/sqlite"
)

// ways are the routes a fragment can try: its own window, a script-made
// about:blank child, a srcdoc child running its own script, and a getter
// for window.webkit found anywhere on its window's prototype chain.
var ways = []string{"direct", "blank", "srcdoc", "recover"}

func main() {
	// The cores this tool opens start commands (the login-shell PATH probe)
	// under the process-tree runner, which is this binary.
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "vizprobe:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 3 && args[0] == "seed":
		id, err := seed(context.Background(), args[1], args[2])
		if err != nil {
			return err
		}
		fmt.Println(id)
		return nil
	case len(args) == 2 && args[0] == "titles":
		return titles(context.Background(), args[1])
	case len(args) == 3 && args[0] == "opened":
		secs, err := strconv.Atoi(args[2])
		if err != nil {
			return err
		}
		return waitOpened(args[1], time.Duration(secs)*time.Second)
	case len(args) == 2 && args[0] == "model":
		return serveModel(args[1])
	case len(args) == 2 && args[0] == "result":
		b, err := os.ReadFile(args[1])
		if err != nil {
			return fmt.Errorf("the model never got BrowserPreview's result: %w", err)
		}
		title := previewTitle(b)
		if title == "" {
			return fmt.Errorf("BrowserPreview's result has no report from the page: %s", b)
		}
		fmt.Println(title)
		return nil
	}
	return fmt.Errorf("usage: vizprobe seed DATA WORKSPACE | titles DATA | opened FILE SECONDS | model RESULT | result RESULT")
}

func seed(ctx context.Context, dataDir, workspace string) (string, error) {
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: dataDir, Version: "vizprobe"})
	if err != nil {
		return "", err
	}
	defer core.Close()
	s, err := core.Settings(ctx)
	if err != nil {
		return "", err
	}
	s.InlineVisualizations = true
	if _, err := core.UpdateSettings(ctx, s); err != nil {
		return "", err
	}
	p, err := core.AddProject(ctx, workspace)
	if err != nil {
		return "", err
	}
	host, err := core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID, Title: "viz probe"})
	if err != nil {
		return "", err
	}
	targets := map[string]string{}
	for _, w := range ways {
		t, err := core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID, Title: "target-" + w})
		if err != nil {
			return "", err
		}
		targets[w] = t.ID
	}
	pageTargets := map[string]string{}
	for _, w := range previewWays {
		t, err := core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID, Title: "target-preview-" + w})
		if err != nil {
			return "", err
		}
		pageTargets[w] = t.ID
	}
	if err := writePreviewPage(workspace, pageTargets); err != nil {
		return "", err
	}
	vizDir, err := core.VisualizationDir(ctx, host.ID)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(vizDir, 0o700); err != nil {
		return "", err
	}
	frag := filepath.Join(vizDir, "probe.html")
	if err := os.WriteFile(frag, []byte(fragment(targets)), 0o600); err != nil {
		return "", err
	}
	if err := core.Close(); err != nil {
		return "", err
	}
	return host.ID, insertTurn(ctx, dataDir, host.ID, frag)
}

// frameRoutes is the script both probe pages share, after they define
// msg(way), log(s), none (what a route without the handler logs) and
// why(e) (what a throw adds): attempt posts through a window's message
// handler, and tryFrameRoutes tries the four routes a frame has to it —
// its own window, a getter recovered from the prototype chains, a blank
// iframe, and a srcdoc iframe.
const frameRoutes = `function attempt(w, way) {
  try {
    var h = w.webkit && w.webkit.messageHandlers && w.webkit.messageHandlers.external;
    if (!h) { log(way + ": " + none); return; }
    h.postMessage(msg(way));
    log(way + ": posted");
  } catch (e) { log(way + ": threw" + why(e)); }
}
function tryFrameRoutes() {
  attempt(window, "direct");
  try {
    // Any getter of webkit or messageHandlers left anywhere on the chains.
    var got = null;
    for (var o = window; o && !got; o = Object.getPrototypeOf(o)) {
      var d = Object.getOwnPropertyDescriptor(o, "webkit");
      if (d && d.get) got = d.get.call(window);
    }
    var wk = got || window.webkit, hs = null;
    for (var o = wk; o && !hs; o = Object.getPrototypeOf(o)) {
      var d = Object.getOwnPropertyDescriptor(o, "messageHandlers");
      if (d && d.get) hs = d.get.call(wk);
    }
    attempt({webkit: {messageHandlers: hs}}, "recover");
  } catch (e) { log("recover: threw" + why(e)); }
  try {
    var f = document.createElement("iframe");
    document.body.appendChild(f);
    attempt(f.contentWindow, "blank");
  } catch (e) { log("blank: threw" + why(e)); }
  try {
    var s = document.createElement("iframe");
    s.srcdoc = "<script>var h = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.external;" +
      "parent.postMessage({probe: h ? 'srcdoc: posting' : " + JSON.stringify("srcdoc: " + none) + "}, '*');" +
      "if (h) h.postMessage(" + JSON.stringify(msg("srcdoc")) + ");<\/script>";
    window.addEventListener("message", function (e) { if (e.data && e.data.probe) log(e.data.probe); });
    document.body.appendChild(s);
  } catch (e) { log("srcdoc: threw" + why(e)); }
}`

// fragment is the probe: each way posts a RenameSession call in the form
// the Wails runtime uses ("C" + JSON) and logs what happened in the card.
// The method is desktop.Sessions.RenameSession, the bound name
// desktop/handle_test.go keeps.
func fragment(targets map[string]string) string {
	t, _ := json.Marshal(targets)
	return `<pre id="log" style="font:14px monospace;white-space:pre-wrap">viz escape probe</pre>
<script>
var targets = ` + string(t) + `;
function msg(way) {
  return "C" + JSON.stringify({name: "desktop.Sessions.RenameSession", args: [targets[way], "escaped-" + way], callbackID: "probe-" + way});
}
function log(s) { document.getElementById("log").textContent += "\n" + s; }
var none = "no window.webkit.messageHandlers.external";
function why(e) { return " " + e; }
` + frameRoutes + `
tryFrameRoutes();
</script>
`
}

func insertTurn(ctx context.Context, dataDir, sessionID, frag string) error {
	dbFile := paths.Layout{Root: dataDir}.Database()
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(dbFile), RawQuery: "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return err
	}
	defer db.Close()
	ms := int64(1_700_000_000_000)
	block := func(text string) string {
		j, _ := json.Marshal([]provider.Block{{Type: provider.BlockText, Text: text}})
		return string(j)
	}
	ref, _ := json.Marshal(map[string]string{"path": frag, "title": "probe"})
	prompt := "Draw the probe."
	answer := "Here it is.\n\n::visualize" + string(ref) + "\n"
	turn := "probe-turn"
	stmts := []struct {
		q    string
		args []any
	}{
		{`INSERT INTO agent_turns (id, session_id, prompt, state, created_at, updated_at, ended_at) VALUES (?, ?, ?, 'done', ?, ?, ?)`,
			[]any{turn, sessionID, prompt, ms, ms, ms + 3}},
		{`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, stop_reason, created_at, updated_at) VALUES (?, ?, ?, 'user', 'prompt', ?, '', ?, ?)`,
			[]any{turn + "-u", sessionID, turn, block(prompt), ms + 1, ms + 1}},
		{`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, stop_reason, created_at, updated_at) VALUES (?, ?, ?, 'assistant', 'model', ?, 'end_turn', ?, ?)`,
			[]any{turn + "-a", sessionID, turn, block(answer), ms + 2, ms + 2}},
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s.q, s.args...); err != nil {
			return err
		}
	}
	return nil
}

// titles prints each target session's title; a title starting with
// "escaped-" means that way reached the host.
func titles(ctx context.Context, dataDir string) error {
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: dataDir, Version: "vizprobe"})
	if err != nil {
		return err
	}
	defer core.Close()
	ps, err := core.ListProjects(ctx)
	if err != nil {
		return err
	}
	for _, p := range ps {
		ss, err := core.ListSessions(ctx, p.ID, false)
		if err != nil {
			return err
		}
		for _, s := range ss {
			if strings.HasPrefix(s.Title, "target-") || strings.HasPrefix(s.Title, "escaped-") {
				fmt.Println(s.ID, s.Title)
			}
		}
	}
	return nil
}
