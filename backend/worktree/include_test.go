package worktree

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorktreeIncludeCopiesIgnoredFilesWithoutFollowingLinks(t *testing.T) {
	unixOnly(t)
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret.txt"), "TOP SECRET\n")
	write(t, filepath.Join(outside, "nested", "deep.local"), "TOP SECRET\n")
	dstOutside := t.TempDir()

	proj := newRepo(t, map[string]string{
		".gitignore": ".env\nsecrets/\n*.local\nlinkedfile\nlinkeddir\nnode_modules/\nbig.bin\n**/.env\n",
		".worktreeinclude": "# comment\n.env\nsecrets\n**/*.local\nlinkedfile\nlinkeddir/**\n" +
			"!secrets/skip.txt\nbig.bin\n**/.env\n{bad,pattern}\n",
		"src/main.txt": "code\n",
	})
	// A tracked link in HEAD that the working copy later turns into a real
	// folder: the worktree gets the link, and nothing may be written through it.
	if err := os.Symlink(dstOutside, filepath.Join(proj, "dst")); err != nil {
		t.Fatal(err)
	}
	commitAll(t, proj, "add dst link")
	if err := os.Remove(filepath.Join(proj, "dst")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(proj, "dst", ".env"), "through the link\n")

	write(t, filepath.Join(proj, ".env"), "KEY=1\n")
	write(t, filepath.Join(proj, "secrets", "a.txt"), "a\n")
	write(t, filepath.Join(proj, "secrets", "deep", "b.txt"), "b\n")
	write(t, filepath.Join(proj, "secrets", "skip.txt"), "skip\n")
	write(t, filepath.Join(proj, "src", "conf.local"), "local\n")
	write(t, filepath.Join(proj, "node_modules", "x", "index.js"), "not included\n")
	write(t, filepath.Join(proj, "big.bin"), strings.Repeat("x", 2048))
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(proj, "linkedfile")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(proj, "linkeddir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "nested", "deep.local"), filepath.Join(proj, "src", "evil.local")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(proj, ".env"), 0o600); err != nil {
		t.Fatal(err)
	}

	m := newManager(t)
	m.SetIncludeLimits(IncludeLimits{MaxFileSize: 1024})
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{
		".env": "KEY=1\n", "secrets/a.txt": "a\n", "secrets/deep/b.txt": "b\n", "src/conf.local": "local\n",
	} {
		if got := read(t, filepath.Join(c.Dir, filepath.FromSlash(rel))); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	if fi, err := os.Stat(filepath.Join(c.Dir, ".env")); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Errorf(".env mode = %v, %v; want owner-only kept", fi.Mode(), err)
	}
	for _, rel := range []string{"secrets/skip.txt", "node_modules", "big.bin", "linkedfile", "linkeddir", "src/evil.local"} {
		if exists(filepath.Join(c.Dir, filepath.FromSlash(rel))) {
			t.Errorf("%s should not have been copied", rel)
		}
	}
	if entries, _ := os.ReadDir(dstOutside); len(entries) != 0 {
		t.Errorf("wrote through the worktree's link: %v", entries)
	}
	// no copied file carries the outside content
	_ = filepath.WalkDir(c.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.Contains(read(t, p), "TOP SECRET") {
			t.Errorf("%s holds content from outside the project", p)
		}
		return nil
	})
	reasons := map[string]string{}
	for _, s := range c.Included.Skipped {
		reasons[s.Path] = s.Reason
	}
	for _, want := range []string{"linkedfile", "src/evil.local", "big.bin", "{bad,pattern}", "dst/.env"} {
		if reasons[want] == "" {
			t.Errorf("%s not reported as skipped; report = %+v", want, c.Included.Skipped)
		}
	}
	if len(c.Included.Copied) != 4 {
		t.Errorf("copied = %v, want 4 files", c.Included.Copied)
	}
}

func TestWorktreeIncludeFileItselfALink(t *testing.T) {
	unixOnly(t)
	outside := t.TempDir()
	write(t, filepath.Join(outside, "list"), ".env\n")
	proj := newRepo(t, map[string]string{".gitignore": ".env\n.worktreeinclude\n"})
	write(t, filepath.Join(proj, ".env"), "x\n")
	if err := os.Symlink(filepath.Join(outside, "list"), filepath.Join(proj, ".worktreeinclude")); err != nil {
		t.Fatal(err)
	}
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(c.Dir, ".env")) || len(c.Included.Skipped) != 1 {
		t.Errorf("a linked .worktreeinclude was followed: %+v", c.Included)
	}
}

func TestIncludePatternMatching(t *testing.T) {
	var rep IncludeReport
	ps := parseIncludes("/.env\nconfig/\n**/*.pem\n!config/public/**\n", DefaultIncludeLimits(), &rep)
	for rel, want := range map[string]bool{
		".env": true, "a/.env": false, "config/x.json": true, "config/public/y": false,
		"certs/a.pem": true, "a/b/c.pem": true, "c.pem": true, "other": false,
	} {
		if got := ps.matches(rel); got != want {
			t.Errorf("matches(%q) = %v, want %v", rel, got, want)
		}
	}
	if len(rep.Skipped) != 0 {
		t.Errorf("skipped = %+v", rep.Skipped)
	}
}
