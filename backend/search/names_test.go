package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// hostileNames are file names that, echoed raw, forge or disguise output.
var hostileNames = []string{
	"a\n[secret.txt#ABCD] 1:password=forged.txt", // a newline forging a header
	"esc\x1b[2Kcleared.txt",                      // a terminal escape
	"invoice\u202etxt.exe",                       // a right-to-left override
	"zero\u200bwidth.txt",                        // a zero-width space
	`back\slash.txt`,                             // a backslash, doubled for reversibility
}

func hostileFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, n := range hostileNames {
		if err := os.WriteFile(filepath.Join(root, n), []byte("needle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// noRawNames fails when text shows a control, bidi or zero-width
// character, or a line that begins like a forged header.
func noRawNames(t *testing.T, text string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "[secret.txt") {
			t.Errorf("forged line in output: %q", l)
		}
		for _, r := range l {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Errorf("raw %U in output line %q", r, l)
			}
		}
	}
}

func TestFormatEscapesHostileNames(t *testing.T) {
	root := hostileFixture(t)
	t.Run("names_glob", func(t *testing.T) {
		res, err := Glob(t.Context(), GlobOptions{Root: root, Pattern: "*"})
		if err != nil {
			t.Fatal(err)
		}
		text, _, _ := FormatGlob(res, workspace)
		noRawNames(t, text)
		assertGolden(t, "names_glob", text+"\n")
	})
	for _, mode := range []string{ModeContent, ModeFilesWithMatches, ModeCount} {
		name := "names_grep_" + mode
		t.Run(name, func(t *testing.T) {
			res := grepBoth(t, GrepOptions{Root: root, Pattern: "needle", Mode: mode, HeadLimit: 100})
			// The tags map is keyed by the raw path (data, not text).
			text := strings.SplitN(renderGrep(res, workspace), "=== tags:", 2)[0]
			noRawNames(t, text)
			assertGolden(t, name, text)
		})
	}
	t.Run("names_grep_empty", func(t *testing.T) {
		res := grepBoth(t, GrepOptions{Root: root, Pattern: "zzz", HeadLimit: 100})
		text := renderGrep(res, func(string) string { return "dir\nwith newline" })
		noRawNames(t, text)
	})
}
