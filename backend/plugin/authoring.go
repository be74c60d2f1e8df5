package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/review"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// Names of the plugin authoring tools (spec §2.1: deferred).
const (
	ScaffoldToolName = "PluginScaffold"
	CheckToolName    = "PluginCheck"
	PackToolName     = "PluginPack"
)

// AuthoringTools are the deferred Agent tools for building plugins in the
// workspace (issue 22). Scaffold and Pack write there: class edit, so the
// path guard resolves their folder, ask mode shows a Write card, and Plan
// and Goal deny them as they deny Write. Check writes nothing, but it
// starts the folder's own program (to see it list its tools), which is
// running code the model may just have written: it is a plugin-class,
// high-risk tool with one plan-safe action, so like Bash it runs in every
// mode but only after a card (or under auto), never silently.
func AuthoringTools(o RuntimeOptions) []tools.Tool {
	return []tools.Tool{scaffoldTool{}, checkTool{o: o}, packTool{}}
}

type scaffoldArgs struct {
	Path     string `json:"path"`
	ID       string `json:"id"`
	Name     string `json:"name"`
	Language string `json:"language"`
}

type scaffoldTool struct{}

func (scaffoldTool) Spec() tools.Spec {
	return tools.Spec{
		Name: ScaffoldToolName,
		Description: "Create a new PI-Desktop plugin skeleton in a new workspace folder: plugin.json (one example tool, greet, low risk and " +
			"plan-safe), an MCP server over the official SDK of the language that serves it, and a README saying how to build, check, " +
			"pack and install it. Then edit the tool, build the server, and run PluginCheck on the folder.",
		Summary: "Create a new plugin skeleton (manifest, one example MCP tool in go, node or python, README) in a workspace folder",
		Class:   permission.ClassEdit, Risk: permission.High, Mutates: true, Deferred: true,
		Timeout: 30 * time.Second, Shape: tools.WritableFile, PathArg: "path",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The new folder to create, relative to the workspace (it must not exist, or be empty)."},
    "id": {"type": "string", "description": "The plugin's id: reverse-DNS like dev.acme.tools, or a plain name of a-z, 0-9, '.' and '-'."},
    "name": {"type": "string", "description": "The plugin's display name."},
    "language": {"type": "string", "enum": ["go", "node", "python"], "description": "The language of its MCP server."}
  },
  "required": ["path", "id", "name", "language"],
  "additionalProperties": false
}`),
	}
}

// Precheck refuses bad input and an occupied folder before a card.
func (scaffoldTool) Precheck(c *tools.Call) error {
	var a scaffoldArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return errs.Wrap(err, errs.InvalidArgument, "%s arguments do not decode", ScaffoldToolName)
	}
	if _, err := ScaffoldFiles(ScaffoldSpec{ID: a.ID, Name: a.Name, Language: a.Language}); err != nil {
		return err
	}
	return emptyTarget(c)
}

func emptyTarget(c *tools.Call) error {
	t := *c.Target
	if t.Root != pathguard.Workspace && t.Root != pathguard.Scratch {
		return errs.New(errs.InvalidArgument, "%s: a plugin is created in the workspace or the scratch folder; choose a folder there", tools.DisplayPath(t)).With("field", "path")
	}
	fi, err := c.Resolver.Stat(t)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.IsDir():
		return errs.New(errs.Conflict, "%s is a file; choose a new folder for the plugin", tools.DisplayPath(t)).With("field", "path")
	}
	// A look only: WriteScaffold checks again through the root.
	if entries, err := os.ReadDir(t.Abs); err != nil || len(entries) > 0 {
		return errs.New(errs.Conflict, "%s already exists and is not empty; choose a new folder", tools.DisplayPath(t)).With("field", "path")
	}
	return nil
}

func (scaffoldTool) Run(ctx context.Context, c *tools.Call) tools.Result {
	var a scaffoldArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return tools.Failure(errs.Wrap(err, errs.InvalidArgument, "%s arguments do not decode", ScaffoldToolName))
	}
	files, err := ScaffoldFiles(ScaffoldSpec{ID: a.ID, Name: a.Name, Language: a.Language})
	if err != nil {
		return tools.Failure(err)
	}
	if err := emptyTarget(c); err != nil {
		return tools.Failure(err)
	}
	t := *c.Target
	if t.Rel == "." {
		return tools.Failure(errs.New(errs.InvalidArgument, "pass a new folder inside the root, not the root itself").With("field", "path"))
	}
	if err := os.MkdirAll(t.RootDir, 0o700); err != nil { // scratch is created lazily
		return tools.Failure(errs.Wrap(err, errs.ToolFailed, "cannot create %s", t.RootDir))
	}
	if err := ctx.Err(); err != nil {
		return tools.Failure(errs.New(errs.ToolAborted, "%s was stopped before it wrote anything", ScaffoldToolName))
	}
	// Each file gets a review record as a Write's does, so the user sees it
	// in Changes and can roll it back: captured before anything is written
	// (a failed capture writes nothing), finished for each file that
	// landed, even when a later one failed.
	caps := make([]*review.Capture, len(files))
	for i, f := range files {
		ft, err := c.Resolver.Resolve(filepath.Join(t.Abs, filepath.FromSlash(f[0])))
		if err != nil {
			return tools.Failure(err)
		}
		if ft.Root != t.Root {
			return tools.Failure(errs.New(errs.PathOutsideWorkspace, "%s would land outside %s; nothing was written", f[0], tools.DisplayPath(t)).With("field", "path"))
		}
		if caps[i], err = c.Review.Capture(c, ft); err != nil {
			return tools.Failure(err)
		}
	}
	root, err := os.OpenRoot(t.RootDir)
	if err != nil {
		return tools.Failure(errs.Wrap(err, errs.ToolFailed, "cannot open %s", t.RootDir))
	}
	defer root.Close()
	var landed []int
	werr := WriteScaffold(root, t.Rel, files, func(i int) { landed = append(landed, i) })
	// The files landed even if the call was stopped meanwhile: record them.
	rctx := context.WithoutCancel(ctx)
	var changes []review.Change
	notice := ""
	for _, i := range landed {
		ch, err := caps[i].Finish(rctx, review.OpWrite, []byte(files[i][1]))
		switch {
		case err != nil:
			notice = "a file was written but its review record could not be saved, so it cannot be rolled back from the review pane"
		case ch.Version != 0:
			changes = append(changes, ch)
		}
	}
	if werr != nil {
		res := tools.Failure(werr)
		res.Notice = notice
		if len(changes) > 0 {
			res.Fields = map[string]any{"review": changes}
		}
		return res
	}
	shown := tools.DisplayPath(t)
	if c.Outcome != nil && t.Root == pathguard.Workspace {
		c.Outcome.Path = t.Rel
	}
	fields := map[string]any{"files": fileNames(files), "id": a.ID, "plugin": path.Join(shown, ScaffoldPluginDir(a.Language))}
	if len(changes) > 0 {
		fields["review"] = changes
	}
	return tools.Result{OK: true, Path: shown, Content: scaffoldText(shown, a, files), Notice: notice, Fields: fields}
}

func fileNames(files [][2]string) []string {
	out := make([]string, 0, len(files))
	for _, f := range files {
		out = append(out, f[0])
	}
	return out
}

func scaffoldText(shown string, a scaffoldArgs, files [][2]string) string {
	lang, _ := langOf(a.Language)
	var b strings.Builder
	fmt.Fprintf(&b, "Created the plugin %s (%s, %s MCP server) in %s:\n", a.ID, ScaffoldVersion, lang.title, shown)
	for _, f := range files {
		fmt.Fprintf(&b, "  %s\n", f[0])
	}
	fmt.Fprintf(&b, "Its example tool greet is offered to the model as %s once the plugin is installed.\n", ModelName(a.ID, "greet"))
	pluginPath := shown
	switch a.Language {
	case LangGo:
		fmt.Fprintf(&b, "Next: build its server with Bash (cd %s && go mod tidy && go build -o bin/server .), ", shown)
	case LangNode:
		pluginPath = path.Join(shown, ScaffoldPluginDir(LangNode))
		fmt.Fprintf(&b, "The plugin is its %s folder: npm's node_modules stays outside it.\n", pluginPath)
		fmt.Fprintf(&b, "Next: install its dependencies and bundle its server with Bash (cd %s && npm install && npm run build), ", shown)
	default:
		fmt.Fprintf(&b, "Next: make sure python3 has the mcp package (python3 -m pip install -r %s/requirements.txt), ", shown)
	}
	fmt.Fprintf(&b, "then call %s with path %q, then %s.", CheckToolName, pluginPath, PackToolName)
	return b.String()
}

type pathArgs struct {
	Path string `json:"path"`
}

var pathSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The plugin folder (the one holding plugin.json), relative to the workspace."}
  },
  "required": ["path"],
  "additionalProperties": false
}`)

type checkTool struct{ o RuntimeOptions }

func (checkTool) Spec() tools.Spec {
	return tools.Spec{
		Name: CheckToolName,
		Description: "Check a plugin folder as install would: its files and limits, plugin.json (schema, names, risks, planSafeActions), " +
			"then start its process (in the folder, with the plugin environment and load timeout) to see that it lists every declared " +
			"tool. Reports every problem, each with the manifest field to fix. Starting the process runs the folder's program, so the " +
			"user may be asked first.",
		Summary: "Validate a plugin folder (manifest, names, risks, plan-safe actions; its process starts and lists its tools) and list every problem",
		Class:   permission.ClassPlugin, Risk: permission.High, Deferred: true, PlanSafeActions: []string{"check"},
		Timeout: LoadTimeout + 15*time.Second, Shape: tools.Directory, PathArg: "path",
		Schema: pathSchema,
	}
}

func (x checkTool) Run(ctx context.Context, c *tools.Call) tools.Result {
	t := *c.Target
	rep, err := Check(ctx, t.Abs, x.o)
	if err != nil {
		return tools.Failure(errs.Wrap(err, errs.ToolAborted, "%s was stopped: %v", CheckToolName, err))
	}
	shown := tools.DisplayPath(t)
	return tools.Result{OK: true, Path: shown, Content: checkText(shown, rep),
		Fields: map[string]any{"problems": rep.Problems, "listed": rep.Listed, "started": rep.Started, "held": rep.Held}}
}

func checkText(shown string, rep CheckReport) string {
	var b strings.Builder
	if n := len(rep.Problems); n == 0 {
		fmt.Fprintf(&b, "%s: no problems.\n", shown)
	} else {
		fmt.Fprintf(&b, "%s: %s.\n", shown, count(n, "problem"))
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "- %s: %s\n", p.Where(), p.Message)
	}
	if s := rep.Summary; s != nil {
		fmt.Fprintf(&b, "Plugin %s %s (%q), %d files.\n", s.ID, s.Version, s.Name, s.Files)
		for _, t := range s.Tools {
			safe := "none"
			if len(t.PlanSafeActions) > 0 {
				safe = strings.Join(t.PlanSafeActions, ", ")
			}
			fmt.Fprintf(&b, "Tool %s as %s: risk %s, plan-safe actions: %s.\n", t.Name, t.ModelName, t.Risk, safe)
		}
		if rep.Started {
			fmt.Fprintf(&b, "Its process started and lists: %s.\n", listText(rep.Listed))
		}
	}
	if rep.Held {
		b.WriteString("Its process was not started: install would refuse the folder as it is.\n")
	}
	if len(rep.Problems) == 0 {
		fmt.Fprintf(&b, "Next: %s with path %q writes the .piplug.", PackToolName, shown)
	} else {
		b.WriteString("Fix them and check again. Install and " + PackToolName + " refuse a plugin whose files or plugin.json have problems; " +
			"a skill, subagent or command file with a problem installs but is not used.")
	}
	return b.String()
}

type packTool struct{}

func (packTool) Spec() tools.Spec {
	return tools.Spec{
		Name: PackToolName,
		Description: "Pack a plugin folder into <id>-<version>.piplug next to it, after the checks install makes (entries, links, limits, " +
			"manifest); the archive is staged once as install would, so what it writes installs. It never replaces an existing file.",
		Summary: "Pack a checked plugin folder into an installable .piplug next to it",
		Class:   permission.ClassEdit, Risk: permission.High, Mutates: true, Deferred: true,
		Timeout: 60 * time.Second, Shape: tools.Directory, PathArg: "path",
		Schema: pathSchema,
	}
}

func (packTool) Run(ctx context.Context, c *tools.Call) tools.Result {
	t := *c.Target
	if t.Root != pathguard.Workspace && t.Root != pathguard.Scratch {
		return tools.Failure(errs.New(errs.InvalidArgument, "%s: pack a plugin folder in the workspace or the scratch folder", tools.DisplayPath(t)).With("field", "path"))
	}
	if t.Rel == "." {
		return tools.Failure(errs.New(errs.InvalidArgument, "the .piplug is written next to the plugin folder: pass a folder inside the root, not the root itself").With("field", "path"))
	}
	m, err := folderManifest(t.Abs)
	if err != nil {
		return tools.Failure(err)
	}
	// The archive's place is judged as the folder was: the same root, by
	// the resolver, so a link on the way cannot carry it elsewhere.
	dst, err := c.Resolver.Resolve(filepath.Join(filepath.Dir(t.Abs), m.ID+"-"+m.Version+ArchiveExt))
	if err != nil {
		return tools.Failure(err)
	}
	if dst.Root != t.Root {
		return tools.Failure(errs.New(errs.PathOutsideWorkspace, "the .piplug would land outside %s; nothing was written", tools.DisplayPath(t)).With("field", "path"))
	}
	if err := ctx.Err(); err != nil {
		return tools.Failure(errs.New(errs.ToolAborted, "%s was stopped before it wrote anything", PackToolName))
	}
	// The archive gets a review record as a Write's file does; Pack never
	// replaces a file, so the capture sees it absent (or Pack refuses).
	capture, err := c.Review.Capture(c, dst)
	if err != nil {
		return tools.Failure(err)
	}
	sum, err := Pack(t.Abs, dst.Abs)
	if err != nil {
		return tools.Failure(err)
	}
	notice := ""
	var changes []review.Change
	if capture != nil {
		ch, err := finishArchive(context.WithoutCancel(ctx), c, dst, capture)
		switch {
		case err != nil:
			notice = "the .piplug was written but its review record could not be saved, so it cannot be rolled back from the review pane"
		case ch.Version != 0:
			changes = append(changes, ch)
		}
	}
	if c.Outcome != nil && dst.Root == pathguard.Workspace {
		c.Outcome.Path = dst.Rel
	}
	shown := tools.DisplayPath(dst)
	var b strings.Builder
	fmt.Fprintf(&b, "Packed %s %s (%d files) into %s.\n", sum.ID, sum.Version, sum.Files, shown)
	for _, tl := range sum.Tools {
		fmt.Fprintf(&b, "Tool %s as %s: risk %s.\n", tl.Name, tl.ModelName, tl.Risk)
	}
	b.WriteString("The user installs it from Settings → Plugins (Install from .piplug…) or with `pi-desktop plugins install " + shown + "`; it asks for their consent first.")
	fields := map[string]any{"id": sum.ID, "version": sum.Version, "files": sum.Files}
	if len(changes) > 0 {
		fields["review"] = changes
	}
	return tools.Result{OK: true, Path: shown, Content: b.String(), Notice: notice, Fields: fields}
}

// maxArchiveRead bounds the read of a packed archive for its review record:
// far above any archive of MaxUnpackedBytes (zip never grows its input
// much), so the record's hash is of the whole file.
const maxArchiveRead = 2 * MaxUnpackedBytes

// finishArchive records the archive Pack wrote at dst, read back through
// the resolver as Write reads what it wrote.
func finishArchive(ctx context.Context, c *tools.Call, dst pathguard.Resolved, capture *review.Capture) (review.Change, error) {
	f, err := c.Resolver.OpenFile(dst, os.O_RDONLY, 0)
	if err != nil {
		return review.Change{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxArchiveRead+1))
	if err != nil {
		return review.Change{}, err
	}
	if len(data) > maxArchiveRead {
		return review.Change{}, errs.New(errs.ToolFailed, "%s is larger than %d bytes", dst.Rel, maxArchiveRead)
	}
	return capture.Finish(ctx, review.OpWrite, data)
}

// folderManifest reads and parses dir's plugin.json, as Pack will.
func folderManifest(dir string) (Manifest, error) {
	files, err := scanFolder(dir)
	if err != nil {
		return Manifest{}, err
	}
	data, err := readManifest(os.DirFS(dir), files)
	if err != nil {
		return Manifest{}, err
	}
	m, err := checkManifest(data)
	if err != nil {
		return Manifest{}, err
	}
	return m, nil
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
