package plugin

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"text/template"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

//go:embed scaffold
var scaffoldFS embed.FS

// Scaffold languages: the MCP SDK the example server is written on.
const (
	LangGo     = "go"
	LangNode   = "node"
	LangPython = "python"
)

// ScaffoldVersion is a new plugin's version.
const ScaffoldVersion = "0.1.0"

// goSDKModule is the Go MCP SDK a Go skeleton requires: the version this
// build links (known to work with the host), else the one it was made with.
const goSDKModule, goSDKFallback = "github.com/modelcontextprotocol/go-sdk", "v1.8.0"

// ScaffoldSpec is what a new plugin is made from.
type ScaffoldSpec struct {
	ID, Name, Language string
}

// scaffoldLang is what differs between languages: the manifest's command,
// the files beside it (template name → file name) and the plugin folder
// inside the skeleton ("" for the skeleton itself).
type scaffoldLang struct {
	title   string
	command string
	args    []string
	files   [][2]string
	// pluginDir: a Node skeleton is an npm project whose build bundles the
	// server into its plugin/ folder, since node_modules (some 4,000
	// entries for the MCP SDK) is over a plugin's MaxEntries and never
	// belongs in one.
	pluginDir string
}

// Versions a Node skeleton pins (npm view <package> versions): the SDK
// and zod it serves with, and esbuild, which bundles them into one file.
const (
	nodeSDKVersion     = "1.32.2"
	nodeZodVersion     = "3.25.76"
	nodeEsbuildVersion = "0.25.12"
)

// ScaffoldPluginDir is the plugin folder inside a skeleton of lang, slash-
// separated: "" when the skeleton's folder is the plugin's.
func ScaffoldPluginDir(lang string) string {
	l, _ := langOf(lang)
	return l.pluginDir
}

func langOf(lang string) (scaffoldLang, bool) {
	switch lang {
	case LangGo:
		return scaffoldLang{title: "Go", command: "bin/server",
			files: [][2]string{{"go/go.mod.tmpl", "go.mod"}, {"go/main.go.tmpl", "main.go"}}}, true
	case LangNode:
		return scaffoldLang{title: "Node.js", command: "node", args: []string{"server.mjs"}, pluginDir: "plugin",
			files: [][2]string{{"node/package.json.tmpl", "package.json"}, {"node/server.mjs.tmpl", "src/server.mjs"}}}, true
	case LangPython:
		return scaffoldLang{title: "Python", command: "python3", args: []string{"server.py"},
			files: [][2]string{{"python/requirements.txt.tmpl", "requirements.txt"}, {"python/server.py.tmpl", "server.py"}}}, true
	}
	return scaffoldLang{}, false
}

// scaffoldManifest is plugin.json as a skeleton writes it, in the order
// an author reads it.
type scaffoldManifest struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Description string   `json:"description"`
	Author      string   `json:"author"`
	Permissions []string `json:"permissions"`
	Command     string   `json:"command"`
	Args        []string `json:"args"`
	Contributes struct {
		AgentTools []skeletonTool `json:"agentTools"`
	} `json:"contributes"`
}

type skeletonTool struct {
	Name            string          `json:"name"`
	Description     string          `json:"description"`
	InputSchema     json.RawMessage `json:"inputSchema"`
	Risk            string          `json:"risk"`
	PlanSafeActions []string        `json:"planSafeActions"`
}

// ScaffoldFiles returns a new plugin's files (slash path → content), the
// manifest first (in the ScaffoldPluginDir of the language): a manifest that ValidateManifest accepts, one example
// tool served over the language's MCP SDK, and a README. Bad input is
// INVALID_ARGUMENT naming every manifest problem it would cause.
func ScaffoldFiles(s ScaffoldSpec) ([][2]string, error) {
	lang, ok := langOf(s.Language)
	if !ok {
		return nil, errs.New(errs.InvalidArgument, "language %q is not one of go, node, python", clip(s.Language)).With("field", "language")
	}
	m := scaffoldManifest{ID: s.ID, Name: s.Name, Version: ScaffoldVersion, Description: s.Name + ": describe what this plugin does.",
		Permissions: []string{PermToolRegister}, Command: lang.command, Args: lang.args}
	if m.Args == nil {
		m.Args = []string{}
	}
	m.Contributes.AgentTools = []skeletonTool{{Name: "greet", Description: "Greet someone by name (an example: replace it with your own tool).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"Who to greet."}},"required":["name"]}`),
		Risk:        "low", PlanSafeActions: []string{"greet"}}}
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	manifest = append(manifest, '\n')
	if _, problems := ValidateManifest(manifest); len(problems) > 0 {
		e := errs.New(errs.InvalidArgument, "this id and name would make an invalid plugin: %s", problems[0].Message).With("problems", problems)
		if problems[0].Field == "id" || problems[0].Field == "name" {
			e = e.With("field", problems[0].Field)
		}
		return nil, e
	}
	out := [][2]string{{path.Join(lang.pluginDir, ManifestName), string(manifest)}}
	data := map[string]any{"ID": s.ID, "Name": m.Name, "Version": ScaffoldVersion, "Language": s.Language, "LanguageName": lang.title,
		"ModelName": ModelName(s.ID, "greet"), "GoSDK": goSDKVersion(), "PluginDir": lang.pluginDir,
		"NodeSDK": nodeSDKVersion, "Zod": nodeZodVersion, "Esbuild": nodeEsbuildVersion}
	listed := []string{}
	for _, f := range lang.files {
		text, err := render(f[0], data)
		if err != nil {
			return nil, err
		}
		out = append(out, [2]string{f[1], text})
		listed = append(listed, f[1])
	}
	data["Files"] = listed
	readme, err := render("README.md.tmpl", data)
	if err != nil {
		return nil, err
	}
	return append(out, [2]string{"README.md", readme}), nil
}

func render(name string, data map[string]any) (string, error) {
	t, err := template.ParseFS(scaffoldFS, path.Join("scaffold", name))
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

func goSDKVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == goSDKModule && d.Version != "" && d.Version != "(devel)" {
				return d.Version
			}
		}
	}
	return goSDKFallback
}

// WriteScaffold writes files into the folder dir of root (relative,
// slash-separated), which must not exist yet or be empty. Through the
// os.Root, a link planted on the way cannot carry a file outside it.
// written (may be nil) is told of each file as it lands, so a caller
// keeps a record of the files a later failure left behind.
func WriteScaffold(root *os.Root, dir string, files [][2]string, written func(i int)) error {
	dir = filepath.FromSlash(dir)
	if entries, err := fs.ReadDir(root.FS(), filepath.ToSlash(dir)); err == nil && len(entries) > 0 {
		return errs.New(errs.Conflict, "%s already exists and is not empty; choose a new folder", filepath.ToSlash(dir)).With("field", "path")
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return errs.Wrap(err, errs.InvalidArgument, "%s is not a folder a plugin can be created in", filepath.ToSlash(dir)).With("field", "path")
	}
	for i, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f[0]))
		if err := root.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return errs.Wrap(err, errs.ToolFailed, "cannot create %s", filepath.ToSlash(filepath.Dir(p)))
		}
		// O_EXCL: a file that appeared meanwhile is never written through.
		w, err := root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return errs.Wrap(err, errs.ToolFailed, "cannot create %s", filepath.ToSlash(p))
		}
		_, err = w.WriteString(f[1])
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return errs.Wrap(err, errs.ToolFailed, "cannot write %s", filepath.ToSlash(p))
		}
		if written != nil {
			written(i)
		}
	}
	return nil
}
