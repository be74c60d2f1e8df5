package search

import (
	"context"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Grep output modes.
const (
	ModeContent          = "content"
	ModeFilesWithMatches = "filesWithMatches"
	ModeCount            = "count"
)

// Engine names reported in GrepResult.Engine.
const (
	EngineRg      = "rg"
	EngineBuiltin = "builtin"
)

// DefaultHeadLimit is the default number of matches (content mode) or
// files (other modes) a Grep returns (shared/design/decisions.md).
const DefaultHeadLimit = 200

// GrepOptions is one Grep call. Root is an absolute file or directory.
type GrepOptions struct {
	Root       string
	Pattern    string // RE2 syntax; see the package doc for line semantics
	Include    string // rg -g glob; "" = every visible file
	IgnoreCase bool
	Mode       string // ModeContent, ModeFilesWithMatches (default) or ModeCount
	Context    int    // lines before and after each match (content mode)
	HeadLimit  int    // max matches (content) or files (other modes); 0 = 200
	RgPath     string // "" = look up rg on PATH; "-" = never use rg
	Within            // where Root is opened from; see fsroot.go
	rgPlan     rgPlan // which engine runs and how: rgChoose, or a plan forced by a test
	// rgHeadStart, when > 0, replaces the const rgHeadStart (tests cut it
	// to nothing to force the restart).
	rgHeadStart time.Duration
}

// GrepLine is one output row of a content-mode file group.
type GrepLine struct {
	N       int    // 1-based line number
	Text    string // the line without its terminator; cut at MaxGrepLineRunes when Clipped
	Context bool   // a context row rather than a match
	Clipped bool   // Text was cut; the line is not "seen" (edit contract §2)
	Omitted int    // runes cut from Text when Clipped
}

// GrepFile is the result for one file.
type GrepFile struct {
	Path   string          // '/'-separated, relative to the root dir (a file root: its base name)
	Tag    string          // hashline tag of the full file; "" past the first maxTaggedFiles files, which no output shows
	Digest hashline.Digest // the full digest behind Tag: what an Edit's provenance is recorded against
	Lines  []GrepLine      // content mode only
	Count  int             // matching lines: reported ones in content mode, all in count mode, 0 otherwise
}

// GrepResult is a finished Grep.
type GrepResult struct {
	Files     []GrepFile
	Skipped   []SkippedFile // not searched: larger than MaxFileBytes (in walk order)
	Truncated bool          // HeadLimit cut the result: more matches or files exist
	Engine    string        // EngineRg or EngineBuiltin
	// Echoed options, for FormatGrep.
	Pattern   string
	Include   string
	Mode      string
	Context   int
	HeadLimit int
	Scope     string // "." for a directory root, the base name for a file root
}

// Grep searches Root for Pattern. It runs rg when available and faster
// (builtinFaster), and the builtin searcher otherwise or when rg fails;
// both give the same result (only Engine differs).
func Grep(ctx context.Context, opts GrepOptions) (GrepResult, error) {
	q, err := prepareGrep(opts)
	if err != nil {
		return GrepResult{}, err
	}
	defer q.fs.Close()
	rg := resolveRg(opts.RgPath)
	if q.builtinFaster() {
		rg = ""
	}
	if q.file != "" {
		skip, tooLarge, err := q.fileRootSkipped()
		if err != nil {
			return GrepResult{}, err
		}
		if skip {
			engine := EngineBuiltin
			if rg != "" {
				engine = EngineRg // the engine chosen, though nothing needed searching
			}
			c := newCollector(q)
			c.skipped = tooLarge
			return q.result(c, engine), nil
		}
	}
	if rg != "" {
		c := newCollector(q)
		err := runRg(ctx, rg, q, c)
		if err == nil {
			return q.result(c, EngineRg), nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return GrepResult{}, aborted(ctxErr)
		}
		// rg failed: the builtin searcher gives the same answer.
	}
	c := newCollector(q)
	if err := runBuiltin(ctx, q, c); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return GrepResult{}, aborted(ctxErr)
		}
		return GrepResult{}, errs.Wrap(err, errs.ToolFailed, "Grep could not search %s", opts.Root)
	}
	return q.result(c, EngineBuiltin), nil
}

// builtinFaster reports whether the builtin searcher is the faster engine
// for q even with rg installed: when it skips most bytes (a literal to
// find candidate lines by, or a DFA that skips by table, as for a date
// pattern) it reads and matches as fast as rg (on Go's src: 0.96-1.08× rg,
// where running rg added 15% for --max-filesize alone), it stops within
// the first files once a capped search has its matches (rg costs a process
// start: 1.4 ms against 12 ms for the first 200), and nothing is read and
// matched twice, as every file rg reports is (rgcheck.go: a count of a
// common word took 1.66× rg that way, 0.93× builtin). Otherwise rg's
// engine is the faster one. Tests forcing a plan run rg.
func (q *query) builtinFaster() bool {
	return q.opts.rgPlan == rgChoose && q.m.skipsMostBytes()
}

func aborted(err error) error {
	return errs.Wrap(err, errs.ToolAborted, "Grep was cancelled")
}

// query is a validated Grep call.
type query struct {
	opts    GrepOptions
	m       *matcher
	include *override
	dir     string   // directory rg runs in and result paths are relative to
	file    string   // base name when Root is a file, else ""
	fs      *os.Root // dir, opened: every read goes through it
}

func prepareGrep(opts GrepOptions) (*query, error) {
	if opts.Mode == "" {
		opts.Mode = ModeFilesWithMatches
	}
	switch opts.Mode {
	case ModeContent, ModeFilesWithMatches, ModeCount:
	default:
		return nil, invalidField("mode", "mode must be %q, %q or %q", ModeContent, ModeFilesWithMatches, ModeCount)
	}
	if opts.HeadLimit < 0 {
		return nil, invalidField("headLimit", "headLimit must be positive")
	}
	if opts.HeadLimit == 0 {
		opts.HeadLimit = DefaultHeadLimit
	}
	if opts.Context < 0 {
		return nil, invalidField("context", "context must be 0 or more lines")
	}
	if opts.Mode != ModeContent {
		opts.Context = 0
	}
	if !filepath.IsAbs(opts.Root) {
		return nil, invalidField("path", "the search root must be an absolute path")
	}
	m, err := compilePattern(opts.Pattern, opts.IgnoreCase)
	if err != nil {
		return nil, err
	}
	q := &query{opts: opts, m: m, dir: filepath.Clean(opts.Root)}
	if opts.Include != "" {
		inc, ok := parseOverride(opts.Include)
		if !ok {
			return nil, invalidField("include", "invalid include glob %q", opts.Include)
		}
		q.include = inc
	}
	if q.fs, q.file, err = openSearchRoot(opts.Within, q.dir); err != nil {
		return nil, rootErr(err, "Grep", opts.Root)
	}
	if opts.Base == nil {
		if q.dir, err = canonicalDir(q.dir); err != nil {
			q.fs.Close()
			return nil, errs.Wrap(err, errs.ToolFailed, "cannot resolve %s", opts.Root)
		}
	}
	if q.file != "" {
		q.dir = filepath.Dir(q.dir)
	}
	return q, nil
}

func invalidField(field, format string, args ...any) error {
	return errs.New(errs.InvalidArgument, format, args...).With("field", field)
}

// fileRootSkipped applies to a directly named file what the walk applies to
// a directory's files: include filters its base name, and binary files are
// not reported. Hidden and ignored names do not apply: the file was named.
// A file over MaxFileBytes is skipped unread, and returned to be named.
func (q *query) fileRootSkipped() (bool, []SkippedFile, error) {
	if q.include.match(q.file, false) == ignored {
		return true, nil, nil
	}
	data, err := readBounded(func() (*os.File, error) { return openRegular(q.fs, q.file) })
	if size := sizeOf(err); size >= 0 {
		return true, []SkippedFile{{Path: q.file, Size: size}}, nil
	}
	if err != nil {
		return false, nil, errs.Wrap(err, errs.ToolFailed, "cannot read %s", q.opts.Root)
	}
	return isBinary(data), nil, nil
}

func (q *query) result(c *collector, engine string) GrepResult {
	scope := "."
	if q.file != "" {
		scope = q.file
	}
	return GrepResult{
		Files: c.files, Skipped: c.skipped, Truncated: c.truncated, Engine: engine,
		Pattern: q.opts.Pattern, Include: q.opts.Include, Mode: q.opts.Mode, Context: q.opts.Context,
		HeadLimit: q.opts.HeadLimit, Scope: scope,
	}
}

// resolveRg returns the rg binary to use, or "" for the builtin searcher.
func resolveRg(rgPath string) string {
	switch rgPath {
	case "-":
		return ""
	case "":
		p, err := exec.LookPath("rg")
		if err != nil {
			return ""
		}
		return p
	}
	return rgPath
}
