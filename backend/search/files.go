package search

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// File suggestion limits: a completion list, not a listing tool.
const (
	DefaultFilesLimit = 50
	MaxFilesLimit     = 200
	// MaxFilesScanned bounds the walk, so a huge tree answers in bounded
	// time; a walk cut there reports Truncated.
	MaxFilesScanned = 50_000
)

// FilesOptions is one file-name search.
type FilesOptions struct {
	Root  string // absolute directory
	Query string // matched case-insensitively against the relative path
	Limit int    // 0 = DefaultFilesLimit; capped at MaxFilesLimit
	Scan  int    // files visited at most; 0 or more than MaxFilesScanned = MaxFilesScanned
	// Within, when set, pins Root to a handle the caller checked and
	// leaves out what its Skip names (the host's data folder).
	Within Within
}

// FilesResult lists the best matches, best first.
type FilesResult struct {
	Files     []string // '/'-separated, relative to Root
	Truncated bool     // more files matched, or the walk stopped at MaxFilesScanned
}

// Files suggests visible files below Root whose path matches Query, with
// Glob's visibility rules (ignore files, hidden entries, no symlinks), so it
// never names a file outside Root. Better matches come first: a base-name
// prefix, then a path prefix, a base-name substring, a path substring, and
// last the query's characters in order; shorter paths first within a rank.
func Files(ctx context.Context, opts FilesOptions) (FilesResult, error) {
	limit := opts.Limit
	switch {
	case limit < 0:
		return FilesResult{}, invalidField("limit", "limit must be positive")
	case limit == 0:
		limit = DefaultFilesLimit
	case limit > MaxFilesLimit:
		limit = MaxFilesLimit
	}
	if !filepath.IsAbs(opts.Root) {
		return FilesResult{}, invalidField("path", "the search root must be an absolute path")
	}
	top, abs, err := openWalkRoot(opts.Within, opts.Root, "the file search")
	if errors.Is(err, errIsFile) {
		return FilesResult{}, invalidField("path", "%s is a file, not a folder", opts.Root)
	}
	if err != nil {
		return FilesResult{}, err
	}
	defer top.Close()

	scan := opts.Scan
	if scan <= 0 || scan > MaxFilesScanned {
		scan = MaxFilesScanned
	}
	q := strings.ToLower(filepath.ToSlash(strings.TrimSpace(opts.Query)))
	var hits []fileHit
	scanned := 0
	res := FilesResult{}
	err = walkTree(ctx, top, abs, walkOptions{skip: opts.Within.Skip}, func(f walkFile) error {
		rel := f.rel
		if scanned == scan {
			res.Truncated = true
			return errStop
		}
		scanned++
		if r := fileRank(q, rel); r >= 0 {
			hits = append(hits, fileHit{rel: rel, rank: r})
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return FilesResult{}, errs.Wrap(err, errs.ToolAborted, "the file search was cancelled")
		}
		return FilesResult{}, errs.Wrap(err, errs.ToolFailed, "cannot list the files of %s", opts.Root)
	}
	slices.SortFunc(hits, func(a, b fileHit) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if len(a.rel) != len(b.rel) {
			return len(a.rel) - len(b.rel)
		}
		return strings.Compare(a.rel, b.rel)
	})
	if len(hits) > limit {
		hits, res.Truncated = hits[:limit], true
	}
	res.Files = make([]string, len(hits))
	for i, h := range hits {
		res.Files[i] = h.rel
	}
	return res, nil
}

type fileHit struct {
	rel  string
	rank int
}

// fileRank is how well rel matches the lower-case query q: 0 is best, -1
// is no match.
func fileRank(q, rel string) int {
	if q == "" {
		return 0
	}
	p := strings.ToLower(rel)
	base := p[strings.LastIndexByte(p, '/')+1:]
	switch {
	case strings.HasPrefix(base, q):
		return 0
	case strings.HasPrefix(p, q):
		return 1
	case strings.Contains(base, q):
		return 2
	case strings.Contains(p, q):
		return 3
	case inOrder(q, p):
		return 4
	}
	return -1
}

// inOrder reports whether every rune of q occurs in s in the same order.
func inOrder(q, s string) bool {
	for _, r := range q {
		i := strings.IndexRune(s, r)
		if i < 0 {
			return false
		}
		s = s[i+len(string(r)):]
	}
	return true
}
