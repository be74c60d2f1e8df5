package search

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// containTree is a search root with a folder "sub" and, outside it, a
// folder whose files carry the marker in their names and contents.
func containTree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "ws"), filepath.Join(base, "out")
	writeTree(t, root, map[string]string{"sub/in.txt": "needle inside\nplain\n", "top.txt": "needle top\n"})
	writeTree(t, outside, map[string]string{"in.txt": "needle OUTSIDE\nneedle OUTSIDE\n", "OUTSIDE.txt": "needle OUTSIDE\n"})
	return root, outside
}

func swapToLink(t *testing.T, dir, target string) {
	t.Helper()
	if err := os.Rename(dir, dir+".real"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, dir); err != nil {
		t.Fatal(err)
	}
}

// TestRgHitsAreCheckedThroughTheRoot: a hit rg reported for a file that is
// now behind a link (or was never inside) is dropped, and lines the pattern
// no longer matches in the file shown are dropped too.
func TestRgHitsAreCheckedThroughTheRoot(t *testing.T) {
	root, outside := containTree(t)
	q, err := prepareGrep(GrepOptions{Root: root, Pattern: "needle", Mode: ModeContent})
	if err != nil {
		t.Fatal(err)
	}
	defer q.fs.Close()
	if data, lines := q.checkHit("sub/in.txt", []int{1, 2}); string(data) != "needle inside\nplain\n" || !slices.Equal(lines, []int{1}) {
		t.Errorf("inside hit = %q, %v; want its content and line 1 only", data, lines)
	}
	swapToLink(t, filepath.Join(root, "sub"), outside)
	for _, rel := range []string{"sub/in.txt", "sub/OUTSIDE.txt", "../out/in.txt"} {
		if data, lines := q.checkHit(rel, []int{1}); data != nil || lines != nil {
			t.Errorf("checkHit(%s) through a swapped link = %q, %v; want nothing", rel, data, lines)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "in.txt"), filepath.Join(root, "top-link.txt")); err != nil {
		t.Fatal(err)
	}
	if data, _ := q.checkHit("top-link.txt", []int{1}); data != nil {
		t.Errorf("a file link was read: %q", data)
	}
}

// TestSearchRootSwappedForALink: a root the caller opened is searched
// through its handle; a root name that is a link (swapped in after the
// caller's check) is refused, not followed.
func TestSearchRootSwappedForALink(t *testing.T) {
	root, outside := containTree(t)
	base, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	swapToLink(t, filepath.Join(root, "sub"), outside)
	for _, rg := range []string{"-", ""} {
		_, err := Grep(t.Context(), GrepOptions{Root: filepath.Join(root, "sub"), Pattern: "needle", RgPath: rg, rgPlan: rgAuto, Within: Within{Base: base, Name: "sub"}})
		if err == nil || !strings.Contains(err.Error(), "changed") {
			t.Errorf("rg=%q Grep of a swapped root = %v, want a changed-root error", rg, err)
		}
	}
	if _, err := Glob(t.Context(), GlobOptions{Root: filepath.Join(root, "sub"), Pattern: "**", Within: Within{Base: base, Name: "sub"}}); err == nil {
		t.Error("Glob of a swapped root succeeded")
	}
}

// TestWalkNeverEntersASwappedFolder: a folder listed as a folder but a link
// by the time it is opened is skipped; Skip leaves folders out silently.
func TestWalkNeverEntersASwappedFolder(t *testing.T) {
	root, outside := containTree(t)
	top, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	dir := newDirRef(top)
	dir.acquire() // keep top open: the caller owns it
	swapToLink(t, filepath.Join(root, "sub"), outside)
	var got []string
	err = walkChild(t.Context(), dir, "sub", filepath.Join(root, "sub"), "sub", nil, walkOptions{}, func(f walkFile) error {
		got = append(got, f.rel)
		return nil
	})
	if err != nil || len(got) != 0 {
		t.Errorf("walkChild through a link = %v, %v; want nothing", got, err)
	}
	if err := os.Remove(filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "sub.real"), filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	got = nil
	skip := func(abs string) bool { return abs == filepath.Join(root, "sub") }
	if err := walkTree(t.Context(), top, root, walkOptions{skip: skip}, func(f walkFile) error {
		got = append(got, f.rel)
		return nil
	}); err != nil || !slices.Equal(got, []string{"top.txt"}) {
		t.Errorf("walk with sub skipped = %v, %v", got, err)
	}
}
