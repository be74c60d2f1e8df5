package search

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Glob entry limits (shared/design/decisions.md).
const (
	DefaultGlobLimit = 100
	MaxGlobLimit     = 1000
)

// GlobOptions is one Glob call.
type GlobOptions struct {
	Root    string // absolute directory
	Pattern string // doublestar pattern, '/'-separated, relative to Root
	Limit   int    // 0 = DefaultGlobLimit; capped at MaxGlobLimit
	Within         // where Root is opened from; see fsroot.go
}

// GlobResult lists the visible files matching a pattern.
type GlobResult struct {
	Files     []string // '/'-separated, relative to Root, in walk order
	Truncated bool     // Limit cut the list
	Pattern   string   // echoed for FormatGlob
	Limit     int      // the limit applied
}

// Glob lists the regular files below Root that match Pattern, with the
// walker's visibility rules: hidden and ignored files are never listed,
// even when the pattern names them.
func Glob(ctx context.Context, opts GlobOptions) (GlobResult, error) {
	pattern := opts.Pattern
	if pattern == "" {
		return GlobResult{}, invalidField("pattern", "the glob pattern is empty")
	}
	if strings.HasPrefix(pattern, "/") || filepath.IsAbs(pattern) {
		return GlobResult{}, invalidField("pattern", "the glob pattern %q must be relative to the search path; pass the directory as path", pattern)
	}
	if !doublestar.ValidatePattern(pattern) {
		return GlobResult{}, invalidField("pattern", "invalid glob pattern %q", pattern)
	}
	limit := opts.Limit
	switch {
	case limit < 0:
		return GlobResult{}, invalidField("limit", "limit must be positive")
	case limit == 0:
		limit = DefaultGlobLimit
	case limit > MaxGlobLimit:
		limit = MaxGlobLimit
	}
	if !filepath.IsAbs(opts.Root) {
		return GlobResult{}, invalidField("path", "the search root must be an absolute path")
	}
	top, abs, err := openWalkRoot(opts.Within, opts.Root, "Glob")
	if errors.Is(err, errIsFile) {
		return GlobResult{}, invalidField("path", "Glob searches a directory; %s is a file", opts.Root)
	}
	if err != nil {
		return GlobResult{}, err
	}
	defer top.Close()

	res := GlobResult{Pattern: pattern, Limit: limit}
	base, _ := doublestar.SplitPattern(pattern)
	walk := walkOptions{descend: func(rel string) bool { return mayHold(base, rel) }, skip: opts.Skip}
	err = walkTree(ctx, top, abs, walk, func(f walkFile) error {
		rel := f.rel
		if !doublestar.MatchUnvalidated(pattern, rel) {
			return nil
		}
		if len(res.Files) == limit {
			res.Truncated = true
			return errStop
		}
		res.Files = append(res.Files, rel)
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return GlobResult{}, errs.Wrap(err, errs.ToolAborted, "Glob was cancelled")
		}
		return GlobResult{}, errs.Wrap(err, errs.ToolFailed, "Glob could not walk %s", opts.Root)
	}
	return res, nil
}

// mayHold reports whether directory rel can contain a match of a pattern
// whose static prefix is base: it lies on the way to base or below it.
func mayHold(base, rel string) bool {
	if base == "." || base == "" || strings.Contains(base, `\`) {
		return true
	}
	return rel == base || strings.HasPrefix(base, rel+"/") || strings.HasPrefix(rel, base+"/")
}
