package checkpoint

import (
	"context"
	"crypto/sha1"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// newTestShadow is a shadow repository over a fresh workspace.
func newTestShadow(t *testing.T) *shadow {
	t.Helper()
	g, err := worktree.NewGit(filepath.Join(t.TempDir(), "hooks"))
	if err != nil {
		t.Fatal(err)
	}
	s := &shadow{git: g, workspace: t.TempDir(), dir: filepath.Join(t.TempDir(), "shadow")}
	if err := s.ensure(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	return s
}

// gitIn runs git in the shadow and fails the test on an error.
func gitIn(t *testing.T, s *shadow, stdin string, args ...string) string {
	t.Helper()
	out, err := s.run(t.Context(), strings.NewReader(stdin), args...)
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(out)
}

// TestWriteTreeMatchesGit: the in-process tree of an index is the one
// `git write-tree` writes for it, and every tree object it needs is in the
// shadow before git writes any.
func TestWriteTreeMatchesGit(t *testing.T) {
	blob := "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"            // the empty blob, stored by the fixture
	longPath := strings.Repeat("long-folder-name/", 260) + "file" // > 0xfff bytes: the flags cannot hold its length
	for _, tc := range []struct {
		name  string
		files map[string]string // path → content ("->target" makes a link, "x:" an executable)
		info  []string          // --cacheinfo entries: mode,blob,path
	}{
		{name: "empty index"},
		{name: "flat", files: map[string]string{"a": "1", "b.txt": "2", "c": "3"}},
		{name: "order of a folder among its prefixes", files: map[string]string{
			"a.txt": "2", "a-b": "3", "a0": "4", "a/b": "5", "a/c/d": "6", "ab/c": "7", "a b": "8", "A": "9",
		}},
		{name: "deep and wide", files: func() map[string]string {
			m := map[string]string{}
			for i := range 300 {
				m[filepath.Join("d"+strings.Repeat("x", i%7), "e"+string(rune('a'+i%26)), "f"+strings.Repeat("y", i%5)+".go")] = strings.Repeat("z", i)
			}
			return m
		}()},
		{name: "modes", files: map[string]string{"run.sh": "x:#!/bin/sh\n", "link": "->run.sh", "dir/link2": "->../nowhere", "plain": "p"}},
		{name: "names git quotes elsewhere", files: map[string]string{"sp ace/ta\tb": "1", "ünï/cödé.txt": "2", "q\"uote": "3", "back\\slash": "4"}},
		{name: "a nested repository and a path too long for the flags", files: map[string]string{"x": "1"},
			info: []string{"160000," + strings.Repeat("1", 40) + ",vendor/sub", "100644," + blob + "," + longPath}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestShadow(t)
			gitIn(t, s, "", "hash-object", "-w", "--stdin")
			var paths []string
			for rel, content := range tc.files {
				p := filepath.Join(s.workspace, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				var err error
				switch {
				case strings.HasPrefix(content, "->"):
					err = os.Symlink(content[2:], p)
				case strings.HasPrefix(content, "x:"):
					err = os.WriteFile(p, []byte(content[2:]), 0o755)
				default:
					err = os.WriteFile(p, []byte(content), 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
				paths = append(paths, filepath.ToSlash(rel))
			}
			if len(paths) > 0 {
				gitIn(t, s, strings.Join(paths, "\x00")+"\x00", updateArgs()...)
			}
			for _, ci := range tc.info {
				gitIn(t, s, "", "update-index", "--add", "--cacheinfo", ci)
			}
			ours, err := s.writeTree(t.Context())
			if err != nil {
				t.Fatalf("writeTree: %v", err)
			}
			// Every tree is readable before git writes one itself.
			gitIn(t, s, "", "ls-tree", "-r", "-t", ours)
			if theirs := gitIn(t, s, "", "write-tree"); ours != theirs {
				t.Errorf("writeTree = %s, git write-tree = %s", ours, theirs)
			}
		})
	}
}

// TestWriteTreeLeavesOtherIndexesToGit: what the parser does not read is
// said, so that capture asks git.
func TestWriteTreeLeavesOtherIndexesToGit(t *testing.T) {
	for _, tc := range []struct {
		name string
		prep func(t *testing.T, s *shadow)
	}{
		{"version 4", func(t *testing.T, s *shadow) { gitIn(t, s, "", "update-index", "--index-version", "4") }},
		{"skip-worktree (an extended flag)", func(t *testing.T, s *shadow) { gitIn(t, s, "", "update-index", "--skip-worktree", "f") }},
		{"a damaged checksum", func(t *testing.T, s *shadow) {
			b, err := os.ReadFile(s.indexFile())
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)-1] ^= 1
			if err := os.WriteFile(s.indexFile(), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestShadow(t)
			if err := os.WriteFile(filepath.Join(s.workspace, "f"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			gitIn(t, s, "f\x00", updateArgs()...)
			tc.prep(t, s)
			if _, err := s.writeTree(t.Context()); !errors.Is(err, errIndexUnhandled) {
				t.Errorf("writeTree err = %v, want errIndexUnhandled", err)
			}
		})
	}
}

// TestCaptureFallsBackToGitWriteTree: a snapshot of an index the parser
// leaves to git still records the right tree.
func TestCaptureFallsBackToGitWriteTree(t *testing.T) {
	s := newTestShadow(t)
	if err := os.WriteFile(filepath.Join(s.workspace, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.capture(t.Context(), 1<<20); err != nil {
		t.Fatal(err)
	}
	gitIn(t, s, "", "update-index", "--index-version", "4")
	if err := os.WriteFile(filepath.Join(s.workspace, "g"), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, changed, err := s.capture(t.Context(), 1<<20)
	if err != nil || changed != 1 {
		t.Fatalf("capture = %s, %d, %v", tree, changed, err)
	}
	if got := gitIn(t, s, "", "ls-tree", "--name-only", tree); got != "f\ng" {
		t.Errorf("tree lists %q, want f and g", got)
	}
}

func TestWriteTreeStopsAtTheCap(t *testing.T) {
	s := newTestShadow(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.writeTree(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("writeTree after the cap = %v, want context.Canceled", err)
	}
}

// FuzzParseIndex: any bytes under a valid checksum are either refused or
// read as entries a tree can hold (sorted, canonical modes, clean paths).
func FuzzParseIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"))
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01" + strings.Repeat("\x00", 24) + "\x00\x00\x81\xa4" +
		strings.Repeat("\x00", 32) + "\x00\x01a\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, body []byte) {
		sum := sha1.Sum(body)
		entries, err := parseIndex(append(body, sum[:]...))
		if err != nil {
			if !errors.Is(err, errIndexUnhandled) {
				t.Fatalf("error %v is not errIndexUnhandled", err)
			}
			return
		}
		for i, e := range entries {
			if !validIndexPath(e.path) || !validIndexMode(e.mode) || (i > 0 && entries[i-1].path >= e.path) {
				t.Fatalf("entry %d %+v accepted", i, e)
			}
		}
	})
}
