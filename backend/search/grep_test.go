package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
)

// TestGrepEngines runs every case through both engines (grepBoth asserts
// they agree) and checks what the result must contain.
func TestGrepEngines(t *testing.T) {
	root := fixture(t)
	all := GrepOptions{Root: root, Pattern: "needle", Mode: ModeFilesWithMatches, HeadLimit: 1000}
	visible := []string{
		"a/x.go", "a-b/x.go", "a.go", "bom.txt", "crlf.txt", "ctx.txt", "dir/file.go", "dir/sibling.go",
		"keep.log", "lonecr.txt", "long.txt",
	}
	for i := range 30 {
		visible = append(visible, "many/f"+string(rune('a'+i/10))+string(rune('0'+i%10))+".txt")
	}
	visible = append(visible, "nonl.txt", "sub/deep/b.go", "sub/rooted.txt", "sub/sub.log", "sub/wanted.tmp", "unicode.txt", "we:ird name.txt")

	with := func(o GrepOptions, f func(*GrepOptions)) GrepOptions { f(&o); return o }
	cases := []struct {
		name  string
		opts  GrepOptions
		check func(t *testing.T, r GrepResult)
	}{
		{"visibility and order", all, func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, visible) {
				t.Errorf("files:\n got %q\nwant %q", got, visible)
			}
		}},
		{"content rows", with(all, func(o *GrepOptions) { o.Mode = ModeContent }), func(t *testing.T, r GrepResult) {
			f := file(t, r, "crlf.txt")
			want := []GrepLine{{N: 1, Text: "first needle"}, {N: 3, Text: "needle end"}}
			if !reflect.DeepEqual(f.Lines, want) || f.Count != 2 {
				t.Errorf("crlf rows = %+v", f)
			}
			crlf, _ := os.ReadFile(filepath.Join(root, "crlf.txt"))
			if f.Tag != hashline.DigestOf(crlf).Tag() {
				t.Errorf("tag %s is not the whole-file tag", f.Tag)
			}
			if l := file(t, r, "bom.txt").Lines[0]; l.Text != "needle at start" {
				t.Errorf("bom row %q", l.Text)
			}
		}},
		{"count", with(all, func(o *GrepOptions) { o.Mode = ModeCount }), func(t *testing.T, r GrepResult) {
			if c := file(t, r, "ctx.txt").Count; c != 4 {
				t.Errorf("ctx.txt count %d", c)
			}
		}},
		{"ignore case", with(all, func(o *GrepOptions) {
			o.Mode = ModeContent
			o.Pattern = "NEEDLE"
			o.IgnoreCase = true
			o.Include = "a.go"
		}), func(t *testing.T, r GrepResult) {
			if f := file(t, r, "a.go"); f.Count != 2 {
				t.Errorf("a.go: %+v", f)
			}
		}},
		{"case sensitive by default", with(all, func(o *GrepOptions) { o.Pattern = "NEEDLE" }), func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, []string{"a.go"}) {
				t.Errorf("got %q", got)
			}
		}},
		{"context and hunks", with(all, func(o *GrepOptions) { o.Mode = ModeContent; o.Context = 1; o.Include = "ctx.txt" }), func(t *testing.T, r GrepResult) {
			var got []string
			for _, l := range file(t, r, "ctx.txt").Lines {
				got = append(got, itoa(l.N)+map[bool]string{true: "-", false: ":"}[l.Context])
			}
			want := []string{"1-", "2:", "3-", "6-", "7:", "8:", "9-", "12-", "13:"}
			if !slices.Equal(got, want) {
				t.Errorf("rows %q want %q", got, want)
			}
		}},
		{"regex without literal", with(all, func(o *GrepOptions) { o.Mode = ModeContent; o.Pattern = `^l\d+$` }), func(t *testing.T, r GrepResult) {
			if f := file(t, r, "ctx.txt"); f.Count != 9 {
				t.Errorf("ctx.txt: %d matches", f.Count)
			}
		}},
		{"dollar before CRLF", with(all, func(o *GrepOptions) { o.Pattern = `end$` }), func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, []string{"crlf.txt"}) {
				t.Errorf("got %q", got)
			}
		}},
		{"caret after BOM", with(all, func(o *GrepOptions) { o.Pattern = `^needle at` }), func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, []string{"bom.txt"}) {
				t.Errorf("got %q", got)
			}
		}},
		{"text anchors are line anchors", with(all, func(o *GrepOptions) { o.Mode = ModeContent; o.Pattern = `\Al\d+\z`; o.Include = "ctx.txt" }), func(t *testing.T, r GrepResult) {
			if f := file(t, r, "ctx.txt"); f.Count != 9 {
				t.Errorf("ctx.txt: %d matches", f.Count)
			}
		}},
		{"dot never matches CR", with(all, func(o *GrepOptions) { o.Pattern = `needle.middle` }), func(t *testing.T, r GrepResult) {
			if len(r.Files) != 0 {
				t.Errorf("got %q", paths(r))
			}
		}},
		{"literal CR matches a lone CR", with(all, func(o *GrepOptions) { o.Pattern = `needle\rmiddle` }), func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, []string{"lonecr.txt"}) {
				t.Errorf("got %q", got)
			}
		}},
		{"unicode literal and ASCII word boundary", with(all, func(o *GrepOptions) { o.Pattern = `ünïcödé needle\b`; o.Mode = ModeContent }), func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, []string{"unicode.txt"}) {
				t.Errorf("got %q", got)
			}
		}},
		{"word boundary is ASCII in both engines", with(all, func(o *GrepOptions) { o.Pattern = `ünïcödé\b` }), func(t *testing.T, r GrepResult) {
			if len(r.Files) != 0 {
				t.Errorf("got %q", paths(r))
			}
		}},
		{"unicode fold: Kelvin sign", with(all, func(o *GrepOptions) { o.Pattern = "kelvin"; o.IgnoreCase = true; o.Mode = ModeContent }), func(t *testing.T, r GrepResult) {
			// "\u212Aelvin" (Kelvin sign) and "Kelvin" both fold to "kelvin".
			if f := file(t, r, "unicode.txt"); f.Count != 2 || f.Lines[0].N != 2 || f.Lines[1].N != 3 {
				t.Errorf("rows %+v", f.Lines)
			}
		}},
		{"Kelvin sign matched by k", with(all, func(o *GrepOptions) { o.Pattern = "kelvin sign"; o.IgnoreCase = true }), func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, []string{"unicode.txt"}) {
				t.Errorf("got %q", got)
			}
		}},
		{"long line clipped", with(all, func(o *GrepOptions) { o.Mode = ModeContent; o.Include = "long.txt" }), func(t *testing.T, r GrepResult) {
			l := file(t, r, "long.txt").Lines[1]
			if !l.Clipped || l.Omitted != 3007-MaxGrepLineRunes || len([]rune(l.Text)) != MaxGrepLineRunes {
				t.Errorf("clip: clipped=%v omitted=%d runes=%d", l.Clipped, l.Omitted, len([]rune(l.Text)))
			}
		}},
		{"include basename glob whitelists a hidden file", with(all, func(o *GrepOptions) { o.Include = "*.go" }), func(t *testing.T, r GrepResult) {
			want := []string{".dot.go", "a/x.go", "a-b/x.go", "a.go", "dir/file.go", "dir/sibling.go", "sub/deep/b.go"}
			if got := paths(r); !slices.Equal(got, want) {
				t.Errorf("got %q want %q", got, want)
			}
		}},
		{"include anchored glob", with(all, func(o *GrepOptions) { o.Include = "sub/**" }), func(t *testing.T, r GrepResult) {
			want := []string{"sub/.gitignore", "sub/deep/b.go", "sub/rooted.txt", "sub/sub.log", "sub/wanted.tmp", "sub/x.tmp"}
			_ = want // sub/.gitignore has no "needle"
			want = []string{"sub/deep/b.go", "sub/rooted.txt", "sub/sub.log", "sub/wanted.tmp", "sub/x.tmp"}
			if got := paths(r); !slices.Equal(got, want) {
				t.Errorf("got %q want %q", got, want)
			}
		}},
		{"include negated", with(all, func(o *GrepOptions) { o.Include = "!*.txt" }), func(t *testing.T, r GrepResult) {
			for _, p := range paths(r) {
				if strings.HasSuffix(p, ".txt") {
					t.Errorf("%s not excluded", p)
				}
			}
		}},
		{"head limit in content mode", with(all, func(o *GrepOptions) { o.Mode = ModeContent; o.HeadLimit = 15; o.Include = "many/*"; o.Context = 3 }), func(t *testing.T, r GrepResult) {
			if !r.Truncated || len(r.Files) != 2 || r.Files[1].Count != 5 {
				t.Fatalf("got %s", dump(r))
			}
			last := r.Files[1].Lines[len(r.Files[1].Lines)-1]
			if last.N != 5 || last.Context {
				t.Errorf("the cut match must not reappear as context: last row %+v", last)
			}
		}},
		{"head limit exactly reached is not truncated", with(all, func(o *GrepOptions) { o.Mode = ModeContent; o.HeadLimit = 10; o.Include = "many/fa0.txt" }), func(t *testing.T, r GrepResult) {
			if r.Truncated || r.Files[0].Count != 10 {
				t.Errorf("got %s", dump(r))
			}
		}},
		{"head limit exactly reached with more files", with(all, func(o *GrepOptions) { o.Mode = ModeContent; o.HeadLimit = 10; o.Include = "many/*" }), func(t *testing.T, r GrepResult) {
			if !r.Truncated || len(r.Files) != 1 {
				t.Errorf("got %s", dump(r))
			}
		}},
		{"head limit in files mode", with(all, func(o *GrepOptions) { o.HeadLimit = 3 }), func(t *testing.T, r GrepResult) {
			if !r.Truncated || !slices.Equal(paths(r), visible[:3]) {
				t.Errorf("got %q", paths(r))
			}
		}},
		{"default head limit", with(all, func(o *GrepOptions) { o.Mode = ModeContent; o.HeadLimit = 0; o.Pattern = "." }), func(t *testing.T, r GrepResult) {
			n := 0
			for _, f := range r.Files {
				n += f.Count
			}
			if !r.Truncated || n != DefaultHeadLimit {
				t.Errorf("matches %d truncated %v", n, r.Truncated)
			}
		}},
		{"empty-match pattern matches every line", with(all, func(o *GrepOptions) { o.Mode = ModeCount; o.Pattern = "x*"; o.Include = "{ctx,nonl,empty}.txt" }), func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, []string{"ctx.txt", "nonl.txt"}) || r.Files[0].Count != 13 {
				t.Errorf("got %s", dump(r))
			}
		}},
		{"no match", with(all, func(o *GrepOptions) { o.Pattern = "zzz-nothing" }), func(t *testing.T, r GrepResult) {
			if len(r.Files) != 0 || r.Truncated {
				t.Errorf("got %s", dump(r))
			}
		}},
		{"named file skips siblings", with(all, func(o *GrepOptions) { o.Root = filepath.Join(root, "dir", "file.go"); o.Mode = ModeContent }), func(t *testing.T, r GrepResult) {
			if got := paths(r); !slices.Equal(got, []string{"file.go"}) || r.Scope != "file.go" {
				t.Errorf("got %q scope %q", got, r.Scope)
			}
		}},
		{"named file filtered by include", with(all, func(o *GrepOptions) { o.Root = filepath.Join(root, "dir", "file.go"); o.Include = "*.txt" }), func(t *testing.T, r GrepResult) {
			if len(r.Files) != 0 {
				t.Errorf("got %q", paths(r))
			}
		}},
		{"named file passes include", with(all, func(o *GrepOptions) { o.Root = filepath.Join(root, "dir", "file.go"); o.Include = "*.go" }), func(t *testing.T, r GrepResult) {
			if len(r.Files) != 1 {
				t.Errorf("got %q", paths(r))
			}
		}},
		{"named hidden file is searched", with(all, func(o *GrepOptions) { o.Root = filepath.Join(root, "dir", ".hidden-named.txt") }), func(t *testing.T, r GrepResult) {
			if len(r.Files) != 1 {
				t.Errorf("got %q", paths(r))
			}
		}},
		{"named binary file is not reported", with(all, func(o *GrepOptions) { o.Root = filepath.Join(root, "bin.dat") }), func(t *testing.T, r GrepResult) {
			if len(r.Files) != 0 {
				t.Errorf("got %q", paths(r))
			}
		}},
		{"subdirectory root honours parent ignore files", with(all, func(o *GrepOptions) { o.Root = filepath.Join(root, "sub") }), func(t *testing.T, r GrepResult) {
			want := []string{"deep/b.go", "rooted.txt", "sub.log", "wanted.tmp"}
			if got := paths(r); !slices.Equal(got, want) {
				t.Errorf("got %q want %q", got, want)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, grepBoth(t, tc.opts))
		})
	}
}

func file(t *testing.T, r GrepResult, path string) GrepFile {
	t.Helper()
	for _, f := range r.Files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("%s not in result %q", path, paths(r))
	return GrepFile{}
}

func TestGrepErrors(t *testing.T) {
	root := fixture(t)
	cases := []struct {
		opts  GrepOptions
		code  errs.Code
		field string
	}{
		{GrepOptions{Root: root, Pattern: "a("}, errs.InvalidArgument, "pattern"},
		{GrepOptions{Root: root, Pattern: `a\nb`}, errs.InvalidArgument, "pattern"},
		{GrepOptions{Root: root, Pattern: "a", Include: "[z-a"}, errs.InvalidArgument, "include"},
		{GrepOptions{Root: root, Pattern: "a", Mode: "lines"}, errs.InvalidArgument, "mode"},
		{GrepOptions{Root: root, Pattern: "a", HeadLimit: -1}, errs.InvalidArgument, "headLimit"},
		{GrepOptions{Root: root, Pattern: "a", Context: -1}, errs.InvalidArgument, "context"},
		{GrepOptions{Root: "relative", Pattern: "a"}, errs.InvalidArgument, "path"},
		{GrepOptions{Root: filepath.Join(root, "missing"), Pattern: "a"}, errs.NotFound, "path"},
	}
	for _, tc := range cases {
		for _, rg := range []string{"-", ""} {
			tc.opts.RgPath = rg
			_, err := Grep(t.Context(), tc.opts)
			e := errs.As(err)
			if e == nil || e.Code != tc.code || e.Details["field"] != tc.field {
				t.Errorf("Grep(%+v) = %v, want %s on %s", tc.opts, err, tc.code, tc.field)
			}
		}
	}
}

func TestGrepFallsBackWhenRgFails(t *testing.T) {
	root := fixture(t)
	bogus := filepath.Join(t.TempDir(), "rg")
	writeTree(t, filepath.Dir(bogus), map[string]string{"rg": "#!/bin/sh\necho '{not json'\nexit 0\n"})
	if err := os.Chmod(bogus, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rg := range []string{bogus, filepath.Join(t.TempDir(), "missing-rg")} {
		r, err := Grep(t.Context(), GrepOptions{Root: root, Pattern: "needle", RgPath: rg, rgPlan: rgAuto})
		if err != nil || r.Engine != EngineBuiltin || len(r.Files) == 0 {
			t.Errorf("RgPath %s: engine %q, %d files, err %v", rg, r.Engine, len(r.Files), err)
		}
	}
}

// With rg installed, the tool runs it only for patterns its builtin
// searcher would match byte by byte; the builtin searcher is the faster
// engine for the rest (builtinFaster). Both give the same result
// (grepBoth).
func TestGrepWithRgInstalledPicksTheFasterEngine(t *testing.T) {
	rg := rgPath(t)
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "func NewReader() {} // 2024-01-02 - x ü9\n"})
	cases := []struct {
		pattern string
		fold    bool
		want    string
	}{
		{"NewReader", false, EngineBuiltin},         // a literal
		{"newreader", true, EngineBuiltin},          // a literal, any case
		{`func \w+Reader\(`, false, EngineBuiltin},  // a regex holding one
		{"x", false, EngineBuiltin},                 // one byte, and nothing else
		{`[0-9]{4}-[0-9]{2}`, false, EngineBuiltin}, // no literal, but ASCII digits to skip to
		{`(Reader|Writer)\(`, false, EngineBuiltin}, // no literal common to the branches: the same
		{`[äöü]\d`, false, EngineRg},                // non-ASCII runes start a match: no skipping them
		{`\pL+\s\pL`, false, EngineRg},              // nor letters of any script
		{`[^a]\(`, false, EngineRg},                 // nearly any byte starts a match
	}
	for _, tc := range cases {
		r, err := Grep(t.Context(), GrepOptions{Root: root, Pattern: tc.pattern, IgnoreCase: tc.fold, Mode: ModeContent, RgPath: rg})
		if err != nil || r.Engine != tc.want || len(r.Files) != 1 {
			t.Errorf("Grep %q (ignore case %v): engine %q, %d files, err %v; want %s and a.go", tc.pattern, tc.fold, r.Engine, len(r.Files), err, tc.want)
		}
	}
}

func TestGrepCancelled(t *testing.T) {
	root := fixture(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, rg := range []string{"-", ""} {
		_, err := Grep(ctx, GrepOptions{Root: root, Pattern: "needle", RgPath: rg, rgPlan: rgAuto})
		if !errs.Is(err, errs.ToolAborted) {
			t.Errorf("RgPath %q: err %v, want TOOL_ABORTED", rg, err)
		}
	}
}

func TestRgArgs(t *testing.T) {
	cases := []struct {
		mode   string
		sorted bool
		want   string
	}{
		{ModeFilesWithMatches, true, `--null --no-heading --with-filename --color never --no-config --no-require-git --no-ignore-global --no-ignore-exclude --regexp (?m:(?-u:\b)foo\r?$) --sort path --files-with-matches --max-filesize 16777216 --debug --glob *.go --glob !.git -- .`},
		{ModeContent, false, `--null --no-heading --with-filename --color never --no-config --no-require-git --no-ignore-global --no-ignore-exclude --regexp (?m:(?-u:\b)foo\r?$) --line-number --max-columns 1 --max-filesize 16777216 --debug --glob *.go --glob !.git -- .`},
		{ModeCount, false, `--null --no-heading --with-filename --color never --no-config --no-require-git --no-ignore-global --no-ignore-exclude --regexp (?m:(?-u:\b)foo\r?$) --count --max-filesize 16777216 --debug --glob *.go --glob !.git -- .`},
	}
	for _, tc := range cases {
		q, err := prepareGrep(GrepOptions{Root: t.TempDir(), Pattern: `\bfoo$`, Include: "*.go", Mode: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(rgArgs(q, tc.sorted), " "); got != tc.want {
			t.Errorf("rg args for %s sorted=%v\n got %s\nwant %s", tc.mode, tc.sorted, got, tc.want)
		}
		q.fs.Close()
	}
}

// TestParseRgText reads rg's --null text output in each mode, odd paths
// included, and refuses what is out of shape.
func TestParseRgText(t *testing.T) {
	warn := `: WARNING: stopped searching binary file after match (found "\0" byte around offset 200008)` + "\n"
	cases := []struct {
		name, mode, out string
		want            []string
		bad             bool
	}{
		{"content groups", ModeContent, "./a.txt\x001:[Omitted long matching line]\n./a.txt\x003:x\n./we:ird\nname\xff\x002:\n", []string{"./a.txt[1 3]", "./we:ird\nname\xff[2]"}, false},
		{"binary warning drops the file", ModeContent, "./l.txt\x001:[Omitted long matching line]\n./l.txt" + warn + "./m\x004:y\n./n.txt\x001:z\n./n.txt" + warn, []string{"./m[4]"}, false},
		{"count", ModeCount, "./a.txt\x002\n./b:c\x0077\n", []string{"./a.txt#2", "./b:c#77"}, false},
		{"files", ModeFilesWithMatches, "./a.txt\x00./b\nc\x00", []string{"./a.txt", "./b\nc"}, false},
		{"empty", ModeContent, "", nil, false},
		{"lines out of order", ModeContent, "./a\x003:x\n./a\x002:x\n", nil, true},
		{"file twice", ModeContent, "./a\x001:x\n./b\x001:x\n./a\x002:x\n", nil, true},
		{"no number", ModeContent, "./a\x00x:y\n", nil, true},
		{"zero line", ModeContent, "./a\x000:y\n", nil, true},
		{"cut record", ModeContent, "./a\x001:y", nil, true},
		{"no NUL", ModeFilesWithMatches, "./a.txt\n", nil, true},
		{"bad count", ModeCount, "./a\x00two\n", nil, true},
		{"a warning for another file", ModeContent, "./a\x001:x\n./b" + warn, nil, true},
	}
	for _, tc := range cases {
		var got []string
		err := parseRgText(strings.NewReader(tc.out), tc.mode, func(r rgHitRec) bool {
			switch tc.mode {
			case ModeContent:
				got = append(got, r.path+fmt.Sprint(r.lines))
			case ModeCount:
				got = append(got, r.path+"#"+itoa(r.count))
			default:
				got = append(got, r.path)
			}
			return false
		})
		if tc.bad {
			if !errors.Is(err, errRgOutput) {
				t.Errorf("%s: err %v, want errRgOutput", tc.name, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}
