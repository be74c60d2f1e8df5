package search

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// writeTree creates files (path → content, '/'-separated) below dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fixture builds the shared test workspace: ignore files with negations at
// two levels, hidden entries, a .git dir, binary and odd text files, names
// with ':' and spaces, and enough matches to truncate.
func fixture(t testing.TB) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "ws")
	files := map[string]string{
		".gitignore":            "*.log\nbuild/\n!keep.log\n# comment\n/rooted.txt\n",
		".ignore":               "secret.txt\n",
		".git/config":           "needle in git\n",
		".git/HEAD":             "ref: refs/heads/main\n",
		".hidden/h.go":          "needle hidden\n",
		".dot.go":               "package dot // needle dot\n",
		"a.go":                  "package a\n\n// needle one\nfunc A() {}\n// NEEDLE two\n",
		"app.log":               "needle log\n",
		"keep.log":              "needle keep\n",
		"rooted.txt":            "needle rooted\n",
		"build/out.go":          "needle build\n",
		"secret.txt":            "needle secret\n",
		"sub/.gitignore":        "*.tmp\n!wanted.tmp\n!sub.log\n",
		"sub/x.tmp":             "needle tmp\n",
		"sub/wanted.tmp":        "needle wanted\n",
		"sub/sub.log":           "needle sublog\n",
		"sub/rooted.txt":        "needle not rooted\n",
		"sub/deep/b.go":         "package deep\n\nfunc B() string { return \"needle\" }\n",
		"bin.dat":               "needle\x00binary\n",
		"late-nul.txt":          strings.Repeat("needle late\n", 800) + "\x00\n",
		"invalid-utf8.txt":      "needle \xff\xfe\n",
		"crlf.txt":              "first needle\r\nsecond\r\nneedle end\r\n",
		"bom.txt":               "\uFEFFneedle at start\nline2\n",
		"lonecr.txt":            "needle\rmiddle\n",
		"unicode.txt":           "ünïcödé needle 世界\n\u212Aelvin sign\nKelvin plain\nstraße\n",
		"long.txt":              "short needle\n" + strings.Repeat("é", 3000) + " needle\n",
		"we:ird name.txt":       "needle colon space\n",
		"a/x.go":                "needle order a\n",
		"a-b/x.go":              "needle order a-b\n",
		"nonl.txt":              "no newline needle",
		"empty.txt":             "",
		"ctx.txt":               "l1\nl2 needle\nl3\nl4\nl5\nl6\nl7 needle\nl8 needle\nl9\nl10\nl11\nl12\nl13 needle\n",
		"dir/file.go":           "package dir\n// needle in named file\n",
		"dir/sibling.go":        "needle sibling\n",
		"dir/.hidden-named.txt": "needle named hidden\n",
	}
	for i := range 30 {
		var b strings.Builder
		for j := range 10 {
			b.WriteString("needle many " + string(rune('a'+j)) + "\n")
		}
		files["many/f"+string(rune('a'+i/10))+string(rune('0'+i%10))+".txt"] = b.String()
	}
	writeTree(t, root, files)
	if err := os.Symlink("a.go", filepath.Join(root, "link.go")); err != nil {
		t.Logf("no symlink: %v", err)
	}
	return root
}

// rgPath returns the installed rg or skips the rg half of a test.
func rgPath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("ripgrep is not installed (apt-get install ripgrep); only the builtin engine was tested")
	}
	return p
}

// grepBoth runs opts through the builtin engine and, when rg is installed,
// through rg in each of its plans (walk order stopping at the limit,
// multi-threaded and cut in Go, the automatic choice, and that choice with
// its head start cut to nothing so it always restarts), and fails unless
// rg really ran and every result equals the builtin one. Then it runs opts
// as the tool does (rgChoose) and checks the engine builtinFaster picks.
func grepBoth(t *testing.T, opts GrepOptions) GrepResult {
	t.Helper()
	opts.RgPath = "-"
	b, err := Grep(t.Context(), opts)
	if err != nil {
		t.Fatalf("builtin Grep(%+v): %v", opts, err)
	}
	if b.Engine != EngineBuiltin {
		t.Fatalf("engine = %q, want builtin", b.Engine)
	}
	p, err := exec.LookPath("rg")
	if err != nil {
		t.Log("ripgrep not installed (apt-get install ripgrep): rg half skipped")
		return b
	}
	for _, plan := range []rgPlan{rgSorted, rgParallel, rgAuto, rgAuto + 100} {
		opts.RgPath, opts.rgPlan, opts.rgHeadStart = p, plan, 0
		if plan == rgAuto+100 { // the head start always over: the restart multi-threaded
			opts.rgPlan, opts.rgHeadStart = rgAuto, time.Nanosecond
		}
		r, err := Grep(t.Context(), opts)
		if err != nil {
			t.Fatalf("rg plan %d Grep(%+v): %v", plan, opts, err)
		}
		if r.Engine != EngineRg {
			t.Fatalf("rg plan %d fell back to the builtin engine for %+v", plan, opts)
		}
		r.Engine = EngineBuiltin
		if !reflect.DeepEqual(b, r) {
			t.Fatalf("engines differ (rg plan %d) for %+v\nbuiltin: %s\nrg:      %s", plan, opts, dump(b), dump(r))
		}
	}
	opts.rgPlan, opts.rgHeadStart = rgChoose, 0
	r, err := Grep(t.Context(), opts)
	if err != nil {
		t.Fatalf("Grep(%+v) with rg installed: %v", opts, err)
	}
	if m, _ := compilePattern(opts.Pattern, opts.IgnoreCase); r.Engine != map[bool]string{true: EngineBuiltin, false: EngineRg}[m.skipsMostBytes()] {
		t.Fatalf("with rg installed, %+v ran %s", opts, r.Engine)
	}
	return b
}

func dump(r GrepResult) string {
	var b strings.Builder
	b.WriteString("trunc=" + boolStr(r.Truncated) + "\n")
	for _, f := range r.Files {
		b.WriteString("  " + f.Path + "#" + f.Tag + " count=" + itoa(f.Count) + "\n")
		for _, l := range f.Lines {
			b.WriteString("    " + itoa(l.N) + " ctx=" + boolStr(l.Context) + " " + l.Text + "\n")
		}
	}
	return b.String()
}

func paths(r GrepResult) []string {
	out := []string{}
	for _, f := range r.Files {
		out = append(out, f.Path)
	}
	return out
}
