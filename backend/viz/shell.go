package viz

import (
	"bytes"
	_ "embed"
	"path"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

var (
	//go:embed assets/d3-7.9.2.min.js
	d3JS []byte
	//go:embed assets/helpers.js
	helpersJS []byte
	//go:embed assets/guest.js
	guestJS []byte
	//go:embed assets/shell.css
	shellCSS []byte
)

// D3Version is the bundled D3 release.
const D3Version = "7.9.2"

// CSP is the policy of every visualization response. sandbox gives the
// document an opaque origin even if a caller forgets the iframe attribute;
// default-src 'none' leaves no fetch, frame, worker, font or remote-asset
// source; forms are blocked by the sandbox (no allow-forms).
const CSP = "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"

// metaCSP repeats the policy inside the page (a meta policy cannot carry
// sandbox): a second line of defence should the header be lost.
const metaCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"

// Theme is the colour scheme of the host window, passed by the card.
type Theme string

const (
	Light Theme = "light"
	Dark  Theme = "dark"
)

// d3Src matches the src of a fragment's own D3 script tag (a CDN copy the
// model habitually adds): d3.js, d3.min.js, d3.v7.min.js, …/d3@7/dist/d3.min.js.
var d3Src = regexp.MustCompile(`(?i)^d3(\.v\d+)?(\.min)?\.js$`)

// Shell wraps a fragment in the host page: CSP meta, base styles, the error
// and size reporter, D3 and the chart helpers, then the fragment as the body.
// A full document (doctype, <html>, <head> or <body>) is refused with
// INVALID_ARGUMENT; the fragment's own D3 script tags are dropped.
func Shell(fragment []byte, theme Theme) ([]byte, error) {
	body, err := prepareFragment(fragment)
	if err != nil {
		return nil, err
	}
	if theme != Dark {
		theme = Light
	}
	var b bytes.Buffer
	b.Grow(len(d3JS) + len(helpersJS) + len(body) + 4096)
	// The reporter turns a page line into a fragment line with this offset.
	offset := shellLines()
	b.WriteString(`<!DOCTYPE html><html data-theme="` + string(theme) + `" data-fragment-line="` + strconv.Itoa(offset) + `"><head><meta charset="utf-8">`)
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + metaCSP + `">`)
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">`)
	b.WriteString("<style>\n")
	b.Write(shellCSS)
	b.WriteString("</style>\n<script>\n")
	b.Write(guestJS)
	b.WriteString("</script>\n<script>\n")
	b.Write(d3JS)
	b.WriteString("</script>\n<script>\n")
	b.Write(helpersJS)
	b.WriteString("</script>\n</head><body>\n")
	b.Write(body)
	b.WriteString("\n</body></html>\n")
	return b.Bytes(), nil
}

// shellLines is the number of line breaks in the page before the fragment.
func shellLines() int {
	n := 9 // the ones Shell writes itself
	for _, part := range [][]byte{shellCSS, guestJS, d3JS, helpersJS} {
		n += bytes.Count(part, []byte("\n"))
	}
	return n
}

// prepareFragment refuses a full document and drops D3 script tags.
func prepareFragment(fragment []byte) ([]byte, error) {
	var out bytes.Buffer
	z := html.NewTokenizer(bytes.NewReader(fragment))
	dropping := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break // io.EOF: a tokenizer reading from memory fails no other way
		}
		raw := z.Raw()
		switch tt {
		case html.DoctypeToken:
			return nil, fullDocument("<!DOCTYPE>")
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch a := atom.Lookup(name); a {
			case atom.Html, atom.Head, atom.Body:
				return nil, fullDocument("<" + a.String() + ">")
			case atom.Script:
				if src := attr(z, hasAttr, "src"); src != "" && isD3Src(src) {
					dropping = tt == html.StartTagToken
					continue
				}
			}
		case html.EndTagToken:
			if dropping {
				if name, _ := z.TagName(); atom.Lookup(name) == atom.Script {
					dropping = false
					continue
				}
			}
		}
		if !dropping {
			out.Write(raw)
		}
	}
	return out.Bytes(), nil
}

func fullDocument(what string) error {
	return errs.New(errs.InvalidArgument, "this visualization is a full HTML document (it has %s); write only the fragment that goes inside <body>: the host page provides the document, D3 and the viz helpers", what)
}

func isD3Src(src string) bool {
	u := strings.SplitN(strings.SplitN(src, "?", 2)[0], "#", 2)[0]
	return d3Src.MatchString(path.Base(u))
}

// attr returns the value of the named attribute of the current tag.
func attr(z *html.Tokenizer, more bool, name string) string {
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if string(k) == name {
			return string(v)
		}
	}
	return ""
}
