package mcpstore_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
)

// tree writes files under a new project root; a value starting with "->"
// makes a symbolic link to the rest.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(body, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Skipf("symlinks unavailable: %v", err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// summary is one entry as "id source transport command/url" or
// "id source !CODE" for a problem, so a table row reads like the result.
func summary(p mcpstore.ProjectServer) string {
	if p.Problem != nil {
		return p.Server.ID + " " + p.Source + " !" + string(p.Problem.Code)
	}
	what := p.Server.Command
	if p.Server.Transport != mcp.TransportStdio {
		what = p.Server.URL
	}
	return p.Server.ID + " " + p.Source + " " + string(p.Server.Transport) + " " + what
}

const (
	mcpJSON = `{"mcpServers": {
		"everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
		"web": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}`
	oneServer = `{"command": "uvx", "args": ["mcp-server-git"]}`
)

func TestProjectServers(t *testing.T) {
	secretOutside := filepath.Join(t.TempDir(), "outside.json")
	if err := os.WriteFile(secretOutside, []byte(`{"mcpServers":{"evil":{"command":"rm"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"nothing declared", map[string]string{"README": "hi"}, nil},
		{".mcp.json only", map[string]string{".mcp.json": mcpJSON}, []string{
			"everything .mcp.json stdio npx",
			"web .mcp.json http https://mcp.example.com/mcp",
		}},
		{"one-server file named by its file", map[string]string{".agents/servers/git.json": oneServer}, []string{
			"git .agents/servers/git.json stdio uvx",
		}},
		{"mcpServers shape in .agents/servers", map[string]string{".agents/servers/team.json": `{"mcpServers":{"a":{"command":"a"},"b":{"type":"sse","url":"http://localhost:1/sse"}}}`}, []string{
			"a .agents/servers/team.json stdio a",
			"b .agents/servers/team.json sse http://localhost:1/sse",
		}},
		{".agents/servers overrides .mcp.json, later file overrides earlier", map[string]string{
			".mcp.json":                       mcpJSON,
			".agents/servers/a.json":          `{"mcpServers":{"everything":{"command":"first"}}}`,
			".agents/servers/everything.json": `{"command": "second"}`,
		}, []string{
			"everything .agents/servers/everything.json stdio second",
			"web .mcp.json http https://mcp.example.com/mcp",
		}},
		{"bad JSON in one file does not hide the others", map[string]string{
			".mcp.json":              mcpJSON,
			".agents/servers/x.json": `{"command": "x",`,
			".agents/servers/y.json": oneServer,
		}, []string{
			" .agents/servers/x.json !INVALID_ARGUMENT",
			"everything .mcp.json stdio npx",
			"web .mcp.json http https://mcp.example.com/mcp",
			"y .agents/servers/y.json stdio uvx",
		}},
		{"bad .mcp.json does not hide .agents/servers", map[string]string{
			".mcp.json":              `[]`,
			".agents/servers/y.json": oneServer,
		}, []string{
			" .mcp.json !INVALID_ARGUMENT",
			"y .agents/servers/y.json stdio uvx",
		}},
		{"a bad entry beside good ones, and a broken override wins", map[string]string{
			".mcp.json":                `{"mcpServers":{"ok":{"command":"ok"},"bad":{"type":"http"},"git":{"command":"git-mcp"}}}`,
			".agents/servers/git.json": `{"type": "http"}`,
		}, []string{
			"bad .mcp.json !INVALID_ARGUMENT",
			"git .agents/servers/git.json !INVALID_ARGUMENT",
			"ok .mcp.json stdio ok",
		}},
		{"symlink escaping the project is not followed", map[string]string{
			".mcp.json":                 "->" + secretOutside,
			".agents/servers/evil.json": "->" + secretOutside,
		}, []string{
			" .mcp.json !INVALID_ARGUMENT",
			"evil .agents/servers/evil.json !INVALID_ARGUMENT",
		}},
		{"symlinked servers folder escaping the project", map[string]string{
			".agents/servers": "->" + filepath.Dir(secretOutside),
		}, []string{" .agents/servers !INVALID_ARGUMENT"}},
		{"symlink inside the project is followed", map[string]string{
			"shared/servers.json": mcpJSON,
			".mcp.json":           "->shared/servers.json",
		}, []string{
			"everything .mcp.json stdio npx",
			"web .mcp.json http https://mcp.example.com/mcp",
		}},
		{"dangling symlink", map[string]string{".mcp.json": "->nowhere.json"}, []string{" .mcp.json !INVALID_ARGUMENT"}},
		{"oversize file", map[string]string{
			".mcp.json":               `{"mcpServers":{"big":{"command":"x","args":["` + strings.Repeat("a", mcpstore.MaxProjectFileBytes) + `"]}}}`,
			".agents/servers/ok.json": oneServer,
		}, []string{
			" .mcp.json !INVALID_ARGUMENT",
			"ok .agents/servers/ok.json stdio uvx",
		}},
		{"dot files, other extensions and folders are skipped", map[string]string{
			".agents/servers/.draft.json": oneServer,
			".agents/servers/notes.txt":   "x",
			".agents/servers/dir.json/x":  "x",
			".agents/servers/.json":       oneServer,
			".agents/servers/real.json":   oneServer,
		}, []string{"real .agents/servers/real.json stdio uvx"}},
		{"a folder named .mcp.json", map[string]string{".mcp.json/x": "x"}, []string{" .mcp.json !INVALID_ARGUMENT"}},
		{"one-server file that is not an object", map[string]string{".agents/servers/a.json": `["npx"]`}, []string{" .agents/servers/a.json !INVALID_ARGUMENT"}},
		{"mcpServers null", map[string]string{".agents/servers/a.json": `{"mcpServers": null}`}, []string{" .agents/servers/a.json !INVALID_ARGUMENT"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := tree(t, c.files)
			got, err := mcpstore.ProjectServers(root)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, p := range got {
				lines = append(lines, summary(p))
				if p.Problem == nil && p.Hash != p.Server.DefinitionHash() {
					t.Errorf("%s: Hash %q is not the definition's", p.Server.ID, p.Hash)
				}
				if p.Problem == nil && p.Server.Validate() != nil {
					t.Errorf("%s: an invalid definition was returned as usable", p.Server.ID)
				}
			}
			if strings.Join(lines, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(lines, "\n  "), strings.Join(c.want, "\n  "))
			}
			for _, p := range got {
				if p.Problem != nil && strings.Contains(p.Problem.Message, "rm") && strings.Contains(c.name, "escaping") {
					t.Errorf("a file outside the project was read: %s", p.Problem.Message)
				}
			}
		})
	}
}

func TestProjectServersReadsAtMost64Files(t *testing.T) {
	files := map[string]string{}
	for i := range mcpstore.MaxServerFiles + 6 {
		files[fmt.Sprintf(".agents/servers/s%03d.json", i)] = oneServer
	}
	got, err := mcpstore.ProjectServers(tree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != mcpstore.MaxServerFiles+1 || got[0].Problem == nil || got[0].Source != mcpstore.ProjectServersDir {
		t.Fatalf("got %d entries, first %s; want %d servers and one problem first", len(got), summary(got[0]), mcpstore.MaxServerFiles)
	}
	if last := got[len(got)-1]; last.Server.ID != "s063" {
		t.Errorf("last read = %s; want s063 (the first 64 by name)", last.Server.ID)
	}
}

func TestProjectServersMissingRoot(t *testing.T) {
	_, err := mcpstore.ProjectServers(filepath.Join(t.TempDir(), "gone"))
	if !errs.Is(err, errs.ProjectNotFound) {
		t.Errorf("a missing root = %v; want PROJECT_NOT_FOUND", err)
	}
}

// The hash is of the file as written: a changed variable keeps it, a
// changed file does not.
func TestProjectHashIsOfTheDefinitionAsWritten(t *testing.T) {
	root := tree(t, map[string]string{".mcp.json": mcpJSON})
	read := func() string {
		t.Helper()
		got, err := mcpstore.ProjectServers(root)
		if err != nil || len(got) != 2 || got[1].Server.ID != "web" {
			t.Fatalf("got %v, %v", got, err)
		}
		if got[1].Server.Headers["Authorization"] != "Bearer ${TOKEN}" {
			t.Errorf("the header was expanded while reading: %q", got[1].Server.Headers["Authorization"])
		}
		return got[1].Hash
	}
	first := read()
	t.Setenv("TOKEN", "changed")
	if read() != first {
		t.Error("a changed variable changed the hash")
	}
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(strings.Replace(mcpJSON, "/mcp\"", "/mcp2\"", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if read() == first {
		t.Error("a changed file kept the hash")
	}
}

func TestProjectServerAPI(t *testing.T) {
	got, err := mcpstore.ProjectServers(tree(t, map[string]string{".mcp.json": mcpJSON, ".agents/servers/bad.json": "{"}))
	if err != nil {
		t.Fatal(err)
	}
	bad, web := got[0].API("p1"), got[2].API("p1")
	if bad.State != api.MCPStateFailed || bad.ErrorCode != string(errs.InvalidArgument) || bad.Error == "" {
		t.Errorf("problem entry = %+v", bad)
	}
	if web.State != api.MCPStateUntrusted || web.Scope != api.MCPScopeProject || web.ProjectID != "p1" || web.Source != ".mcp.json" ||
		web.DefinitionHash == "" || len(web.Headers) != 1 || web.Headers[0].Value != "Bearer ${TOKEN}" {
		t.Errorf("untrusted entry = %+v", web)
	}
	got[2].Trusted = true
	if s := got[2].API("p1"); s.State != "" || !s.Trusted {
		t.Errorf("trusted entry = %+v", s)
	}
}

func writeFile(t *testing.T, root, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
