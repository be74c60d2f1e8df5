package hostcore_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEscapedNamesResolve: names are shown escaped, and the model can pass
// the escaped spelling back; a file whose literal name is that spelling
// wins over the unescaped one.
func TestEscapedNamesResolve(t *testing.T) {
	e := newEnv(t)
	write(t, filepath.Join(e.project, "a\nb.txt"), "line-break\n")
	write(t, filepath.Join(e.project, "rtl\u202etxt.exe"), "bidi\n")
	write(t, filepath.Join(e.project, `lit\nname.txt`), "literal\n")
	write(t, filepath.Join(e.project, "lit\nname.txt"), "unescaped\n")

	glob := e.call(e.session.ID, "Glob", map[string]any{"pattern": "*.txt"})
	for _, want := range []string{`a\nb.txt`, `lit\\nname.txt`, `lit\nname.txt`} {
		if !strings.Contains(glob.Content, want+"\n") && !strings.HasSuffix(glob.Content, want) {
			t.Errorf("Glob does not show %s:\n%s", want, glob.Content)
		}
	}
	if strings.Contains(glob.Content, "a\nb") {
		t.Errorf("Glob shows a raw line break in a name:\n%s", glob.Content)
	}

	for _, tc := range []struct{ path, header, content string }{
		{`a\nb.txt`, `[a\nb.txt#`, "line-break"},           // escaped spelling, unescaped on resolve
		{`rtl\u202etxt.exe`, `[rtl\u202etxt.exe#`, "bidi"}, // same for a bidi override
		{`lit\nname.txt`, `[lit\\nname.txt#`, "literal"},   // the literal name exists: it wins
		{`lit\\nname.txt`, `[lit\\nname.txt#`, "literal"},  // its own escaped spelling
		{"lit\nname.txt", `[lit\nname.txt#`, "unescaped"},  // the raw name still works
	} {
		res := e.call(e.session.ID, "Read", map[string]any{"path": tc.path})
		if !res.OK || !strings.HasPrefix(res.Content, tc.header) || !strings.Contains(res.Content, tc.content) {
			t.Errorf("Read %q = %+v", tc.path, res)
		}
	}
	// Nothing exists either way: taken as given.
	if res := e.call(e.session.ID, "Read", map[string]any{"path": `none\nhere.txt`}); res.OK {
		t.Errorf("Read of a missing escaped name = %+v", res)
	}
}
