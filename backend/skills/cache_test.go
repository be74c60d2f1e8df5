package skills_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/skills"
)

// countingCache is a Cache whose loads are counted.
func countingCache() (*skills.Cache, *int) {
	n := 0
	return skills.NewCacheOver(func(ctx context.Context, src skills.Sources) (skills.Set, error) {
		n++
		return skills.Load(ctx, src)
	}), &n
}

// age sets every file and folder under dirs an hour back, as files are
// that were not touched in this clock tick.
func age(t *testing.T, dirs ...string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(p, old, old)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// described lists the skills of set with their descriptions.
func described(set skills.Set) []string {
	var out []string
	for _, k := range set.Skills {
		out = append(out, k.Name+": "+k.Description)
	}
	return out
}

func TestCacheReusesAnUnchangedCatalog(t *testing.T) {
	tr := newTree(t)
	write(t, filepath.Join(tr.home, ".claude", "skills", "pdf", "SKILL.md"), skillMD("pdf", "Fill PDF forms."))
	write(t, filepath.Join(tr.data, "skills", "notes.md"), skillMD("notes", "Keep notes."))
	write(t, filepath.Join(tr.project, ".agents", "skills", "broken", "SKILL.md"), "no front matter\n")
	age(t, tr.data, tr.home, tr.project)
	c, loads := countingCache()
	want, err := skills.Load(t.Context(), tr.sources(true))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		got, err := c.Load(t.Context(), tr.sources(true))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("load %d = %+v, %v; want %+v", i, got, err, want)
		}
		got.Skills[0].Name = "changed by a caller" // the cached Set is not the caller's
	}
	if *loads != 1 {
		t.Fatalf("an unchanged catalog was read %d times, want 1", *loads)
	}
	// Other sources are cached apart.
	if got, _ := c.Load(t.Context(), tr.sources(false)); len(got.Skills) != len(want.Skills)-1 || *loads != 2 {
		t.Fatalf("without visualize: %v after %d loads", described(got), *loads)
	}
}

// Every change Load would see is seen on the next use, with one read.
func TestCachePicksUpChanges(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, tr tree)
		want   []string
	}{
		{"SKILL.md edited", func(t *testing.T, tr tree) {
			write(t, filepath.Join(tr.home, ".claude", "skills", "pdf", "SKILL.md"), skillMD("pdf", "Fill and sign PDF forms."))
		}, []string{"pdf: Fill and sign PDF forms.", "notes: Keep notes."}},
		{"SKILL.md edited, same size", func(t *testing.T, tr tree) {
			write(t, filepath.Join(tr.home, ".claude", "skills", "pdf", "SKILL.md"), skillMD("pdf", "Fill PDF FORMS."))
		}, []string{"pdf: Fill PDF FORMS.", "notes: Keep notes."}},
		{"single-file skill edited", func(t *testing.T, tr tree) {
			write(t, filepath.Join(tr.data, "skills", "notes.md"), skillMD("notes", "Keep short notes."))
		}, []string{"notes: Keep short notes.", "pdf: Fill PDF forms."}},
		{"skill added in a new source folder", func(t *testing.T, tr tree) {
			write(t, filepath.Join(tr.project, ".claude", "skills", "deploy", "SKILL.md"), skillMD("deploy", "Deploy."))
		}, []string{"notes: Keep notes.", "pdf: Fill PDF forms.", "deploy: Deploy."}},
		{"SKILL.md added to a folder without one", func(t *testing.T, tr tree) {
			write(t, filepath.Join(tr.project, ".agents", "skills", "todo", "SKILL.md"), skillMD("todo", "Track todos."))
		}, []string{"notes: Keep notes.", "pdf: Fill PDF forms.", "todo: Track todos."}},
		{"skill removed", func(t *testing.T, tr tree) {
			if err := os.RemoveAll(filepath.Join(tr.home, ".claude", "skills", "pdf")); err != nil {
				t.Fatal(err)
			}
		}, []string{"notes: Keep notes."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTree(t)
			write(t, filepath.Join(tr.home, ".claude", "skills", "pdf", "SKILL.md"), skillMD("pdf", "Fill PDF forms."))
			write(t, filepath.Join(tr.data, "skills", "notes.md"), skillMD("notes", "Keep notes."))
			if err := os.MkdirAll(filepath.Join(tr.project, ".agents", "skills", "todo"), 0o755); err != nil {
				t.Fatal(err)
			}
			age(t, tr.data, tr.home, tr.project)
			c, loads := countingCache()
			for range 2 {
				if _, err := c.Load(t.Context(), tr.sources(false)); err != nil {
					t.Fatal(err)
				}
			}
			tt.change(t, tr)
			got, err := c.Load(t.Context(), tr.sources(false))
			if err != nil {
				t.Fatal(err)
			}
			if *loads != 2 || !sameItems(described(got), tt.want) {
				t.Fatalf("after the change: %v (%d loads), want %v (2 loads)", described(got), *loads, tt.want)
			}
			direct, _ := skills.Load(t.Context(), tr.sources(false))
			if !reflect.DeepEqual(got, direct) {
				t.Fatalf("cached %+v, Load %+v", got, direct)
			}
		})
	}
}

// A file changed in this clock tick proves nothing by its time: the
// catalog is read again until its files are older than the window.
func TestCacheRereadsRecentFiles(t *testing.T) {
	tr := newTree(t)
	write(t, filepath.Join(tr.home, ".agents", "skills", "pdf", "SKILL.md"), skillMD("pdf", "Fill PDF forms."))
	c, loads := countingCache()
	for range 2 {
		if _, err := c.Load(t.Context(), tr.sources(false)); err != nil {
			t.Fatal(err)
		}
	}
	if *loads != 2 {
		t.Fatalf("files written just now: %d loads, want 2", *loads)
	}
	age(t, tr.home)
	for range 2 {
		if _, err := c.Load(t.Context(), tr.sources(false)); err != nil {
			t.Fatal(err)
		}
	}
	if *loads != 3 {
		t.Fatalf("once aged: %d loads, want 3", *loads)
	}
}

func sameItems(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// BenchmarkCatalog compares reading 64 skills with revalidating them.
func BenchmarkCatalog(b *testing.B) {
	base := b.TempDir()
	src := skills.Sources{Home: filepath.Join(base, "home")}
	for i := range skills.MaxSkills {
		dir := filepath.Join(src.Home, ".agents", "skills", fmt.Sprintf("skill-%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		body := skillMD(fmt.Sprintf("skill-%02d", i), "Does one thing well.") + strings.Repeat("An instruction line.\n", 200)
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	_ = filepath.WalkDir(base, func(p string, _ fs.DirEntry, err error) error { return os.Chtimes(p, old, old) })
	b.Run("Load", func(b *testing.B) {
		for b.Loop() {
			if _, err := skills.Load(b.Context(), src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Cache", func(b *testing.B) {
		c := skills.NewCache()
		for b.Loop() {
			if _, err := c.Load(b.Context(), src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
