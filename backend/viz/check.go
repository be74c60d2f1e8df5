package viz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Finding is one problem the static check found in a fragment.
type Finding struct {
	Line    int    `json:"line,omitempty"` // 1-based line in the file; 0 = the whole file
	Kind    string `json:"kind"`           // syntax | missing-id | full-document | blocked
	Message string `json:"message"`
}

// Report is the static check of a fragment: its inline scripts compiled
// (never run) and the literal element ids they use looked up in the markup.
type Report struct {
	Scripts  int       `json:"scripts"`
	IDs      []string  `json:"ids"` // element ids the scripts use, sorted
	Problems []Finding `json:"problems"`
}

// maxProblems bounds the list; the model fixes these first and writes again.
const maxProblems = 20

// idCallees are the calls whose first literal argument names an element id.
var idCallees = map[string]bool{
	"viz.render": true, "viz.chart": true, "viz.bar": true, "viz.line": true, "viz.scatter": true,
	"getElementById": true,
}

// idSelector matches a selector whose first compound starts with #id.
var idSelector = regexp.MustCompile(`^#([A-Za-z_][\w-]*)(?:$|[\s>+~.:\[,])`)

// Check parses fragment without running anything: every inline script must
// compile, and every literal id passed to viz.render/chart/bar/line/scatter,
// getElementById, querySelector("#…") or d3.select("#…") must be the id of
// an element in the markup (or one a script sets literally).
func Check(fragment []byte) Report {
	c := checker{have: map[string]bool{}}
	c.scan(fragment)
	r := Report{Scripts: c.scripts, IDs: []string{}, Problems: []Finding{}}
	seen := map[string]bool{}
	for _, u := range c.uses {
		if !seen[u.id] {
			seen[u.id] = true
			r.IDs = append(r.IDs, u.id)
		}
		if !c.have[u.id] {
			c.add(Finding{Line: u.line, Kind: "missing-id",
				Message: fmt.Sprintf("%s targets id %q, but no element has id=%q", u.call, u.id, u.id)})
			c.have[u.id] = true // report each id once
		}
	}
	slices.Sort(r.IDs)
	slices.SortStableFunc(c.problems, func(a, b Finding) int { return a.Line - b.Line })
	if len(c.problems) > maxProblems {
		c.problems = c.problems[:maxProblems]
	}
	r.Problems = append(r.Problems, c.problems...)
	return r
}

type idUse struct {
	id, call string
	line     int
}

type checker struct {
	have     map[string]bool
	uses     []idUse
	problems []Finding
	scripts  int
}

func (c *checker) add(f Finding) { c.problems = append(c.problems, f) }

// scan walks the markup, collecting element ids and compiling scripts.
func (c *checker) scan(fragment []byte) {
	z := html.NewTokenizer(bytes.NewReader(fragment))
	line := 1
	inScript, scriptJS := false, false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		raw := z.Raw()
		start := line
		line += bytes.Count(raw, []byte("\n"))
		switch tt {
		case html.DoctypeToken:
			c.add(Finding{Line: start, Kind: "full-document", Message: "<!DOCTYPE> makes this a full document; write only the fragment that goes inside <body>"})
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			attrs := map[string]string{}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			if id := attrs["id"]; id != "" {
				c.have[id] = true
			}
			c.tag(atom.Lookup(name), string(name), attrs, start)
			if atom.Lookup(name) == atom.Script && tt == html.StartTagToken {
				inScript = true
				scriptJS = attrs["src"] == "" && isJSType(attrs["type"])
			}
		case html.EndTagToken:
			inScript = false
		case html.TextToken:
			if inScript && scriptJS {
				c.script(z.Text(), start)
			}
		}
	}
}

// tag reports elements and attributes the frame blocks.
func (c *checker) tag(a atom.Atom, name string, attrs map[string]string, line int) {
	switch a {
	case atom.Html, atom.Head, atom.Body:
		c.add(Finding{Line: line, Kind: "full-document", Message: fmt.Sprintf("<%s> makes this a full document; write only the fragment that goes inside <body>", name)})
	case atom.Script:
		if src := attrs["src"]; src != "" && !isD3Src(src) {
			c.add(Finding{Line: line, Kind: "blocked", Message: fmt.Sprintf("<script src=%q> is blocked (no external scripts); put the code inline. D3 %s and viz helpers are preloaded", src, D3Version)})
		}
	case atom.Iframe, atom.Frame, atom.Object, atom.Embed, atom.Form:
		c.add(Finding{Line: line, Kind: "blocked", Message: fmt.Sprintf("<%s> is blocked in a visualization; remove it", name)})
	case atom.Link:
		if attrs["href"] != "" {
			c.add(Finding{Line: line, Kind: "blocked", Message: fmt.Sprintf("<link href=%q> is blocked (no remote assets); put styles in a <style> element", attrs["href"])})
		}
	case atom.Img, atom.Audio, atom.Video, atom.Source:
		if src := attrs["src"]; src != "" && !strings.HasPrefix(strings.ToLower(src), "data:") {
			c.add(Finding{Line: line, Kind: "blocked", Message: fmt.Sprintf("<%s src=%q> is blocked (no remote or local files); use inline SVG or a data: URL", name, src)})
		}
	}
}

func isJSType(t string) bool {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "", "text/javascript", "application/javascript", "module":
		return true
	}
	return false
}

// script compiles one inline script and records the ids it uses and sets.
func (c *checker) script(src []byte, line int) {
	c.scripts++
	// The parser may keep or extend its input: give it a copy.
	ast, err := js.Parse(parse.NewInputBytes(bytes.Clone(src)), js.Options{})
	if err != nil {
		f := Finding{Line: line, Kind: "syntax", Message: "script does not compile: " + err.Error()}
		if pe, ok := err.(*parse.Error); ok {
			f.Line = line + pe.Line - 1
			f.Message = fmt.Sprintf("script does not compile: %s (column %d)", pe.Message, pe.Column)
		}
		c.add(f)
		return
	}
	v := &idVisitor{c: c, src: src, line: line}
	js.Walk(v, ast)
}

type idVisitor struct {
	c      *checker
	src    []byte
	line   int
	cursor int // where to look for the next literal, so repeats get later lines
}

func (v *idVisitor) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.CallExpr:
		callee, method := calleeName(n.X)
		arg0, raw0, ok0 := stringArg(n.Args, 0)
		switch {
		case !ok0:
		case idCallees[callee] || idCallees[method]:
			v.use(arg0, raw0, callee+"("+raw0+")")
		case method == "querySelector" || method == "querySelectorAll" || callee == "d3.select" || callee == "d3.selectAll":
			if m := idSelector.FindStringSubmatch(arg0); m != nil {
				v.use(m[1], raw0, callee+"("+raw0+")")
			}
		case (method == "setAttribute" || method == "attr") && arg0 == "id":
			if id, _, ok := stringArg(n.Args, 1); ok {
				v.c.have[id] = true
			}
		}
	case *js.BinaryExpr:
		// el.id = "name" creates an id a later lookup may use.
		if d, ok := n.X.(*js.DotExpr); ok && n.Op == js.EqToken && identName(d.Y) == "id" {
			if lit, ok := n.Y.(*js.LiteralExpr); ok && lit.TokenType == js.StringToken {
				if id, ok := unquote(lit.Data); ok {
					v.c.have[id] = true
				}
			}
		}
	}
	return v
}

func (v *idVisitor) Exit(js.INode) {}

func (v *idVisitor) use(id, raw, call string) {
	line := v.line
	if i := bytes.Index(v.src[v.cursor:], []byte(raw)); i >= 0 {
		line += bytes.Count(v.src[:v.cursor+i], []byte("\n"))
		v.cursor += i + len(raw)
	}
	v.c.uses = append(v.c.uses, idUse{id: id, call: call, line: line})
}

// calleeName returns "a.b" for a call of a.b(…) (only when a is a plain
// name) and the called method or function name b.
func calleeName(x js.IExpr) (callee, method string) {
	switch x := x.(type) {
	case *js.Var:
		return string(x.Data), string(x.Data)
	case *js.DotExpr:
		method = identName(x.Y)
		if obj, ok := x.X.(*js.Var); ok {
			return string(obj.Data) + "." + method, method
		}
		return "…." + method, method
	}
	return "", ""
}

func identName(n js.IExpr) string {
	switch n := n.(type) {
	case *js.LiteralExpr:
		return string(n.Data)
	case js.LiteralExpr:
		return string(n.Data)
	case *js.Var:
		return string(n.Data)
	}
	return ""
}

// stringArg returns argument i when it is a plain string literal, unquoted,
// and its source spelling.
func stringArg(args js.Args, i int) (string, string, bool) {
	if i >= len(args.List) {
		return "", "", false
	}
	lit, ok := args.List[i].Value.(*js.LiteralExpr)
	if !ok || lit.TokenType != js.StringToken {
		return "", "", false
	}
	s, ok := unquote(lit.Data)
	return s, string(lit.Data), ok
}

// unquote decodes a JS string literal without escapes (an id with escapes
// is left unchecked rather than guessed).
func unquote(lit []byte) (string, bool) {
	if len(lit) < 2 || bytes.IndexByte(lit, '\\') >= 0 {
		return "", false
	}
	q := lit[0]
	if (q != '"' && q != '\'') || lit[len(lit)-1] != q {
		return "", false
	}
	return string(lit[1 : len(lit)-1]), true
}

// Text is the check as the model reads it in the Write result. path is the
// fragment's absolute path, used in the line that shows the card.
func (r Report) Text(path string) string {
	var b strings.Builder
	show := "::visualize" + directiveJSON(path)
	if len(r.Problems) == 0 {
		fmt.Fprintf(&b, "visualization check: ok (%s compiled", plural(r.Scripts, "inline script"))
		if len(r.IDs) > 0 {
			fmt.Fprintf(&b, "; element ids used: %s", strings.Join(r.IDs, ", "))
		}
		b.WriteString(")\n")
		fmt.Fprintf(&b, "To show it, put this line on its own in your reply (outside code blocks), with a short title:\n%s", show)
		return b.String()
	}
	fmt.Fprintf(&b, "visualization check: %s\n", plural(len(r.Problems), "problem"))
	for _, p := range r.Problems {
		if p.Line > 0 {
			fmt.Fprintf(&b, "- line %d: %s\n", p.Line, p.Message)
		} else {
			fmt.Fprintf(&b, "- %s\n", p.Message)
		}
	}
	fmt.Fprintf(&b, "Fix with Edit, then show it with this line on its own in your reply:\n%s", show)
	return b.String()
}

func directiveJSON(path string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(path) // a string always encodes
	return `{"path":` + strings.TrimSuffix(b.String(), "\n") + `,"title":"…"}`
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
