package hostcore_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
	"github.com/pi-desktop/pi-desktop/backend/review"
	"github.com/pi-desktop/pi-desktop/internal/golden"
	"github.com/pi-desktop/pi-desktop/internal/pluginsample"
)

func scaffoldArgs(path, lang string) map[string]any {
	return map[string]any{"path": path, "id": "dev.acme.hello", "name": "Hello", "language": lang}
}

// The Go round trip of issue 22 through the pipeline the agent uses:
// PluginScaffold writes a skeleton, it builds as its README says,
// PluginCheck finds no problem and sees its process list greet,
// PluginPack writes a .piplug that installs, and the installed tool is
// offered and runs. (Node's round trip is TestPluginAuthoringRoundTripNode;
// Python's skeleton is checked for its files in backend/plugin only, as
// its mcp package comes from PyPI, which CI cannot reach.)
func TestPluginAuthoringRoundTripGo(t *testing.T) {
	e := newEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)
	res := e.call(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs("plugins/hello", plugin.LangGo))
	if !res.OK {
		t.Fatalf("scaffold = %+v", res)
	}
	golden.Assert(t, filepath.Join("testdata", "plugin_scaffold_go.golden"), res.Content)
	dir := filepath.Join(e.project, "plugins", "hello")
	for _, f := range []string{"plugin.json", "go.mod", "main.go", "README.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("scaffold did not write %s: %v", f, err)
		}
	}
	pluginsample.BuildGoScaffold(t, dir)

	res = e.call(e.session.ID, plugin.CheckToolName, map[string]any{"path": "plugins/hello"})
	if !res.OK || len(res.Fields["problems"].([]plugin.Problem)) != 0 || res.Fields["started"] != true {
		t.Fatalf("check = %+v", res)
	}
	golden.Assert(t, filepath.Join("testdata", "plugin_check_ok.golden"), res.Content)

	res = e.call(e.session.ID, plugin.PackToolName, map[string]any{"path": "plugins/hello"})
	if !res.OK || res.Path != "plugins/dev.acme.hello-0.1.0.piplug" {
		t.Fatalf("pack = %+v", res)
	}
	golden.Assert(t, filepath.Join("testdata", "plugin_pack.golden"), res.Content)
	if again := e.call(e.session.ID, plugin.PackToolName, map[string]any{"path": "plugins/hello"}); again.OK || again.Code != errs.Conflict {
		t.Errorf("a second pack over the first = %+v, want CONFLICT", again)
	}

	staged, err := e.core.StagePlugin(t.Context(), filepath.Join(e.project, "plugins", "dev.acme.hello-0.1.0.piplug"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.core.InstallPlugin(t.Context(), staged, true); err != nil {
		t.Fatal(err)
	}
	const greet = "plugin_dev_acme_hello_greet"
	if !slices.ContainsFunc(e.core.DeferredForTest(t.Context(), e.session.ID, api.ModeAgent), func(d agent.DeferredTool) bool { return d.Name == greet }) {
		t.Errorf("%s is not in the on-demand catalog", greet)
	}
	res = e.call(e.session.ID, greet, map[string]any{"name": "Ada"})
	if !res.OK || !strings.Contains(res.Content, "Hello, Ada!") {
		t.Fatalf("the installed tool = %+v", res)
	}
}

// PluginCheck reports every manifest problem, each with its field path,
// and starts nothing while the manifest is wrong.
func TestPluginCheckToolListsEveryProblem(t *testing.T) {
	e := newEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)
	if res := e.call(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs("bad", plugin.LangGo)); !res.OK {
		t.Fatalf("scaffold = %+v", res)
	}
	manifest := filepath.Join(e.project, "bad", "plugin.json")
	var m map[string]any
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["version"] = "one"
	m["permissions"] = []any{"fs.write"}
	tool := m["contributes"].(map[string]any)["agentTools"].([]any)[0].(map[string]any)
	tool["planSafeActions"] = "greet"
	// A command that would show it ran, were it started.
	m["command"] = "ran-it"
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	write(t, manifest, string(data))
	res := e.call(e.session.ID, plugin.CheckToolName, map[string]any{"path": "bad"})
	if !res.OK || res.Fields["started"] != false {
		t.Fatalf("check = %+v", res)
	}
	problems := res.Fields["problems"].([]plugin.Problem)
	var fields []string
	for _, p := range problems {
		fields = append(fields, p.Field)
	}
	if want := []string{"version", "permissions[0]", "permissions", "contributes.agentTools[0].planSafeActions"}; !slices.Equal(fields, want) {
		t.Errorf("problem fields = %q, want %q", fields, want)
	}
	golden.Assert(t, filepath.Join("testdata", "plugin_check_problems.golden"), res.Content)
	if res := e.call(e.session.ID, plugin.PackToolName, map[string]any{"path": "bad"}); res.OK || res.Code != errs.PluginInvalid ||
		!strings.Contains(res.Message, "4 problems") {
		t.Errorf("pack of a bad plugin = %+v, want PLUGIN_INVALID naming 4 problems", res)
	}
	if _, err := os.Stat(filepath.Join(e.project, "dev.acme.hello-0.1.0.piplug")); err == nil {
		t.Error("a bad plugin was packed")
	}
}

// Scaffold and Pack are writes: a Write card in ask mode, denied in Plan
// and Goal as Write is. Check starts the folder's program: it is offered
// in every mode, but runs only after a card (or under auto).
func TestPluginAuthoringToolsUnderTheModes(t *testing.T) {
	e := newEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)
	if res := e.call(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs("ready", plugin.LangGo)); !res.OK {
		t.Fatalf("scaffold = %+v", res)
	}
	for _, mode := range []string{api.ModePlan, api.ModeGoal} {
		t.Run(mode, func(t *testing.T) {
			e.configure(mode, api.PermissionAuto)
			var offered []string
			for _, d := range e.core.DeferredForTest(t.Context(), e.session.ID, mode) {
				if strings.HasPrefix(d.Name, "Plugin") {
					offered = append(offered, d.Name)
				}
			}
			if !slices.Equal(offered, []string{plugin.CheckToolName}) {
				t.Errorf("offered in %s = %v, want PluginCheck alone", mode, offered)
			}
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{plugin.ScaffoldToolName, scaffoldArgs("other", plugin.LangGo)},
				{plugin.PackToolName, map[string]any{"path": "ready"}},
			} {
				if res := e.call(e.session.ID, c.tool, c.args); res.OK || res.Code != errs.ToolDisabledInPlan {
					t.Errorf("%s in %s = %+v, want TOOL_DISABLED_IN_PLAN", c.tool, mode, res)
				}
			}
			if _, err := os.Stat(filepath.Join(e.project, "other")); err == nil {
				t.Errorf("%s wrote a plugin", mode)
			}
			e.configure(mode, api.PermissionAsk)
			res, req := e.callAnswering(e.session.ID, plugin.CheckToolName, map[string]any{"path": "ready"}, permission.Denied)
			if res.OK || req.Tool != plugin.CheckToolName {
				t.Errorf("denied check in %s = %+v (card %+v)", mode, res, req)
			}
		})
	}
	e.configure(api.ModeAgent, api.PermissionAsk)
	res, req := e.callAnswering(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs("asked", plugin.LangPython), permission.Denied)
	if res.OK || req.Reason != "changes a file in the workspace" {
		t.Errorf("denied scaffold = %+v (card %+v)", res, req)
	}
	if _, err := os.Stat(filepath.Join(e.project, "asked")); err == nil {
		t.Error("a denied scaffold wrote its folder")
	}
	res, _ = e.callAnswering(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs("asked", plugin.LangPython), permission.AllowOnce)
	if !res.OK {
		t.Fatalf("allowed scaffold = %+v", res)
	}
	if again := e.call(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs("asked", plugin.LangNode)); again.OK || again.Code != errs.Conflict {
		t.Errorf("a scaffold over a folder with files = %+v, want CONFLICT before any card", again)
	}
	for _, bad := range []map[string]any{
		{"path": "x", "id": "Bad Id", "name": "X", "language": "go"},
		{"path": "x", "id": "ok", "name": "X", "language": "rust"},
		{"path": "../escape", "id": "ok", "name": "X", "language": "go"},
	} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			if res := e.call(e.session.ID, plugin.ScaffoldToolName, bad); res.OK {
				t.Errorf("scaffold %v = %+v", bad, res)
			}
		}()
		select {
		case <-done:
		case req := <-e.cards.reqs:
			// An outside path asks first (policy before probing); refuse.
			_ = e.core.ResolveApproval(req.SessionID, req.ID, permission.Denied)
			<-done
		}
	}
	if _, err := os.Stat(filepath.Join(e.outside, "..", "escape")); err == nil {
		t.Error("a scaffold escaped the workspace")
	}
}

// PluginScaffold and PluginPack leave review records as Write does: one
// per file they create, listed in Changes, each rolled back under the
// hash guard (a created file is removed; one changed since is kept).
func TestPluginAuthoringRecordsReviewChanges(t *testing.T) {
	e := newEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)
	res := e.call(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs("plugins/hello", plugin.LangGo))
	if !res.OK {
		t.Fatalf("scaffold = %+v", res)
	}
	var want []string
	for _, f := range res.Fields["files"].([]string) {
		want = append(want, "plugins/hello/"+f)
	}
	changes, err := e.core.ReviewChanges(t.Context(), e.session.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]review.Change{}
	var got []string
	for _, ch := range changes {
		got = append(got, ch.Path)
		byPath[ch.Path] = ch
		if ch.Status != review.StatusAdded || ch.Operation != review.OpWrite || ch.State != review.StateActive || !ch.Reversible || ch.Additions == 0 {
			t.Errorf("record of %s = %+v, want an active, reversible, added write", ch.Path, ch)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) < 4 || !slices.Equal(got, want) {
		t.Fatalf("records for %q, want one for each written file %q", got, want)
	}
	if inResult, _ := res.Fields["review"].([]review.Change); len(inResult) != len(want) {
		t.Errorf("the scaffold result carries %d review records, want %d", len(inResult), len(want))
	}

	readme := filepath.Join(e.project, "plugins", "hello", "README.md")
	if _, err := e.core.Rollback(t.Context(), e.session.ID, byPath["plugins/hello/README.md"].SnapshotID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(readme); !os.IsNotExist(err) {
		t.Errorf("rolling back the created README left it: %v", err)
	}
	manifest := filepath.Join(e.project, "plugins", "hello", "plugin.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	write(t, manifest, string(data)+"\n") // changed since: the guard keeps it
	if _, err := e.core.Rollback(t.Context(), e.session.ID, byPath["plugins/hello/plugin.json"].SnapshotID); !errs.Is(err, errs.Conflict) {
		t.Errorf("rollback of a file changed since = %v, want CONFLICT", err)
	}
	if _, err := os.Stat(manifest); err != nil {
		t.Errorf("the guard did not keep the changed plugin.json: %v", err)
	}

	res = e.call(e.session.ID, plugin.PackToolName, map[string]any{"path": "plugins/hello"})
	if !res.OK {
		t.Fatalf("pack = %+v", res)
	}
	const archive = "plugins/dev.acme.hello-0.1.0.piplug"
	packed, _ := res.Fields["review"].([]review.Change)
	if len(packed) != 1 || packed[0].Path != archive || packed[0].Status != review.StatusAdded || !packed[0].Binary || !packed[0].Reversible {
		t.Fatalf("pack's review records = %+v, want one for %s", packed, archive)
	}
	listed, err := e.core.ReviewChanges(t.Context(), e.session.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(listed, func(ch review.Change) bool { return ch.SnapshotID == packed[0].SnapshotID }) {
		t.Errorf("the .piplug's record is not in Changes")
	}
	if _, err := e.core.Rollback(t.Context(), e.session.ID, packed[0].SnapshotID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.project, filepath.FromSlash(archive))); !os.IsNotExist(err) {
		t.Errorf("rolling back the pack left the .piplug: %v", err)
	}

	// In scratch no review record is kept, as for Write.
	scratch, err := e.core.ScratchDirForTest(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	res = e.call(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs(filepath.Join(scratch, "p"), plugin.LangGo))
	if !res.OK {
		t.Fatalf("scaffold in scratch = %+v", res)
	}
	if _, has := res.Fields["review"]; has {
		t.Errorf("a scaffold in scratch recorded review changes: %+v", res.Fields["review"])
	}
}

// npmRun runs npm with args in dir, with its HOME and cache in a fresh
// temporary folder: the test reads no user npm configuration and leaves no
// cache behind. It fails the test with npm's output.
func npmRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "USERPROFILE="+home, "npm_config_cache="+filepath.Join(home, "npm-cache"),
		"npm_config_userconfig="+filepath.Join(home, ".npmrc"), "npm_config_audit=false", "npm_config_fund=false",
		"npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// The Node round trip of issue 22: PluginScaffold writes an npm project
// whose plugin/ folder is the plugin; npm install and npm run build (as
// its README says) bundle the server on the official TypeScript MCP SDK
// into it; PluginCheck finds no problem and sees the process list greet;
// PluginPack writes a .piplug that installs, and the installed tool runs.
// (Python's round trip needs the mcp package from PyPI, which CI cannot
// reach.)
func TestPluginAuthoringRoundTripNode(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: the Node round trip needs node and npm", tool)
		}
	}
	e := newEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)
	res := e.call(e.session.ID, plugin.ScaffoldToolName, scaffoldArgs("plugins/hello", plugin.LangNode))
	if !res.OK || res.Fields["plugin"] != "plugins/hello/plugin" {
		t.Fatalf("scaffold = %+v", res)
	}
	dir := filepath.Join(e.project, "plugins", "hello")
	pkg, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Pinned: the skeleton builds the same way on every machine.
	if !strings.Contains(string(pkg), `"@modelcontextprotocol/sdk": "1.32.2"`) {
		t.Errorf("package.json does not pin the SDK:\n%s", pkg)
	}
	npmRun(t, dir, "install", "--no-audit", "--no-fund")
	npmRun(t, dir, "run", "build")

	res = e.call(e.session.ID, plugin.CheckToolName, map[string]any{"path": "plugins/hello/plugin"})
	if !res.OK || len(res.Fields["problems"].([]plugin.Problem)) != 0 || res.Fields["started"] != true ||
		!slices.Equal(res.Fields["listed"].([]string), []string{"greet"}) {
		t.Fatalf("check = %+v", res)
	}
	res = e.call(e.session.ID, plugin.PackToolName, map[string]any{"path": "plugins/hello/plugin"})
	if !res.OK || res.Path != "plugins/hello/dev.acme.hello-0.1.0.piplug" {
		t.Fatalf("pack = %+v", res)
	}
	staged, err := e.core.StagePlugin(t.Context(), filepath.Join(dir, "dev.acme.hello-0.1.0.piplug"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.core.InstallPlugin(t.Context(), staged, true); err != nil {
		t.Fatal(err)
	}
	res = e.call(e.session.ID, "plugin_dev_acme_hello_greet", map[string]any{"name": "Ada"})
	if !res.OK || !strings.Contains(res.Content, "Hello, Ada!") {
		t.Fatalf("the installed tool = %+v", res)
	}
}
