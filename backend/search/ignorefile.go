package search

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
)

// verdict is the tri-state outcome of an ignore or override match.
type verdict uint8

const (
	noMatch   verdict = iota // no line matched: ask the next source
	ignored                  // excluded
	whitelist                // explicitly included ("!" line, or include glob)
)

// ignoreRule is one gitignore line translated to a doublestar glob the way
// ripgrep's ignore crate translates it (GitignoreBuilder::add_line), so that
// both engines agree on every line rather than on git's prose.
type ignoreRule struct {
	glob      string
	whitelist bool // line started with "!"
	dirOnly   bool // line ended with "/"
}

// ignoreFile is the ordered rule list of one ignore file (or one include).
type ignoreFile struct {
	rules []ignoreRule
}

// parseIgnoreFile compiles the lines of a .gitignore/.ignore/.rgignore.
// Invalid globs are dropped, as rg drops them.
func parseIgnoreFile(data []byte) *ignoreFile {
	f := &ignoreFile{}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	for _, line := range strings.Split(string(data), "\n") {
		if r, ok := parseIgnoreLine(line); ok {
			f.rules = append(f.rules, r)
		}
	}
	return f
}

// parseIgnoreLine translates one line; ok is false for blanks, comments and
// invalid globs.
func parseIgnoreLine(line string) (ignoreRule, bool) {
	var r ignoreRule
	if strings.HasPrefix(line, "#") {
		return r, false
	}
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
	}
	if line == "" {
		return r, false
	}
	absolute := false
	if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
		absolute = strings.HasPrefix(line, "/")
	} else {
		if strings.HasPrefix(line, "!") {
			r.whitelist = true
			line = line[1:]
		}
		if strings.HasPrefix(line, "/") {
			// A leading slash anchors the glob to the file's directory.
			line = line[1:]
			absolute = true
		}
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimSuffix(line, "/")
		line = strings.TrimSuffix(line, `\`) // an escaped trailing slash
	}
	glob := line
	// Without a slash the glob matches at any depth.
	if !absolute && !strings.Contains(line, "/") && !strings.HasPrefix(glob, "**/") && glob != "**" {
		glob = "**/" + glob
	}
	// "dir/**" matches what is inside dir, not dir itself.
	if strings.HasSuffix(glob, "/**") {
		glob += "/*"
	}
	if glob == "" || !doublestar.ValidatePattern(glob) {
		return r, false
	}
	r.glob = glob
	return r, true
}

// match applies the rules to rel, a '/'-separated path relative to the
// directory the file lives in. The last matching line wins.
func (f *ignoreFile) match(rel string, isDir bool) verdict {
	if f == nil {
		return noMatch
	}
	for i := len(f.rules) - 1; i >= 0; i-- {
		r := f.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if doublestar.MatchUnvalidated(r.glob, rel) {
			if r.whitelist {
				return whitelist
			}
			return ignored
		}
	}
	return noMatch
}

// override is the include glob, with the semantics of rg -g: a gitignore
// line whose polarity is inverted, where a positive glob also excludes the
// files it does not match.
type override struct {
	rules      *ignoreFile
	whitelists int
}

// parseOverride compiles one include glob (rg -g syntax). ok is false when
// the glob is invalid.
func parseOverride(globs ...string) (*override, bool) {
	o := &override{rules: &ignoreFile{}}
	for _, g := range globs {
		r, ok := parseIgnoreLine(g)
		if !ok {
			if strings.TrimSpace(g) == "" || strings.HasPrefix(g, "#") {
				continue
			}
			return nil, false
		}
		r.whitelist = !r.whitelist
		if r.whitelist {
			o.whitelists++
		}
		o.rules.rules = append(o.rules.rules, r)
	}
	return o, true
}

// match reports the override's verdict for rel (relative to the root).
func (o *override) match(rel string, isDir bool) verdict {
	if o == nil || len(o.rules.rules) == 0 {
		return noMatch
	}
	v := o.rules.match(rel, isDir)
	if v == noMatch && o.whitelists > 0 && !isDir {
		return ignored
	}
	return v
}
