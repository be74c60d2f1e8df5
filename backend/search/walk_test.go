package search

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ignoreTree exercises the ignore-file rules ripgrep and the walker must
// agree on.
func ignoreTree(t *testing.T) string {
	root := fixture(t)
	writeTree(t, root, map[string]string{
		"rules/.gitignore":            "/anchored.txt\ndeep/**\n**/any.txt\nx/**/y.txt\n\\#hash.txt\ntrail.txt   \n*.gen\n!keep.gen\ndironly/\n",
		"rules/anchored.txt":          "",
		"rules/n/anchored.txt":        "",
		"rules/deep/a.txt":            "",
		"rules/n/any.txt":             "",
		"rules/x/p/q/y.txt":           "",
		"rules/x/y.txt":               "",
		"rules/#hash.txt":             "",
		"rules/trail.txt":             "",
		"rules/a.gen":                 "",
		"rules/keep.gen":              "",
		"rules/dironly/f.txt":         "",
		"rules/n/dironly":             "a file, not a dir\n",
		"rules/.ignore":               "*.ign\n!.visible\n!wanted.gen\n",
		"rules/.rgignore":             "!*.ign\n",
		"rules/x.ign":                 "",
		"rules/.visible":              "",
		"rules/wanted.gen":            "",
		"rules/nested/.git":           "gitdir: elsewhere\n",
		"rules/nested/a.gen":          "",
		"rules/nested/sub/.gitignore": "!a.gen\n",
		"rules/nested/sub/a.gen":      "",
		"rules/linked/shared.rules":   "*.lnk\n",
		"rules/linked/sub/x.lnk":      "",
		"rules/linked/sub/y.txt":      "",
	})
	// An ignore file that is a link (into the tree), in a folder below the
	// root: both rg and the walker follow it.
	if err := os.Symlink("../shared.rules", filepath.Join(root, "rules", "linked", "sub", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestWalkMatchesRgFiles compares the walker with rg --files run with the
// flags runRg uses.
func TestWalkMatchesRgFiles(t *testing.T) {
	root := ignoreTree(t)
	rg := rgPath(t)
	for _, include := range []string{"", "*.go", "!*.txt", "rules/**", "*.gen", "*.ign"} {
		var got []string
		var inc *override
		if include != "" {
			inc, _ = parseOverride(include)
		}
		if err := walkFiles(t.Context(), root, walkOptions{include: inc}, func(rel string) error {
			got = append(got, rel)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		args := []string{"--files", "--sort", "path", "--no-config", "--no-require-git", "--no-ignore-global", "--no-ignore-exclude"}
		if include != "" {
			args = append(args, "--glob", include)
		}
		args = append(args, "--glob", "!.git", "--", ".")
		cmd := exec.Command(rg, args...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil && len(out) > 0 {
			t.Fatalf("rg %v: %v", args, err)
		}
		var want []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l != "" {
				want = append(want, normRgPath(l))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("include %q:\nwalker %q\nrg     %q", include, got, want)
		}
	}
}

func TestIgnoreRules(t *testing.T) {
	f := parseIgnoreFile([]byte("\uFEFF*.log\n!keep.log\n/top\nbuild/\nsrc/**\n\\!bang\n"))
	cases := []struct {
		rel   string
		isDir bool
		want  verdict
	}{
		{"a.log", false, ignored},
		{"x/y/a.log", false, ignored},
		{"keep.log", false, whitelist},
		{"top", false, ignored},
		{"x/top", false, noMatch},
		{"build", true, ignored},
		{"build", false, noMatch},
		{"src", true, noMatch},
		{"src/a/b.c", false, ignored},
		{"!bang", false, ignored},
		{"other.txt", false, noMatch},
	}
	for _, tc := range cases {
		if got := f.match(tc.rel, tc.isDir); got != tc.want {
			t.Errorf("match(%q, dir=%v) = %d, want %d", tc.rel, tc.isDir, got, tc.want)
		}
	}
	if _, ok := parseOverride("[z-a"); ok {
		t.Error("invalid include accepted")
	}
	o, _ := parseOverride("*.go")
	if o.match("dir", true) != noMatch || o.match("a.txt", false) != ignored || o.match("a/b.go", false) != whitelist {
		t.Error("override semantics differ from rg -g")
	}
}
