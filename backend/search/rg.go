package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// rgArgs are the rg flags that make rg see and match exactly what the
// builtin searcher does (see the package doc for the visibility rules).
func rgArgs(q *query) []string {
	args := []string{
		"--json",         // machine-readable; paths may contain ':' or newlines
		"--sort", "path", // the walker's order (this also makes rg single-threaded)
		"--no-config",        // no RIPGREP_CONFIG_PATH: flags such as --smart-case would change matching
		"--no-require-git",   // .gitignore applies outside a git repository too
		"--no-ignore-global", // the user's core.excludesFile is machine state, not tree state
		"--no-ignore-exclude",
		"--regexp", q.m.rg, // the pattern as rewritten for line-local matching
	}
	args = append(args, rgSizeArgs()...)
	if q.opts.Mode == ModeFilesWithMatches {
		args = append(args, "--max-count", "1") // one matching line proves the file
	}
	if q.file != "" {
		// A named file: include and binary checks already ran in Go.
		return append(args, "--", q.file)
	}
	if q.opts.Include != "" {
		args = append(args, "--glob", q.opts.Include)
	}
	return append(args, "--glob", "!.git", "--", ".")
}

// errRgOutput marks rg output that could not be parsed.
var errRgOutput = errors.New("unexpected rg --json output")

// runRg runs rg in the root directory (so include globs anchor there, as
// the walker anchors them) with stdin closed, and feeds its hits to c. It
// returns an error whenever the builtin searcher should take over: rg
// could not start, exited with a status other than 0 or 1, or printed
// something that is not the JSON we expect.
func runRg(ctx context.Context, rgPath string, q *query, c *collector) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, rgPath, rgArgs(q)...)
	cmd.Dir = q.dir
	cmd.Stdin = nil // reads from the null device: rg must never wait on stdin
	cmd.WaitDelay = 2 * time.Second
	hideWindow(cmd)
	stderr := newRgStderr(q.dir)
	stderr.fs, stderr.leave = q.fs, func(rel string) bool { return q.opts.skipped(q.dir, rel) }
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	stopped, stopAt := false, ""
	perr := parseRgJSON(stdout, func(path string, lines []int) bool {
		rel := normRgPath(path)
		var data []byte
		if lines == nil { // a match rg's output could not carry: find the lines here
			if data, lines = rescan(q, rel); len(lines) == 0 {
				return false
			}
		} else if data, lines = q.checkHit(rel, lines); len(lines) == 0 {
			return false // rgcheck.go: nothing of rg's is shown unchecked
		}
		stopped = c.add(rel, data, lines)
		if stopped {
			stopAt = rel
		}
		return stopped
	})
	if stopped || perr != nil {
		cancel() // we have what we need, or rg is talking nonsense
	}
	werr := cmd.Wait()
	stderr.finish()
	if stderr.unsure {
		return errRgSkipped
	}
	c.skipBefore(stderr.skipped, stopAt)
	switch {
	case stopped:
		return nil
	case perr != nil:
		return perr
	case werr == nil:
		return nil
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) && ee.ExitCode() == 1 {
		return nil // no matches
	}
	return fmt.Errorf("rg: %w: %s", werr, strings.TrimSpace(stderr.tail.String()))
}

// normRgPath turns the path rg prints ("./a/b", or ".\a\b" on Windows)
// into the result form "a/b". On POSIX a backslash in a name is kept.
func normRgPath(p string) string {
	p = filepath.ToSlash(p)
	return strings.TrimPrefix(p, "./")
}

// tailBuffer keeps the last max bytes written: enough of rg's stderr to
// explain a failure without holding an unbounded stream.
type tailBuffer struct {
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return t.buf.String() }
