package pathguard

import (
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

func TestWithin(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the table uses POSIX paths; volume handling is covered by filepath.VolumeName")
	}
	cases := []struct {
		root, p   string
		fold      bool
		tail      []string
		exact, ok bool
	}{
		{"/p/proj", "/p/proj", false, []string{}, true, true},
		{"/p/proj", "/p/proj/a/b", false, []string{"a", "b"}, true, true},
		{"/p/proj", "/p/proj_evil", false, nil, false, false},
		{"/p/proj", "/p/proj_evil/x", true, nil, false, false},
		{"/p/proj", "/p/pro", false, nil, false, false},
		{"/p/proj", "/p", false, nil, false, false},
		{"/p/proj", "/q/proj/x", false, nil, false, false},
		{"/p/proj", "/P/Proj/x", false, nil, false, false},
		{"/p/proj", "/P/Proj/X", true, []string{"X"}, false, true},
		{"/", "/etc/passwd", false, []string{"etc", "passwd"}, true, true},
		{"/p/proj", "/p/projx/../proj", false, nil, false, false}, // callers pass clean paths; unclean never matches by accident
	}
	for _, c := range cases {
		tail, exact, ok := within(c.root, c.p, c.fold)
		if ok != c.ok || exact != c.exact || (ok && !slices.Equal(tail, c.tail)) {
			t.Errorf("within(%q, %q, %v) = %q, %v, %v; want %q, %v, %v", c.root, c.p, c.fold, tail, exact, ok, c.tail, c.exact, c.ok)
		}
	}
}

func TestPrefixOf(t *testing.T) {
	p := filepath.Join(string(filepath.Separator), "a", "b", "c")
	if got, want := prefixOf(p, 2), filepath.Join(string(filepath.Separator), "a", "b"); got != want {
		t.Errorf("prefixOf = %q, want %q", got, want)
	}
	if got, want := prefixOf(p, 0), string(filepath.Separator); got != want {
		t.Errorf("prefixOf(0) = %q, want %q", got, want)
	}
}

func TestSwapCase(t *testing.T) {
	for in, want := range map[string]string{"Proj": "pROJ", "123": "123", "Ärger_x": "äRGER_X", "": ""} {
		if got := swapCase(in); got != want {
			t.Errorf("swapCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDetectCaseInsensitive(t *testing.T) {
	dir := t.TempDir()
	got := detectCaseInsensitive(dir)
	switch runtime.GOOS {
	case "darwin", "ios", "windows":
		// Either answer is legitimate there; it must only not panic.
		t.Logf("%s reports case-insensitive = %v", dir, got)
	default:
		if got {
			t.Errorf("detectCaseInsensitive(%s) = true on %s, want false", dir, runtime.GOOS)
		}
	}
}
