package tools_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var searchFiles = map[string]string{
	"src/a.go":        "package src\n\nfunc Alpha() {}\n",
	"src/b.go":        "package src\n\n// Alpha calls\nfunc Beta() { Alpha() }\n",
	"docs/readme.md":  "# Alpha\n",
	"vendor/x.go":     "func Alpha() {}\n",
	".gitignore":      "vendor/\n",
	".hidden/h.go":    "func Alpha() {}\n",
	"src/sibling.txt": "Alpha sibling\n",
}

// TestSearchToolsGolden runs Glob and Grep through the tools, with both
// engines, and checks the model-facing text: workspace results relative, a
// directly named file shown by its own path, external results absolute.
func TestSearchToolsGolden(t *testing.T) {
	engines := map[string]string{"builtin": "-"}
	if _, err := exec.LookPath("rg"); err == nil {
		engines["rg"] = ""
	} else {
		t.Log("rg not installed (apt-get install ripgrep): checking the builtin engine only")
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "o.go"), []byte("func Alpha() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, tool string
		args       map[string]any
	}{
		{"glob_all_go", "Glob", map[string]any{"pattern": "**/*.go"}},
		{"glob_subtree", "Glob", map[string]any{"pattern": "*.go", "path": "src"}},
		{"glob_external", "Glob", map[string]any{"pattern": "*.go", "path": outside}},
		{"grep_content", "Grep", map[string]any{"pattern": "Alpha", "context": 1}},
		{"grep_named_file", "Grep", map[string]any{"pattern": "Alpha", "path": "src/b.go"}},
		{"grep_files_include", "Grep", map[string]any{"pattern": "alpha", "ignoreCase": true, "outputMode": "filesWithMatches", "include": "*.go"}},
		{"grep_external", "Grep", map[string]any{"pattern": "Alpha", "path": outside}},
	}
	outputs := map[string]map[string]string{}
	for engine, rg := range engines {
		w := newWSWith(t, searchFiles, rg)
		outputs[engine] = map[string]string{}
		for _, c := range cases {
			res := w.run(c.tool, c.args)
			if !res.OK {
				t.Fatalf("%s/%s = %+v", engine, c.name, res)
			}
			if strings.Contains(c.name, "external") && res.Root != "external" {
				t.Errorf("%s/%s root = %s", engine, c.name, res.Root)
			}
			outputs[engine][c.name] = strings.ReplaceAll(res.Content, filepath.ToSlash(outside), "<outside>") +
				fmt.Sprintf("\n---\nroot: %s\npath: %s\n", res.Root, strings.ReplaceAll(res.Path, filepath.ToSlash(outside), "<outside>"))
		}
	}
	for _, c := range cases {
		got := outputs["builtin"][c.name]
		if rgOut, ok := outputs["rg"]; ok && rgOut[c.name] != got {
			t.Errorf("%s: engines differ:\nbuiltin:\n%s\nrg:\n%s", c.name, got, rgOut[c.name])
		}
		assertGolden(t, c.name, got)
	}
}
