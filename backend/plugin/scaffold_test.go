package plugin_test

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
)

// Each language's skeleton: a manifest install accepts (one low-risk,
// plan-safe example tool run by the language's command), its server on
// that language's MCP SDK, and a README that says how to build it.
func TestScaffoldFiles(t *testing.T) {
	cases := []struct {
		lang, command string
		files         []string
		server, sdk   string // the server file and the SDK it imports
		build         string // in the README
	}{
		{plugin.LangGo, "bin/server", []string{"plugin.json", "go.mod", "main.go", "README.md"}, "main.go", "github.com/modelcontextprotocol/go-sdk/mcp", "go build -o bin/server ."},
		{plugin.LangNode, "node", []string{"plugin/plugin.json", "package.json", "src/server.mjs", "README.md"}, "src/server.mjs", "@modelcontextprotocol/sdk/server/mcp.js", "npm run build"},
		{plugin.LangPython, "python3", []string{"plugin.json", "requirements.txt", "server.py", "README.md"}, "server.py", "from mcp.server.fastmcp import FastMCP", "pip install -r requirements.txt"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			files, err := plugin.ScaffoldFiles(plugin.ScaffoldSpec{ID: "dev.acme.hello", Name: "Hello", Language: c.lang})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			var names []string
			for _, f := range files {
				got[f[0]] = f[1]
				names = append(names, f[0])
			}
			if !slices.Equal(names, c.files) {
				t.Errorf("files = %v, want %v", names, c.files)
			}
			m, err := plugin.ParseManifest([]byte(got[path.Join(plugin.ScaffoldPluginDir(c.lang), "plugin.json")]))
			if err != nil {
				t.Fatal(err)
			}
			if m.ID != "dev.acme.hello" || m.Version != plugin.ScaffoldVersion || m.Command != c.command || len(m.Tools) != 1 || len(m.Warnings) != 0 {
				t.Errorf("manifest = %+v", m)
			}
			if tl := m.Tools[0]; tl.Name != "greet" || tl.Risk != "low" || !slices.Equal(tl.PlanSafeActions, []string{"greet"}) {
				t.Errorf("example tool = %+v", tl)
			}
			if !strings.Contains(got[c.server], c.sdk) || !strings.Contains(got[c.server], `"greet"`) && !strings.Contains(got[c.server], "def greet") {
				t.Errorf("%s does not serve greet over %s:\n%s", c.server, c.sdk, got[c.server])
			}
			if !strings.Contains(got["README.md"], c.build) || !strings.Contains(got["README.md"], "plugin_dev_acme_hello_greet") {
				t.Errorf("README.md does not say how to build (%q) or name the tool:\n%s", c.build, got["README.md"])
			}
			if strings.Contains(strings.Join(names, "\n")+got["README.md"]+got[c.server], "{{") {
				t.Error("a template placeholder was left")
			}
		})
	}
}

func TestScaffoldFilesRefuses(t *testing.T) {
	cases := []struct {
		name  string
		spec  plugin.ScaffoldSpec
		field string
	}{
		{"upper-case id", plugin.ScaffoldSpec{ID: "Dev.Acme", Name: "X", Language: "go"}, "id"},
		{"empty name", plugin.ScaffoldSpec{ID: "dev.acme", Name: " ", Language: "go"}, "name"},
		{"unknown language", plugin.ScaffoldSpec{ID: "dev.acme", Name: "X", Language: "rust"}, "language"},
		{"id too long for the model name", plugin.ScaffoldSpec{ID: strings.Repeat("a", 60), Name: "X", Language: "go"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := plugin.ScaffoldFiles(c.spec)
			if !errs.Is(err, errs.InvalidArgument) {
				t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
			}
			if got, _ := errs.ToPayload(err).Details["field"].(string); got != c.field {
				t.Errorf("field = %q, want %q (%v)", got, c.field, err)
			}
		})
	}
}

// WriteScaffold writes only into a new or empty folder, through the root.
func TestWriteScaffold(t *testing.T) {
	files := [][2]string{{"plugin.json", "{}"}, {"sub/a.txt", "a"}}
	cases := []struct {
		name  string
		setup func(dir string)
		code  errs.Code
	}{
		{"new folder", func(string) {}, ""},
		{"empty folder", func(dir string) { os.MkdirAll(filepath.Join(dir, "p"), 0o755) }, ""},
		{"folder with a file", func(dir string) {
			os.MkdirAll(filepath.Join(dir, "p"), 0o755)
			os.WriteFile(filepath.Join(dir, "p", "x"), nil, 0o644)
		}, errs.Conflict},
		{"a link out of the root", func(dir string) { os.Symlink(t.TempDir(), filepath.Join(dir, "p")) }, errs.InvalidArgument},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(dir)
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			err = plugin.WriteScaffold(root, "p", files, nil)
			if errs.CodeOf(err) != c.code && !(c.code == "" && err == nil) {
				t.Fatalf("err = %v, want %q", err, c.code)
			}
			if c.code == "" {
				if b, err := os.ReadFile(filepath.Join(dir, "p", "sub", "a.txt")); err != nil || string(b) != "a" {
					t.Errorf("sub/a.txt = %q, %v", b, err)
				}
			}
		})
	}
}
