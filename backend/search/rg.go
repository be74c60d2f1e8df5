package search

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// rgArgs are the rg flags that make rg see and match exactly what the
// builtin searcher does (see the package doc for the visibility rules),
// and print what parseRgText reads for the mode. sorted runs rg in walk
// order (--sort path, which makes rg single-threaded).
func rgArgs(q *query, sorted bool) []string {
	args := []string{
		"--null", "--no-heading", "--with-filename", "--color", "never", // parseRgText's format; a path ends at NUL
		"--no-config",        // no RIPGREP_CONFIG_PATH: flags such as --smart-case would change matching
		"--no-require-git",   // .gitignore applies outside a git repository too
		"--no-ignore-global", // the user's core.excludesFile is machine state, not tree state
		"--no-ignore-exclude",
		"--regexp", q.m.rg, // the pattern as rewritten for line-local matching
	}
	if sorted {
		args = append(args, "--sort", "path")
	}
	switch q.opts.Mode {
	case ModeContent:
		args = append(args, "--line-number", "--max-columns", "1") // numbers only: rows are built from the file
	case ModeCount:
		args = append(args, "--count")
	default:
		args = append(args, "--files-with-matches") // one matching line proves the file
	}
	args = append(args, rgSizeArgs()...)
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
var errRgOutput = errors.New("unexpected rg output")

// rgHeadStart is how long (from rg's start, so a slow fork on a busy
// machine does not count; renewed while the run is on course to fill the
// limit, see runRgOnce) a capped search runs rg in walk order, where it
// can stop as soon as the head limit is reached, before it is restarted
// multi-threaded and cut to the limit in Go. Either run gives the same
// result; the head start only decides which is likely faster (a common
// word fills the limit within the first files; a rare one never does).
const rgHeadStart = 30 * time.Millisecond

// rgUncapped is a head limit that a search is not expected to reach: it
// runs multi-threaded from the start.
const rgUncapped = 100_000

// rgPlan picks how rg runs; tests force each one.
type rgPlan int

const (
	rgChoose   rgPlan = iota // the builtin searcher when builtinFaster, else rgAuto
	rgAuto                   // walk order with a head start when capped, else multi-threaded
	rgSorted                 // walk order only (--sort path, single-threaded), stopping at the limit
	rgParallel               // multi-threaded, hits sorted and cut to the limit in Go
)

// runRg runs rg (see rgPlan) and feeds its checked hits to c. It returns
// an error whenever the builtin searcher should take over: rg could not
// start, exited with a status other than 0 or 1, or printed something we
// do not expect.
func runRg(ctx context.Context, rgPath string, q *query, c *collector) error {
	switch plan := q.opts.rgPlan; {
	case plan == rgSorted:
		return runRgOnce(ctx, rgPath, q, c, true, 0)
	case plan == rgParallel || q.file != "" || q.opts.HeadLimit >= rgUncapped:
		return runRgOnce(ctx, rgPath, q, c, false, 0)
	}
	err := runRgOnce(ctx, rgPath, q, c, true, cmp.Or(q.opts.rgHeadStart, rgHeadStart))
	if !errors.Is(err, errHeadStartOver) || ctx.Err() != nil {
		return err
	}
	c.reset() // what the head start found is found again, in order
	return runRgOnce(ctx, rgPath, q, c, false, 0)
}

// errHeadStartOver: the walk-order run was stopped at its time limit.
var errHeadStartOver = errors.New("rg head start over")

// runRgOnce runs rg in the root directory (so include globs anchor there,
// as the walker anchors them) with stdin closed. Each file it reports is
// re-read through the root's handle and its lines confirmed there
// (rgcheck.go) by a pool of workers; the collector gets the files in walk
// order: as rg prints them when sorted, else after sorting them here.
// A limit > 0 stops the run that long after rg started: errHeadStartOver
// unless it had finished.
func runRgOnce(ctx context.Context, rgPath string, q *query, c *collector, sorted bool, limit time.Duration) error {
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, rgPath, rgArgs(q, sorted)...)
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
	var (
		over  atomic.Bool
		found atomic.Int64 // matches (content) or files kept so far
	)
	if limit > 0 {
		// Each period the run may keep going if it is on course to fill
		// the head limit (a quarter of it found per period elapsed so far,
		// at least): a busy machine slows rg, not the decision.
		var t *time.Timer
		periods, ready := int64(0), make(chan struct{})
		t = time.AfterFunc(limit, func() {
			<-ready // t is set
			periods++
			if found.Load()*4 >= int64(q.opts.HeadLimit)*min(periods, 4) {
				t.Reset(limit)
				return
			}
			over.Store(true)
			cancel()
		})
		close(ready)
		defer t.Stop()
	}
	var (
		perr   error
		stopAt string // the file at which the collector had enough
	)
	sink := func(h hit) bool {
		defer func() { found.Store(int64(max(c.matches, len(c.files)))) }()
		if h.cut {
			// Stopped (the head start ran out) before this file was
			// looked at: the hits after it must not be taken in its
			// place. The run ends unfinished, and is restarted.
			return true
		}
		if len(h.lines) > 0 && c.addHit(h) {
			stopAt = h.rel
			cancel() // rg may stop: nothing after this file is needed
			return true
		}
		return false
	}
	workers := runtime.GOMAXPROCS(0)
	bufs := &sync.Pool{}
	if sorted {
		runInOrder(ctx, workers, func(put func(func(context.Context) []hit) bool) {
			dirs := &hitDirs{fs: q.fs}
			defer dirs.close()
			// One file per job: rg's next line may be far off, and the hits so
			// far may already be enough.
			perr = parseRgText(stdout, q.opts.Mode, func(r rgHitRec) bool { return !put(jobOf(q.checkJob(c, dirs, bufs, r))) })
		}, sink)
	} else {
		var all []rgHitRec
		perr = parseRgText(stdout, q.opts.Mode, func(r rgHitRec) bool {
			r.path = normRgPath(r.path)
			all = append(all, r)
			return false
		})
		if perr == nil {
			slices.SortFunc(all, func(a, b rgHitRec) int { return walkCompare(a.path, b.path) })
			runInOrder(ctx, workers, func(put func(func(context.Context) []hit) bool) {
				dirs := &hitDirs{fs: q.fs}
				defer dirs.close()
				for len(all) > 0 {
					n := sameFolderRun(all, fileBatch)
					checks := make([]func(context.Context) hit, n)
					for i, r := range all[:n] {
						checks[i] = q.checkJob(c, dirs, bufs, r)
					}
					all = all[n:]
					if !put(jobOf(checks...)) {
						return
					}
				}
			}, sink)
		}
	}
	if perr != nil {
		cancel() // rg is talking nonsense
	}
	werr := cmd.Wait()
	stderr.finish()
	if stderr.unsure {
		return errRgSkipped
	}
	if ctx.Err() != nil && stopAt == "" {
		if over.Load() && outer.Err() == nil {
			return errHeadStartOver
		}
		return ctx.Err()
	}
	c.skipBefore(stderr.skipped, stopAt)
	switch {
	case stopAt != "":
		return nil
	case perr != nil:
		return perr
	case exitOK(werr):
		return nil
	}
	return fmt.Errorf("rg: %w: %s", werr, strings.TrimSpace(stderr.tail.String()))
}

// exitOK: rg ended with matches (0) or none (1).
func exitOK(err error) bool {
	var ee *exec.ExitError
	return err == nil || (errors.As(err, &ee) && ee.ExitCode() == 1)
}

// checkJob is the worker's part of one file rg reported: re-read it
// through the root (its folder from dirs, a buffer from bufs), confirm its
// lines there (content mode: rg's lines; count and files modes: found in
// those bytes, as the builtin engine finds them), and do the binary test
// and the digest. The folder is taken from dirs now, in feed order.
func (q *query) checkJob(c *collector, dirs *hitDirs, bufs *sync.Pool, r rgHitRec) func(context.Context) hit {
	rel := normRgPath(r.path)
	dir, name := dirs.get(rel)
	return func(ctx context.Context) hit {
		defer dir.release()
		if ctx.Err() != nil {
			return hit{rel: rel, cut: true}
		}
		if q.opts.skipped(q.dir, rel) {
			return hit{rel: rel}
		}
		buf, _ := bufs.Get().(*[]byte)
		if buf == nil {
			buf = new([]byte)
		}
		defer bufs.Put(buf)
		data, err := dir.files.read(name, buf)
		if err != nil {
			return hit{rel: rel} // vanished, unreadable or swapped since rg saw it: not a result
		}
		var lines []int
		switch q.opts.Mode {
		case ModeContent:
			lines = q.confirmLines(data, r.lines)
		case ModeCount:
			lines = q.m.matchLines(data, 0)
		default:
			lines = q.m.matchLines(data, 1)
		}
		return checkedHit(rel, data, lines, q.opts.Mode == ModeContent, c.wantsTag())
	}
}

// jobOf is one job of runInOrder doing checks in order.
func jobOf(checks ...func(context.Context) hit) func(context.Context) []hit {
	return func(ctx context.Context) []hit {
		hits := make([]hit, len(checks))
		for i, check := range checks {
			hits[i] = check(ctx)
		}
		return hits
	}
}

// sameFolderRun is how many of recs, at most max, from the first on are
// files of the same folder (recs' paths are in result form).
func sameFolderRun(recs []rgHitRec, max int) int {
	dir, _ := splitRel(recs[0].path)
	n := 1
	for n < len(recs) && n < max {
		if d, _ := splitRel(recs[n].path); d != dir {
			break
		}
		n++
	}
	return n
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
