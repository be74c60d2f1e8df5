package search

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// assertGolden compares got with testdata/<name>.golden.
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", name+".golden"), got)
}

// workspace is the display mapping the host uses for workspace-relative
// results below "src".
func workspace(rel string) string {
	if rel == "." {
		return "src"
	}
	return "src/" + rel
}

func renderGrep(res GrepResult, display func(string) string) string {
	text, tags, truncated, notice := FormatGrep(res, display)
	var keys []string
	for k := range tags {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(text)
	b.WriteString("\n=== truncated: " + boolStr(truncated) + "\n=== notice: " + notice + "\n=== tags:\n")
	for _, k := range keys {
		b.WriteString(k + " " + tags[k] + "\n")
	}
	return b.String()
}

func TestFormatGrepGolden(t *testing.T) {
	root := fixture(t)
	base := GrepOptions{Root: root, Pattern: "needle", HeadLimit: 1000}
	cases := []struct {
		name string
		opts func(o *GrepOptions)
	}{
		{"grep_content", func(o *GrepOptions) { o.Mode = ModeContent; o.Context = 1; o.Include = "{ctx,crlf,long,bom}.txt" }},
		{"grep_content_nocontext", func(o *GrepOptions) { o.Mode = ModeContent; o.Include = "{ctx,we:ird name}.txt" }},
		{"grep_files", func(o *GrepOptions) { o.Mode = ModeFilesWithMatches; o.Include = "!many/*" }},
		{"grep_count", func(o *GrepOptions) { o.Mode = ModeCount; o.Include = "*.txt" }},
		{"grep_headlimit", func(o *GrepOptions) { o.Mode = ModeContent; o.HeadLimit = 15; o.Include = "many/*" }},
		{"grep_empty", func(o *GrepOptions) { o.Pattern = "zzz"; o.Include = "*.go" }},
		{"grep_file_root", func(o *GrepOptions) { o.Root = filepath.Join(root, "dir", "file.go"); o.Mode = ModeContent }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			tc.opts(&o)
			res := grepBoth(t, o)
			display := workspace
			if o.Root != root {
				display = func(rel string) string { return "src/dir/" + rel }
			}
			assertGolden(t, tc.name, renderGrep(res, display))
		})
	}
}

func TestFormatGrepBudget(t *testing.T) {
	res := GrepResult{Mode: ModeContent, Pattern: "x", HeadLimit: 5000}
	for i := range 30 {
		f := GrepFile{Path: "f" + itoa(i) + ".txt", Tag: "ABCD"}
		for n := 1; n <= 100; n++ {
			f.Lines = append(f.Lines, GrepLine{N: n, Text: strings.Repeat("x", 40)})
		}
		f.Count = len(f.Lines)
		res.Files = append(res.Files, f)
	}
	text, tags, truncated, notice := FormatGrep(res, func(s string) string { return s })
	lines := strings.Split(text, "\n")
	if !truncated || len(text) > MaxOutputBytes || len(lines) > MaxOutputLines || !utf8.ValidString(text) {
		t.Fatalf("truncated %v, %d bytes, %d lines", truncated, len(text), len(lines))
	}
	if !strings.Contains(notice, "Narrow the pattern") || lines[len(lines)-1] != "["+notice+"]" {
		t.Errorf("notice %q, last line %q", notice, lines[len(lines)-1])
	}
	if body := lines[len(lines)-3]; !strings.HasSuffix(body, strings.Repeat("x", 40)) {
		t.Errorf("cut mid-line: %q", body)
	}
	for p := range tags {
		if !strings.Contains(text, "["+p+"#") {
			t.Errorf("tag for %s whose header was cut", p)
		}
	}
}

func TestFormatGlobGolden(t *testing.T) {
	root := fixture(t)
	for _, tc := range []struct {
		name string
		opts GlobOptions
	}{
		{"glob", GlobOptions{Pattern: "**/*.go"}},
		{"glob_truncated", GlobOptions{Pattern: "many/*.txt", Limit: 4}},
		{"glob_empty", GlobOptions{Pattern: "**/*.rs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Root = root
			res, err := Glob(t.Context(), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			text, truncated, notice := FormatGlob(res, workspace)
			assertGolden(t, tc.name, text+"\n=== truncated: "+boolStr(truncated)+"\n=== notice: "+notice+"\n")
		})
	}
}
