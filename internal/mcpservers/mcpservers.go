// Package mcpservers starts real third-party MCP servers for tests: the
// reference servers from npm, pinned in testdata/mcp-servers and installed by
// `make deps-mcp-servers`, so the MCP client is tested against code nobody here
// wrote. A missing or stale install fails the test with the command to run;
// it never skips, since a skipped MCP test would look like a passing one.
package mcpservers

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// fixtureDir is the folder, relative to the module root, holding the fixture's
// package.json, package-lock.json and node_modules.
const fixtureDir = "testdata/mcp-servers"

const (
	everythingPkg = "@modelcontextprotocol/server-everything"
	filesystemPkg = "@modelcontextprotocol/server-filesystem"
)

// installHint ends every failure about the fixture, so whoever reads it knows
// the one command that fixes it.
const installHint = "run `make deps-mcp-servers` (npm ci in " + fixtureDir + ")"

// Everything returns the command and arguments that run
// @modelcontextprotocol/server-everything over stdio. A client must be ready
// to signal it: it does not exit when its stdin closes while its roots/list
// request (sent to clients that declare roots) is unanswered.
func Everything(t testing.TB) (command string, args []string) {
	t.Helper()
	node, script := server(t, fixture(t), everythingPkg)
	return node, []string{script, "stdio"}
}

// Filesystem returns the command and arguments that run
// @modelcontextprotocol/server-filesystem over stdio, allowed to reach only
// root (which must exist: the server refuses to start otherwise).
func Filesystem(t testing.TB, root string) (command string, args []string) {
	t.Helper()
	node, script := server(t, fixture(t), filesystemPkg)
	return node, []string{script, root}
}

// fixture returns the absolute path of the fixture folder.
func fixture(t testing.TB) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("mcpservers: %v", err)
	}
	return filepath.Join(root, fixtureDir)
}

// server finds node and the entry point of pkg installed in dir, failing the
// test when either is missing or the install does not match the pinned
// version.
func server(t testing.TB, dir, pkg string) (node, script string) {
	t.Helper()
	script, err := entryPoint(dir, pkg)
	if err != nil {
		t.Fatalf("mcpservers: %v; %s", err, installHint)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		t.Fatalf("mcpservers: node is not on PATH (Node 20 or newer runs the MCP test servers): %v", err)
	}
	return node, script
}

// entryPoint checks that pkg is installed in dir at the version dir's
// package.json pins and returns the absolute path of its bin script.
func entryPoint(dir, pkg string) (string, error) {
	var fixture struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := readJSON(filepath.Join(dir, "package.json"), &fixture); err != nil {
		return "", err
	}
	want, ok := fixture.Dependencies[pkg]
	if !ok {
		return "", fmt.Errorf("%s is not pinned in %s", pkg, filepath.Join(dir, "package.json"))
	}
	pkgDir := filepath.Join(dir, "node_modules", filepath.FromSlash(pkg))
	var installed struct {
		Version string            `json:"version"`
		Bin     map[string]string `json:"bin"`
	}
	if err := readJSON(filepath.Join(pkgDir, "package.json"), &installed); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s is not installed", pkg)
		}
		return "", err
	}
	if installed.Version != want {
		return "", fmt.Errorf("%s %s is installed but %s is pinned", pkg, installed.Version, want)
	}
	// Each reference server ships exactly one bin; its name varies.
	if len(installed.Bin) != 1 {
		return "", fmt.Errorf("%s declares %d bin entries, want 1", pkg, len(installed.Bin))
	}
	var rel string
	for _, r := range installed.Bin {
		rel = r
	}
	script := filepath.Join(pkgDir, filepath.FromSlash(rel))
	if _, err := os.Stat(script); err != nil {
		return "", fmt.Errorf("%s is incompletely installed: %w", pkg, err)
	}
	return script, nil
}

// moduleRoot walks up from the working directory (a test runs in its
// package's folder) to the folder holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
