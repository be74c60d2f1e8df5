package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// shadow is one workspace's shadow repository.
type shadow struct {
	git       *worktree.Git
	workspace string // absolute, cleaned
	dir       string // <checkpoints>/<key>
	// expectSame says the capture most likely finds nothing changed (a
	// before-bash snapshot, taken right after the previous call's
	// after-bash one): no update-index is started beside the listing,
	// where it would only compete with it for the CPU.
	expectSame bool
}

// shadowKey names a workspace's shadow folder: a hash of its path, so a
// worktree and its project get separate shadows.
func shadowKey(workspace string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(workspace)))
	return hex.EncodeToString(sum[:12])
}

func (s *shadow) gitDir() string    { return filepath.Join(s.dir, "git") }
func (s *shadow) indexFile() string { return filepath.Join(s.dir, "index") }

// treeFile caches the tree of the index as last written.
func (s *shadow) treeFile() string { return filepath.Join(s.dir, "tree") }

// devNull is what git reads as "no file" for configuration and excludes.
func devNull() string {
	if runtime.GOOS == "windows" {
		return "NUL"
	}
	return "/dev/null"
}

// env is the environment every shadow call gets after worktree.Git's scrub:
// the shadow's own repository and index, no global or system configuration.
func (s *shadow) env() []string {
	return []string{
		"GIT_DIR=" + s.gitDir(),
		"GIT_WORK_TREE=" + s.workspace,
		"GIT_INDEX_FILE=" + s.indexFile(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + devNull(),
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_AUTHOR_NAME=PI-Desktop", "GIT_AUTHOR_EMAIL=checkpoints@pi-desktop.invalid",
		"GIT_COMMITTER_NAME=PI-Desktop", "GIT_COMMITTER_EMAIL=checkpoints@pi-desktop.invalid",
	}
}

// hardening is the -c list every shadow call carries, on top of
// worktree.Git's own (hooks, fsmonitor, pager): nothing of the user's
// configuration or attributes can change what is stored or run a program.
func hardening() []string {
	opts := []string{
		"core.attributesFile=" + devNull(),
		"core.excludesFile=" + devNull(),
		"core.autocrlf=false",
		"core.safecrlf=false",
		"core.quotePath=false",
		"core.splitIndex=false",
		"core.sparseCheckout=false",
		"core.untrackedCache=false",
		"diff.external=",
		"commit.gpgSign=false",
		"gc.auto=0",
		"maintenance.auto=false",
		"submodule.recurse=false",
		"protocol.allow=never",
		"index.skipHash=false",
	}
	if runtime.GOOS != "windows" {
		opts = append(opts, "core.fileMode=true", "core.symlinks=true")
	}
	args := make([]string, 0, 2*len(opts))
	for _, o := range opts {
		args = append(args, "-c", o)
	}
	return args
}

// noAttributes unsets, for every path, each attribute that makes git
// convert content or run a program ($GIT_DIR/info/attributes wins over the
// workspace's .gitattributes files).
const noAttributes = "* -text -eol -crlf -filter -ident -diff -merge -working-tree-encoding -export-subst\n"

// run runs git in the shadow with stdin (may be nil).
func (s *shadow) run(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	full := append(hardening(), args...)
	return s.git.RunWith(ctx, invocation(s, stdin, 0), full...)
}

// invocation is a call in the shadow: in the workspace, with the shadow's
// environment; limit bounds stdout (0 = worktree.Git's).
func invocation(s *shadow, stdin io.Reader, limit int) worktree.Invocation {
	return worktree.Invocation{Dir: s.workspace, Env: s.env(), Stdin: stdin, Limit: limit}
}

// ensure creates the shadow repository when missing and refreshes its
// excludes (the fixed list, the data folder when it lies inside the
// workspace, and the user's own .git/info/exclude, read only).
func (s *shadow) ensure(ctx context.Context, excludes []string) error {
	if _, err := os.Stat(filepath.Join(s.gitDir(), "HEAD")); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return err
		}
		// --template= copies no sample hooks or description; SHA-1 because
		// writeCommit and blobID compute ids themselves.
		if _, err := s.run(ctx, nil, "init", "-q", "--template=", "--object-format=sha1"); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	info := filepath.Join(s.gitDir(), "info")
	if err := os.MkdirAll(info, 0o700); err != nil {
		return err
	}
	if _, err := writeIfChanged(filepath.Join(info, "attributes"), []byte(noAttributes)); err != nil {
		return err
	}
	changed, err := writeIfChanged(filepath.Join(info, "exclude"), s.excludeFile(excludes))
	if err == nil && changed {
		// Files the index holds may be excluded now: the next capture
		// looks (and a crash before it only costs that look again).
		err = os.WriteFile(s.recheckFile(), nil, 0o600)
	}
	return err
}

// recheckFile, when present, says the excludes changed since the last
// capture.
func (s *shadow) recheckFile() string { return filepath.Join(s.dir, "recheck-ignored") }

// fixedExcludes are never captured: dependency trees and environments that
// are rebuilt rather than restored.
const fixedExcludes = "node_modules/\n.venv/\n"

func (s *shadow) excludeFile(extra []string) []byte {
	var b bytes.Buffer
	b.WriteString("# written by PI-Desktop: what checkpoints never capture\n")
	b.WriteString(fixedExcludes)
	for _, e := range extra {
		b.WriteString(e + "\n")
	}
	// The user's own excludes apply as they would in their repository.
	if own, err := os.ReadFile(filepath.Join(s.workspace, ".git", "info", "exclude")); err == nil && len(own) < 1<<20 {
		b.WriteString("# from the workspace's .git/info/exclude\n")
		b.Write(own)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// insideExclude returns an anchored exclude pattern for dir when it lies
// inside workspace ("" otherwise): the data folder must never be captured.
func insideExclude(workspace, dir string) string {
	if dir == "" {
		return ""
	}
	rel, err := filepath.Rel(workspace, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ""
	}
	return "/" + filepath.ToSlash(rel) + "/"
}

func writeIfChanged(path string, data []byte) (bool, error) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	return true, os.WriteFile(path, data, 0o600)
}

// setRef points refs/sessions/<session> at commit, written as a loose ref
// file (one process fewer per snapshot); it keeps a session's checkpoints
// reachable for git gc.
func (s *shadow) setRef(session, commit string) error {
	dir := filepath.Join(s.gitDir(), "refs", "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+session+".tmp")
	if err := os.WriteFile(tmp, []byte(commit+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, session))
}
