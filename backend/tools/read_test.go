package tools_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

type ws struct {
	t        *testing.T
	dir      string
	resolver *pathguard.Resolver
	registry *tools.Registry
}

func newWS(t *testing.T, files map[string]string) *ws {
	t.Helper()
	return newWSWith(t, files, "-")
}

// newWSWith builds a workspace whose Grep uses rgPath ("-" = builtin).
func newWSWith(t *testing.T, files map[string]string, rgPath string) *ws {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := pathguard.New(pathguard.Roots{Workspace: dir, Scratch: filepath.Join(t.TempDir(), "scratch")}, pathguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{RgPath: rgPath})...)
	if err != nil {
		t.Fatal(err)
	}
	return &ws{t: t, dir: dir, resolver: r, registry: reg}
}

// run validates args and runs the tool directly (no policy: the tool body).
func (w *ws) run(tool string, args map[string]any) tools.Result {
	w.t.Helper()
	raw, _ := json.Marshal(args)
	folded, _, err := w.registry.Validate(tool, raw)
	if err != nil {
		return tools.Failure(err)
	}
	tl, _ := w.registry.Lookup(tool)
	spec := tl.Spec()
	p, _ := args[spec.PathArg].(string)
	if p == "" {
		p = spec.DefaultPath
	}
	target, err := w.resolver.Resolve(p)
	if err != nil {
		return tools.Failure(err)
	}
	return tl.Run(w.t.Context(), &tools.Call{SessionID: "s", Args: folded, Target: &target, Resolver: w.resolver})
}

// assertGolden compares got with testdata/<name>.golden.
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", name+".golden"), got)
}

const greet = "package main\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn \"Hello, \" + name\n}\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n"

func TestReadGolden(t *testing.T) {
	var long strings.Builder
	for i := range 1200 {
		long.WriteString(strings.Repeat("x", i%50) + "\n")
	}
	w := newWS(t, map[string]string{
		"src/greet.go": greet,
		"crlf.txt":     "one\r\ntwo\r\n",
		"empty.txt":    "",
		"wide.min.js":  "a\n" + strings.Repeat("é", 2100) + "\nc",
		"long.txt":     long.String(),
		"bin.dat":      "\x00\x01\x02",
		"cr.txt":       "a\nb\rc\nd\n",
	})
	tests := []struct {
		name string
		args map[string]any
	}{
		{"read_whole", map[string]any{"path": "src/greet.go"}},
		{"read_window", map[string]any{"path": "src/greet.go", "offset": 5, "limit": 2}},
		{"read_crlf", map[string]any{"path": "crlf.txt"}},
		{"read_empty", map[string]any{"path": "empty.txt"}},
		{"read_clipped", map[string]any{"path": "wide.min.js"}},
		{"read_paged", map[string]any{"path": "long.txt", "offset": 600, "limit": 3}},
		{"read_default_limit_tail", map[string]any{"path": "long.txt", "offset": 1198}},
		{"read_binary", map[string]any{"path": "bin.dat"}},
		{"read_lone_cr", map[string]any{"path": "cr.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := w.run("Read", tt.args)
			if !res.OK {
				t.Fatalf("Read = %+v", res)
			}
			out, _ := json.MarshalIndent(res.Fields, "", "  ")
			assertGolden(t, tt.name, res.Content+"\n---\nnotice: "+res.Notice+"\nfields: "+string(out)+"\n")
		})
	}
}

func TestReadContractTag(t *testing.T) {
	w := newWS(t, map[string]string{"src/greet.go": greet})
	res := w.run("Read", map[string]any{"path": "src/greet.go", "offset": 5, "limit": 2})
	want := "[src/greet.go#A093]\n5:func greet(name string) string {\n6:\treturn \"Hello, \" + name\n\n[lines 5-6 of 11; next offset=7]"
	if res.Content != want {
		t.Errorf("Read window =\n%s\nwant (edit-contract §3)\n%s", res.Content, want)
	}
}

func TestReadWideAndBudget(t *testing.T) {
	big := strings.Repeat(strings.Repeat("y", 1500)+"\n", 200) // 300 KB
	w := newWS(t, map[string]string{"w.txt": strings.Repeat("z", 3000) + "\n", "big.txt": big})
	if res := w.run("Read", map[string]any{"path": "w.txt", "wide": true, "limit": 1}); res.Fields["clipped"] != 0 {
		t.Errorf("wide read clipped: %+v", res.Fields)
	}
	if res := w.run("Read", map[string]any{"path": "w.txt", "wide": true, "limit": 11}); res.Fields["clipped"] != 1 {
		t.Errorf("wide needs limit<=10: %+v", res.Fields)
	}
	// One row wider than the whole budget (wide: 16,384 three-byte runes)
	// is clipped to fit, never cut away by the result bound.
	wc := newWS(t, map[string]string{"cjk.txt": "x\n" + strings.Repeat("漢", 16384) + "\n"})
	res := wc.run("Read", map[string]any{"path": "cjk.txt", "offset": 2, "limit": 1, "wide": true})
	if !res.OK || len(res.Content) > tools.ResultMaxBytes || res.Fields["clipped"] != 1 || !strings.Contains(res.Content, "\n2~:漢") {
		t.Errorf("huge first row: %d bytes, fields %+v", len(res.Content), res.Fields)
	}
	res = w.run("Read", map[string]any{"path": "big.txt"})
	if len(res.Content) > tools.ResultMaxBytes || !res.Truncated || !strings.Contains(res.Notice, "continue with offset=") {
		t.Errorf("budget: %d bytes, truncated=%v, notice=%q", len(res.Content), res.Truncated, res.Notice)
	}
	if res := w.run("Read", map[string]any{"path": "w.txt", "offset": 5}); res.OK || res.Details["field"] != "offset" {
		t.Errorf("offset past the end = %+v", res)
	}
}
