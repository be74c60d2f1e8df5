package hashline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func itoa(n int) string { return strconv.Itoa(n) }

// ResolvedBlock echoes how a block location (`N*`, `>N*`) resolved, in the
// numbering of the tagged snapshot the ops refer to. Every line of the block
// is an anchor, so the model sees exactly which lines it claimed.
type ResolvedBlock struct {
	Line  int    `json:"line"` // N as written
	Start int    `json:"start"`
	End   int    `json:"end"`
	Lang  string `json:"lang"`
}

// blockLang picks the resolver from the path the model uses. Languages
// without a resolver decline, naming the explicit range form.
func blockLang(display string) string {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(display, `\`, "/"))) {
	case ".go":
		return "go"
	case ".md", ".markdown":
		return "markdown"
	}
	return ""
}

// resolver resolves blocks on one text, parsing it at most once.
type resolver struct {
	lang   string
	canon  string
	lines  []string
	limit  int
	parsed bool
	fset   *token.FileSet
	file   *ast.File
	perr   error
}

// resolve returns the block that opens at line n (1-based, inclusive).
func (r *resolver) resolve(o op) (int, int, *EditError) {
	n := o.a
	decline := func(reason string) *EditError {
		return newErr(errs.EditBlockUnresolved, RetryFixOps,
			"`%s`: %s; name the lines explicitly with `PUT %d.=M:` (or `CUT %d.=M`)", o.src, reason, n, n).
			with("opsLine", o.opsLine).with("line", n).with("lang", r.lang).with("reason", reason).
			with("alternative", "PUT "+itoa(n)+".=M:")
	}
	switch r.lang {
	case "go":
		if len(r.canon) > r.limit {
			return 0, 0, limitErr("block parse input in bytes", r.limit, len(r.canon))
		}
		s, e, reason := r.goBlock(n)
		if reason != "" {
			return 0, 0, decline(reason)
		}
		return s, e, nil
	case "markdown":
		if len(r.canon) > r.limit {
			return 0, 0, limitErr("block parse input in bytes", r.limit, len(r.canon))
		}
		s, e, reason := mdBlock(r.lines, n)
		if reason != "" {
			return 0, 0, decline(reason)
		}
		return s, e, nil
	}
	return 0, 0, decline("blocks resolve only in Go and Markdown files")
}

// goBlock takes the outermost node of at least two lines that starts at
// line n. Doc comments are separate nodes (a FuncDecl starts at `func`), so a
// block never silently swallows or drops the comment above it.
func (r *resolver) goBlock(n int) (int, int, string) {
	if !r.parsed {
		r.parsed = true
		r.fset = token.NewFileSet()
		r.file, r.perr = parser.ParseFile(r.fset, "", r.canon, parser.ParseComments|parser.SkipObjectResolution)
	}
	if r.perr != nil {
		return 0, 0, "the file does not parse as Go"
	}
	best := 0
	consider := func(nd ast.Node) (start, end int) {
		if !nd.Pos().IsValid() || !nd.End().IsValid() {
			return 0, 0
		}
		s, e := r.fset.Position(nd.Pos()).Line, r.fset.Position(nd.End()).Line
		if s == n && e-s+1 >= 2 && e > best {
			best = e
		}
		return s, e
	}
	ast.Inspect(r.file, func(nd ast.Node) bool {
		if nd == nil {
			return false
		}
		if _, ok := nd.(*ast.File); ok {
			return true // the whole file is never a block
		}
		s, e := consider(nd)
		return s <= n && e >= n
	})
	for _, cg := range r.file.Comments {
		consider(cg)
	}
	if best == 0 {
		return 0, 0, "no Go declaration, statement or comment of two or more lines starts at line " + itoa(n)
	}
	return n, best, ""
}

var (
	mdHeadingRE = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]|$)`)
	mdFenceRE   = regexp.MustCompile("^ {0,3}(```+|~~~+)")
)

// mdBlock resolves a Markdown heading section: the heading at line n up to
// the next heading of the same or a higher level, ignoring fenced code.
func mdBlock(lines []string, n int) (int, int, string) {
	level := 0
	fence := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := mdFenceRE.FindStringSubmatch(l); m != nil {
			switch {
			case fence == "":
				fence = m[1]
			case strings.HasPrefix(m[1], fence[:1]) && len(m[1]) >= len(fence) && strings.TrimSpace(l[strings.Index(l, m[1])+len(m[1]):]) == "":
				fence = ""
			}
			if i+1 == n {
				return 0, 0, "line " + itoa(n) + " is a code fence, not a heading"
			}
			continue
		}
		h := 0
		if fence == "" {
			if m := mdHeadingRE.FindStringSubmatch(l); m != nil {
				h = len(m[1])
			}
		}
		switch {
		case i+1 == n:
			if h == 0 {
				return 0, 0, "line " + itoa(n) + " is not a Markdown ATX heading (`#` … `######`)"
			}
			level = h
		case i+1 > n && h > 0 && h <= level:
			return n, i, ""
		}
	}
	return n, len(lines), ""
}
