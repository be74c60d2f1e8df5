// Package pluginsample is the sample plugin of the plugin tests (issue 22):
// a manifest with one low-risk plan-safe tool (inspect, with an "action"
// argument) and one high-risk tool (deploy), a skill, and a tiny MCP server
// on the official Go SDK that the tests build once per test binary.
package pluginsample

import (
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

//go:embed testdata/sample/plugin.json testdata/sample/skills
var sample embed.FS

// ServerEnv names the built server binary once Build ran (TestMain sets it,
// so no test package keeps mutable state for it).
const ServerEnv = "PI_PLUGIN_SAMPLE_SERVER"

const serverPkg = "github.com/pi-desktop/pi-desktop/internal/pluginsample/testdata/sample/server"

// Build compiles the sample server into dir and records its path in
// ServerEnv. Call it from TestMain before HOME changes (the build cache
// lives under it).
func Build(dir string) error {
	if err := pinGoEnv(); err != nil {
		return err
	}
	out := filepath.Join(dir, "sample-server")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, serverPkg)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return err
	}
	return os.Setenv(ServerEnv, out)
}

// Folder writes the sample plugin into dst: its manifest (with LOGFILE
// replaced by logFile, then changed by edit when not nil), its skill and
// bin/server, a copy of the built server.
func Folder(t testing.TB, dst, logFile string, edit func(m map[string]any)) {
	t.Helper()
	data, err := sample.ReadFile("testdata/sample/plugin.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(data), "LOGFILE", filepath.ToSlash(logFile))), &m); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(m)
	}
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dst, "plugin.json"), out, 0o644)
	skills, err := fs.Sub(sample, "testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WalkDir(skills, "skills", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(skills, p)
		if err != nil {
			return err
		}
		write(t, filepath.Join(dst, filepath.FromSlash(p)), b, 0o644)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	server := os.Getenv(ServerEnv)
	if server == "" {
		t.Fatalf("the sample server was not built: TestMain must call pluginsample.Build")
	}
	bin, err := os.ReadFile(server)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dst, "bin", "server"), bin, 0o755)
}

func write(t testing.TB, path string, data []byte, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, perm); err != nil {
		t.Fatal(err)
	}
}

// Events are the lines the sample server appended to logFile ("start
// <pid>", "cwd <dir>", "key <NAME>", "call inspect <action>", "call deploy
// <target>"); none when it never ran.
func Events(t testing.TB, logFile string) []string {
	t.Helper()
	data, err := os.ReadFile(logFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSpace(string(data))
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// pinGoEnv keeps the Go build and module caches (and this module's
// go.mod, for BuildGoScaffold) where they are before a test moves HOME,
// so a plugin built during a test needs no network and no fresh cache.
func pinGoEnv() error {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOMOD").Output()
	if err != nil {
		return err
	}
	vals := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(vals) != 3 {
		return errors.New("go env: unexpected output")
	}
	for i, k := range []string{"GOCACHE", "GOMODCACHE", hostGoModEnv} {
		if err := os.Setenv(k, strings.TrimSpace(vals[i])); err != nil {
			return err
		}
	}
	return nil
}

// sdkPackage is the package a Go skeleton imports.
const sdkPackage = "github.com/modelcontextprotocol/go-sdk/mcp"

// hostGoModEnv names this module's go.mod once Build ran.
const hostGoModEnv = "PI_PLUGIN_SAMPLE_GOMOD"

// BuildGoScaffold builds a Go plugin skeleton in dir as its README says
// (go build -o bin/server .), offline: its module requirements are pinned
// to this module's (whose modules the cache holds), with this module's
// go.sum, instead of a go mod tidy that would reach the network.
func BuildGoScaffold(t testing.TB, dir string) {
	t.Helper()
	hostMod := os.Getenv(hostGoModEnv)
	if hostMod == "" {
		t.Fatal("the Go environment was not pinned: TestMain must call pluginsample.Build")
	}
	sum, err := os.ReadFile(filepath.Join(filepath.Dir(hostMod), "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	own, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// The modules the SDK's package builds from, at this module's versions:
	// all in the cache, as this module builds the same package. Copying
	// every requirement of this module instead would name modules whose
	// go.mod a fresh cache never fetched (CI found one), and -mod=mod
	// would need them.
	list := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{end}}{{end}}", sdkPackage)
	list.Dir = filepath.Dir(hostMod)
	mods, err := list.Output()
	if err != nil {
		t.Fatalf("go list the SDK's modules: %v", err)
	}
	var reqs strings.Builder
	reqs.WriteString("require (\n")
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(mods)), "\n") {
		if line = strings.TrimSpace(line); line != "" && !seen[line] && !strings.Contains(string(own), strings.Fields(line)[0]+" ") {
			seen[line] = true
			reqs.WriteString("\t" + line + "\n")
		}
	}
	reqs.WriteString(")\n")
	write(t, filepath.Join(dir, "go.mod"), []byte(string(own)+"\n"+reqs.String()), 0o644)
	write(t, filepath.Join(dir, "go.sum"), sum, 0o644)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join("bin", "server"), ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
}
