package worktree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// IncludeFile is the file, at the repository's top level, listing the
// git-ignored files a new worktree receives a copy of.
//
// Syntax: one pattern per line, relative to the repository top level,
// '/'-separated; blank lines and lines starting with '#' are ignored; a
// leading '/' is dropped; a line starting with '!' excludes what it matches.
// Patterns are doublestar globs (*, ?, [class], ** for any number of
// folders), without {a,b} alternatives. A pattern that matches a folder
// includes everything below it. Examples: ".env", "**/.env.local",
// "config/secrets", "certs/*.pem".
//
// Only files git reports as ignored and untracked are candidates. Only
// regular files are copied: a symbolic link (to a file or a folder, or
// anywhere on the way to the file) is skipped, never followed, and nothing
// is written through a link in the worktree either. Files already present in
// the worktree are not overwritten. Sizes and counts are bounded by
// IncludeLimits; whatever is skipped is reported.
const IncludeFile = ".worktreeinclude"

// IncludeLimits bounds what .worktreeinclude can copy.
type IncludeLimits struct {
	MaxPatterns int   // patterns read from the file (default 200)
	MaxFiles    int   // files copied (default 10,000)
	MaxFileSize int64 // bytes per file (default 64 MiB)
	MaxTotal    int64 // bytes in all (default 512 MiB)
}

// DefaultIncludeLimits returns the default bounds.
func DefaultIncludeLimits() IncludeLimits {
	return IncludeLimits{MaxPatterns: 200, MaxFiles: 10_000, MaxFileSize: 64 << 20, MaxTotal: 512 << 20}
}

func (l IncludeLimits) withDefaults() IncludeLimits {
	d := DefaultIncludeLimits()
	if l.MaxPatterns <= 0 {
		l.MaxPatterns = d.MaxPatterns
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = d.MaxFiles
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = d.MaxFileSize
	}
	if l.MaxTotal <= 0 {
		l.MaxTotal = d.MaxTotal
	}
	return l
}

// IncludeReport says what .worktreeinclude copied. Paths are '/'-separated
// and relative to the repository top level.
type IncludeReport struct {
	Copied  []string      `json:"copied,omitempty"`
	Bytes   int64         `json:"bytes"`
	Skipped []SkippedFile `json:"skipped,omitempty"` // at most maxSkipped entries
	// MoreSkipped counts skipped entries beyond the listed ones.
	MoreSkipped int `json:"moreSkipped,omitempty"`
}

// SkippedFile is a candidate (or a pattern) that was not copied, and why.
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

const maxSkipped = 200

func (r *IncludeReport) skip(p, reason string) {
	if len(r.Skipped) < maxSkipped {
		r.Skipped = append(r.Skipped, SkippedFile{Path: p, Reason: reason})
	} else {
		r.MoreSkipped++
	}
}

type includePatterns struct {
	include, exclude []string
}

// matches reports whether rel, or a folder above it, matches an include
// pattern and neither it nor a folder above it matches an exclude pattern.
func (ps includePatterns) matches(rel string) bool {
	return matchAny(ps.include, rel) && !matchAny(ps.exclude, rel)
}

func matchAny(patterns []string, rel string) bool {
	for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		for _, pat := range patterns {
			if ok, _ := doublestar.Match(pat, p); ok {
				return true
			}
		}
	}
	return false
}

func parseIncludes(data string, limits IncludeLimits, rep *IncludeReport) includePatterns {
	var ps includePatterns
	n := 0
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if n >= limits.MaxPatterns {
			rep.skip(IncludeFile, fmt.Sprintf("more than %d patterns; the rest were ignored", limits.MaxPatterns))
			break
		}
		n++
		neg := strings.HasPrefix(line, "!")
		pat := strings.TrimPrefix(line, "!")
		pat = strings.TrimSuffix(strings.TrimLeft(pat, "/"), "/")
		switch {
		case pat == "" || len(pat) > 1024:
			rep.skip(line, "empty or overlong pattern")
			continue
		case strings.ContainsAny(pat, "{}\\") || !doublestar.ValidatePattern(pat):
			rep.skip(line, "invalid pattern (doublestar syntax, '/'-separated, no {a,b})")
			continue
		case pat == ".." || strings.HasPrefix(pat, "../") || strings.Contains(pat, "/../"):
			rep.skip(line, "pattern leaves the repository")
			continue
		}
		if neg {
			ps.exclude = append(ps.exclude, pat)
		} else {
			ps.include = append(ps.include, pat)
		}
	}
	return ps
}

// copyIncludes copies into dstTop the ignored files of srcTop matched by
// srcTop/.worktreeinclude.
func copyIncludes(ctx context.Context, git *Git, srcTop, dstTop string, limits IncludeLimits) (IncludeReport, error) {
	limits = limits.withDefaults()
	var rep IncludeReport
	listPath := filepath.Join(srcTop, IncludeFile)
	fi, err := os.Lstat(listPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return rep, nil
	case err != nil:
		return rep, fmt.Errorf("worktree: %s: %w", IncludeFile, err)
	case !regularInfo(fi):
		rep.skip(IncludeFile, "not a regular file (links are not followed)")
		return rep, nil
	case fi.Size() > 64<<10:
		rep.skip(IncludeFile, "larger than 64 KiB")
		return rep, nil
	}
	data, err := readRegular(listPath, fi, 64<<10)
	if err != nil {
		rep.skip(IncludeFile, "could not be read")
		return rep, nil
	}
	ps := parseIncludes(string(data), limits, &rep)
	if len(ps.include) == 0 {
		return rep, nil
	}

	// git lists the ignored, untracked files the patterns select (the glob
	// pathspec has the same '*', '?', '**' rules); ps.matches re-checks
	// each with the doublestar semantics and applies the exclusions.
	args := []string{"ls-files", "--others", "--ignored", "--exclude-standard", "-z", "--"}
	for _, p := range ps.include {
		args = append(args, ":(glob)"+p)
	}
	out, err := git.Run(ctx, srcTop, args...)
	if err != nil {
		return rep, err
	}
	dst, err := os.OpenRoot(dstTop)
	if err != nil {
		return rep, fmt.Errorf("worktree: open worktree: %w", err)
	}
	defer dst.Close()

	seen := map[string]bool{}
	for _, rel := range strings.Split(out, "\x00") {
		if rel == "" || seen[rel] {
			continue
		}
		seen[rel] = true
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if !ps.matches(rel) || !safeRel(rel) {
			continue
		}
		if len(rep.Copied) >= limits.MaxFiles {
			rep.skip(rel, fmt.Sprintf("more than %d files", limits.MaxFiles))
			continue
		}
		n, reason := copyOne(srcTop, dstTop, dst, rel, limits, limits.MaxTotal-rep.Bytes)
		if reason != "" {
			rep.skip(rel, reason)
			continue
		}
		rep.Copied = append(rep.Copied, rel)
		rep.Bytes += n
	}
	return rep, nil
}

// safeRel rejects paths that are absolute, climb, or pass through .git.
func safeRel(rel string) bool {
	if strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") || strings.Contains(rel, ":") {
		return false
	}
	for _, c := range strings.Split(rel, "/") {
		if c == "" || c == "." || c == ".." || strings.EqualFold(c, ".git") {
			return false
		}
	}
	return true
}

// copyOne copies srcTop/rel to dstTop/rel without following any link on
// either side. It returns the bytes copied or why the file was skipped.
func copyOne(srcTop, dstTop string, dst *os.Root, rel string, limits IncludeLimits, budget int64) (int64, string) {
	parts := strings.Split(rel, "/")
	p := srcTop
	for _, c := range parts[:len(parts)-1] {
		p = filepath.Join(p, c)
		if !isRealDir(p) {
			return 0, "a folder on its path is a link or not a directory"
		}
	}
	src := filepath.Join(p, parts[len(parts)-1])
	fi, err := os.Lstat(src)
	if err != nil {
		return 0, "vanished"
	}
	if !regularInfo(fi) {
		return 0, "not a regular file (links are not followed)"
	}
	if fi.Size() > limits.MaxFileSize {
		return 0, fmt.Sprintf("larger than %d bytes", limits.MaxFileSize)
	}
	if fi.Size() > budget {
		return 0, fmt.Sprintf("the %d-byte total would be exceeded", limits.MaxTotal)
	}

	in, err := os.Open(src)
	if err != nil {
		return 0, "could not be opened"
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || !os.SameFile(fi, st) || !regularInfo(st) {
		return 0, "changed while being copied"
	}

	dir := filepath.FromSlash(path.Dir(rel))
	if dir != "." {
		if err := dst.MkdirAll(dir, 0o755); err != nil {
			return 0, "its folder could not be created in the worktree"
		}
		if checkChain(dstTop, path.Dir(rel)) != nil {
			return 0, "a folder on its path in the worktree is a link"
		}
	}
	name := filepath.FromSlash(rel)
	out, err := dst.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm()|0o200)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return 0, "already present in the worktree"
		}
		return 0, "could not be created in the worktree"
	}
	limit := min(limits.MaxFileSize, budget)
	n, err := io.Copy(out, io.LimitReader(in, limit+1))
	cerr := out.Close()
	if err != nil || cerr != nil || n > limit {
		_ = dst.Remove(name)
		if n > limit {
			return 0, "grew past the size limit while being copied"
		}
		return 0, "copy failed"
	}
	return n, ""
}

func readRegular(p string, fi fs.FileInfo, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !os.SameFile(fi, st) {
		return nil, errors.New("changed")
	}
	return io.ReadAll(io.LimitReader(f, limit))
}
