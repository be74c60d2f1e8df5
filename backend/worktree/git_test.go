package worktree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// TestHostileRepositoryAndEnvironment: hooks, fsmonitor, textconv, external
// diff and environment-injected configuration must never run, and GIT_DIR /
// GIT_WORK_TREE must never redirect the host's git.
func TestHostileRepositoryAndEnvironment(t *testing.T) {
	unixOnly(t)
	proj := newRepo(t, map[string]string{
		"a.txt":          "one\n",
		".gitattributes": "*.txt diff=evil\n*.dat filter=envfilter\n*.md filter=globalfilter\n*.cfg filter=paramfilter\n",
		"x.dat":          "dat\n", "x.md": "md\n", "x.cfg": "cfg\n",
	})
	marker := filepath.Join(t.TempDir(), "MARKER")
	script := filepath.Join(t.TempDir(), "evil.sh")
	write(t, script, "#!/bin/sh\necho \"$0 $*\" >> '"+marker+"'\ncat\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(proj, ".git", "hooks")
	for _, h := range []string{"post-checkout", "post-merge", "pre-commit", "commit-msg", "pre-merge-commit",
		"prepare-commit-msg", "post-commit", "reference-transaction", "post-index-change", "post-rewrite"} {
		write(t, filepath.Join(hooks, h), "#!/bin/sh\necho hook "+h+" >> '"+marker+"'\n")
		if err := os.Chmod(filepath.Join(hooks, h), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitT(t, proj, "config", "core.fsmonitor", script)
	gitT(t, proj, "config", "diff.evil.textconv", script)
	gitT(t, proj, "config", "diff.external", script)

	// A second repository the environment tries to redirect git to.
	other := newRepo(t, map[string]string{"o.txt": "other\n"})
	otherHead := gitT(t, other, "rev-parse", "HEAD")
	globalCfg := filepath.Join(t.TempDir(), "gitconfig")
	write(t, globalCfg, "[filter \"globalfilter\"]\n\tsmudge = "+script+"\n\tclean = "+script+
		"\n[core]\n\tfsmonitor = "+script+"\n\thooksPath = "+hooks+"\n")

	m := newManager(t)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(other, ".git", "index"))
	t.Setenv("GIT_CONFIG_GLOBAL", globalCfg)
	t.Setenv("GIT_CONFIG_SYSTEM", globalCfg)
	t.Setenv("GIT_CONFIG_COUNT", "3")
	t.Setenv("GIT_CONFIG_KEY_0", "filter.envfilter.smudge")
	t.Setenv("GIT_CONFIG_VALUE_0", script)
	t.Setenv("GIT_CONFIG_KEY_1", "core.hooksPath")
	t.Setenv("GIT_CONFIG_VALUE_1", hooks)
	t.Setenv("GIT_CONFIG_KEY_2", "filter.envfilter.clean")
	t.Setenv("GIT_CONFIG_VALUE_2", script)
	t.Setenv("GIT_CONFIG_PARAMETERS", "'filter.paramfilter.smudge'='"+script+"' 'core.fsmonitor'='"+script+"'")
	t.Setenv("GIT_EXTERNAL_DIFF", script)
	t.Setenv("GIT_PAGER", script)
	t.Setenv("GIT_EXEC_PATH", t.TempDir())
	t.Setenv("GIT_SSH_COMMAND", script)
	t.Setenv("GIT_ASKPASS", script)

	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	// the agent commits through the host's git (hooks would fire otherwise)
	write(t, filepath.Join(c.Dir, "a.txt"), "agent\n")
	g := m.Git()
	if _, err := g.Run(t.Context(), c.Dir, "add", "-A"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Run(t.Context(), c.Dir, "-c", "user.name=A", "-c", "user.email=a@b", "commit", "-q", "-m", "agent"); err != nil {
		t.Fatal(err)
	}
	// the project moves so the merge needs a sync merge commit too
	if _, err := g.Run(t.Context(), proj, "-c", "user.name=U", "-c", "user.email=u@b", "commit", "-q", "--allow-empty", "-m", "user"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Run(t.Context(), c.Dir, "status", "--porcelain"); err != nil {
		t.Fatal(err)
	}
	pv, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pv.Diff, "+agent") {
		t.Errorf("diff went through a helper: %q", pv.Diff)
	}
	res, err := m.Merge(t.Context(), proj, sessA, pv.Token)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Synced || !res.FastForwarded {
		t.Errorf("merge = %+v", res)
	}
	if err := m.Remove(t.Context(), proj, sessA); err != nil {
		t.Fatal(err)
	}

	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("a hook, fsmonitor, filter or diff helper ran:\n%s", b)
	}
	// nothing happened in the other repository
	if got := gitT(t, other, "rev-parse", "HEAD"); got != otherHead {
		t.Errorf("the redirected repository moved")
	}
	if out := gitT(t, other, "branch", "--list"); strings.Contains(out, "pi-desktop") {
		t.Errorf("the redirected repository got a session branch: %s", out)
	}
	if out := gitT(t, other, "worktree", "list"); strings.Count(out, "\n") != 0 {
		t.Errorf("the redirected repository got a worktree: %s", out)
	}
	if got := read(t, filepath.Join(proj, "a.txt")); got != "agent\n" {
		t.Errorf("project a.txt = %q", got)
	}
}

func TestScrubEnv(t *testing.T) {
	in := []string{"PATH=/bin", "HOME=/h", "GIT_DIR=/x", "GIT_WORK_TREE=/y", "GIT_INDEX_FILE=i", "GIT_OBJECT_DIRECTORY=o",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES=a", "GIT_CONFIG=c", "GIT_CONFIG_GLOBAL=g", "GIT_CONFIG_SYSTEM=s", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=k", "GIT_CONFIG_VALUE_0=v", "GIT_CONFIG_PARAMETERS=p", "GIT_EXEC_PATH=e",
		"GIT_SSH=s", "GIT_SSH_COMMAND=s", "GIT_ASKPASS=a", "SSH_ASKPASS=a", "GIT_EXTERNAL_DIFF=d", "GIT_PAGER=p", "PAGER=p",
		"GIT_TRACE=/tmp/t", "GIT_CEILING_DIRECTORIES=/", "LC_ALL=de_DE.UTF-8", "GIT_AUTHOR_NAME=Ann", "GIT_TERMINAL_PROMPT=1"}
	out := scrubEnv(in)
	got := map[string]string{}
	for _, kv := range out {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := got[k]; dup {
			t.Errorf("%s set twice", k)
		}
		got[k] = v
	}
	for k := range got {
		if strings.HasPrefix(k, "GIT_") && k != "GIT_AUTHOR_NAME" && k != "GIT_TERMINAL_PROMPT" && k != "GIT_OPTIONAL_LOCKS" {
			t.Errorf("%s kept", k)
		}
	}
	if got["PATH"] != "/bin" || got["HOME"] != "/h" || got["GIT_AUTHOR_NAME"] != "Ann" || got["GIT_TERMINAL_PROMPT"] != "0" ||
		got["LC_ALL"] != "C" || got["SSH_ASKPASS"] != "" || got["PAGER"] != "" {
		t.Errorf("env = %v", got)
	}
}

func TestHardenArgs(t *testing.T) {
	g := &Git{HooksDir: "/empty"}
	full, err := g.hardenArgs([]string{"-c", "core.hooksPath=/evil", "-c", "core.fsmonitor=/evil", "diff", "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Join(full, " ")
	// ours come after the caller's, so they win
	if strings.LastIndex(s, "core.hooksPath=") != strings.Index(s, "core.hooksPath=/empty") ||
		strings.LastIndex(s, "core.fsmonitor=") != strings.Index(s, "core.fsmonitor=false") {
		t.Errorf("caller config can override hardening: %s", s)
	}
	if !strings.Contains(s, " diff --no-ext-diff --no-textconv HEAD") {
		t.Errorf("diff flags missing: %s", s)
	}
	for _, bad := range [][]string{{"--git-dir=/x", "status"}, {"--work-tree", "/x", "status"}, {"--exec-path=/x", "status"}, {"-c", "a=b"}} {
		if _, err := g.hardenArgs(bad); err == nil {
			t.Errorf("hardenArgs(%q) accepted", bad)
		}
	}
}

func TestGitHooksDirMustStayEmpty(t *testing.T) {
	requireGit(t)
	g, err := NewGit(filepath.Join(t.TempDir(), "hooks"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Run(t.Context(), t.TempDir(), "--version"); err == nil {
		t.Error("a call without a subcommand was accepted")
	}
	if _, err := g.Run(t.Context(), t.TempDir(), "version"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(g.HooksDir, "post-checkout"), "#!/bin/sh\n")
	if _, err := g.Run(t.Context(), t.TempDir(), "version"); err == nil {
		t.Error("ran with a non-empty hooks dir")
	}
	if _, err := NewGit("relative"); err == nil {
		t.Error("relative hooks dir accepted")
	}
}

func TestGitTimeoutAndOutputBound(t *testing.T) {
	unixOnly(t)
	fake := filepath.Join(t.TempDir(), "git")
	write(t, fake, "#!/bin/sh\nif [ \"$SLEEP\" = 1 ]; then sleep 30 & sleep 30; fi\nhead -c 5000 /dev/zero | tr '\\0' x\n")
	if err := os.Chmod(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	// A generous timeout while bounding output: a loaded machine may take
	// longer than the timeout case's 200 ms just to start sh, head and tr.
	g := &Git{Path: fake, HooksDir: t.TempDir(), MaxOutput: 1000, Timeout: 20 * time.Second}
	_, err := g.Run(t.Context(), t.TempDir(), "log")
	wantCode(t, err, errs.GitFailed)
	out, truncated, err := g.RunTruncated(t.Context(), t.TempDir(), 100, "log")
	if err != nil || !truncated || len(out) != 100 {
		t.Errorf("RunTruncated = %d bytes, %v, %v", len(out), truncated, err)
	}
	t.Setenv("SLEEP", "1")
	g.Timeout = 200 * time.Millisecond
	start := time.Now()
	_, err = g.Run(t.Context(), t.TempDir(), "status")
	wantCode(t, err, errs.GitTimeout)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %s (process group not killed?)", d)
	}

	g.Path = filepath.Join(t.TempDir(), "nonexistent-git")
	_, err = g.Run(t.Context(), t.TempDir(), "status")
	wantCode(t, err, errs.GitNotFound)
}

// git's stderr is quoted in messages at most 500 bytes long; the cut never
// splits a character (a message must stay valid UTF-8 for the UI and the
// model).
func TestFirstLinesCutsOnACharacter(t *testing.T) {
	long := strings.Repeat("é", 300) // 600 bytes: byte 500 starts a character, 499 does not
	for _, in := range []string{long, "x" + long} {
		got := firstLines(in, 3)
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > 500+len("…") {
			t.Errorf("firstLines(%d bytes) = %q", len(in), got)
		}
	}
	if got := firstLines("a\nb\nc\nd", 3); got != "a; b; c" {
		t.Errorf("firstLines = %q; want the first three lines", got)
	}
}
