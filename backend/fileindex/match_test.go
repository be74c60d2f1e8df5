package fileindex

import (
	"slices"
	"strings"
	"testing"
)

func TestRankOrdersLikeQuickOpen(t *testing.T) {
	tests := []struct {
		name  string
		query string
		files []string
		want  []string // the head of the ranking, best first
	}{
		{
			name:  "a base-name match beats a deep subsequence",
			query: "fsu",
			files: []string{
				"frontend/src/features/sub/utils.ts",
				"frontend/src/features/composer/FileSuggestions.tsx",
				"frontend/src/lib/fuzzy_search_util.ts",
				"backend/fsutil/walk.go",
			},
			want: []string{"frontend/src/features/composer/FileSuggestions.tsx"},
		},
		{
			name:  "segment starts beat letters inside a word",
			query: "hc",
			files: []string{"backend/ghost/pacman.go", "backend/hostcore/execute.go"},
			want:  []string{"backend/hostcore/execute.go", "backend/ghost/pacman.go"},
		},
		{
			name:  "a consecutive run beats scattered letters",
			query: "exec",
			files: []string{"e/x/e/c.go", "backend/hostcore/execute.go"},
			want:  []string{"backend/hostcore/execute.go", "e/x/e/c.go"},
		},
		{
			name:  "equal scores: the shorter path, then path order",
			query: "main",
			files: []string{"b/main.go", "a/main.go", "main.go"},
			want:  []string{"main.go", "a/main.go", "b/main.go"},
		},
		{
			name:  "camelCase humps count as word starts",
			query: "ws",
			files: []string{"src/news.ts", "src/WorkspaceSettings.tsx"},
			want:  []string{"src/WorkspaceSettings.tsx", "src/news.ts"},
		},
		{
			name:  "case does not matter for matching",
			query: "README",
			files: []string{"docs/readme.md"},
			want:  []string{"docs/readme.md"},
		},
		{
			name:  "a slash in the query matches a folder boundary",
			query: "src/log",
			files: []string{"lib/srclog.go", "src/login.ts", "srcs/x/log.go"},
			want:  []string{"src/login.ts"},
		},
		{
			name:  "no match lists nothing",
			query: "zzz",
			files: []string{"a.go", "b/c.go"},
			want:  []string{},
		},
		{
			name:  "an empty query lists shortest paths first",
			query: " ",
			files: []string{"a/b/c.go", "z.go", "a/b.go"},
			want:  []string{"z.go", "a/b.go", "a/b/c.go"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rankAll(tt.files, tt.query, 50)
			if len(got) < len(tt.want) || !slices.Equal(got[:len(tt.want)], tt.want) {
				t.Errorf("rank(%q) = %q; want it to start with %q", tt.query, got, tt.want)
			}
			if len(tt.want) == 0 && len(got) != 0 {
				t.Errorf("rank(%q) = %q; want nothing", tt.query, got)
			}
		})
	}
}

func TestRankKeepsTheBestWithinTheLimit(t *testing.T) {
	var files []string
	for _, d := range []string{"x", "yy", "zzz"} {
		for _, f := range []string{"a.go", "ab.go", "abc.go"} {
			files = append(files, d+"/"+f)
		}
	}
	all, matched := rankAll(files, "a", len(files)), len(files)
	if matched != len(files) || len(all) != len(files) {
		t.Fatalf("matched %d of %d, listed %d", matched, len(files), len(all))
	}
	for limit := 1; limit <= len(files); limit++ {
		r := rank(list{files, folds(files)}, nil, "a", limit)
		got, n := r.top, len(r.matched)
		if n != len(files) || !slices.Equal(got, all[:limit]) {
			t.Errorf("limit %d = %q (matched %d); want %q", limit, got, n, all[:limit])
		}
	}
}

func rankAll(files []string, query string, limit int) []string {
	return rank(list{files, folds(files)}, nil, fold(strings.TrimSpace(query)), limit).top
}

func folds(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = fold(f)
	}
	return out
}

// subsequence is the plain definition the matcher must agree with.
func subsequence(q, p string) bool {
	for i := 0; i < len(p) && len(q) > 0; i++ {
		if lower(p[i]) == lower(q[0]) {
			q = q[1:]
		}
	}
	return q == ""
}

func FuzzScore(f *testing.F) {
	for _, s := range [][2]string{{"fsu", "frontend/src/features/composer/FileSuggestions.tsx"}, {"", "a"}, {"aa", "a/a"}, {"É", "é/É"}, {"a/", "a//b"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, q, p string) {
		m := newMatcher(fold(q))
		s, ok := m.score(p, fold(p))
		if want := subsequence(q, p); ok != want {
			t.Fatalf("score(%q, %q) matched = %v; want %v", q, p, ok, want)
		}
		if ok && len(m.q) > 0 && s < len(m.q)*(scoreMatch+gapStart)-len(p) {
			t.Fatalf("score(%q, %q) = %d: below any alignment's floor", q, p, s)
		}
	})
}

func TestRankSplitBetweenCoresEqualsOnePass(t *testing.T) {
	files := syntheticTree(3 * parallelFrom)
	l := list{files, folds(files)}
	for _, q := range []string{"f", "fsu", "src/comp", "zzzz"} {
		split := rank(l, nil, q, 50)
		top, matched := rankRange(l, nil, q, 50, 0, len(files))
		if !slices.Equal(split.top, paths(top)) || !slices.Equal(split.matched, matched) {
			t.Errorf("%q: split ranking %q (%d matched) != one pass %q (%d)", q, split.top, len(split.matched), paths(top), len(matched))
		}
		// A keystroke that extends q ranks only q's matches, with the same result.
		narrowed, whole := rank(l, split.matched, q+"s", 50), rank(l, nil, q+"s", 50)
		if !slices.Equal(narrowed.top, whole.top) || !slices.Equal(narrowed.matched, whole.matched) {
			t.Errorf("%q: narrowed ranking %q != whole %q", q+"s", narrowed.top, whole.top)
		}
	}
}
