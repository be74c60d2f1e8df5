// Package frontmatter splits a Markdown file into its YAML front matter (a
// block between two "---" lines at the very top) and its body, and decodes
// the front matter. Subagent definitions and skills share it, so a file that
// one accepts the other reads the same way.
//
// Front matter comes from files anyone can write (a cloned repository), so
// the input is bounded: a file over MaxSize is refused before any YAML is
// decoded, which also caps what an alias bomb can expand (yaml/v3 refuses
// excessive aliasing on top of that).
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxSize is the largest file Parse accepts: far above any real definition
// or skill, small enough that decoding it is cheap.
const MaxSize = 128 << 10

// Errors Parse wraps; the message around them names the line where it helps.
var (
	ErrTooLarge     = errors.New("file too large")
	ErrNotUTF8      = errors.New("not valid UTF-8 text")
	ErrUnterminated = errors.New("front matter has no closing --- line")
	ErrSyntax       = errors.New("front matter is not valid YAML")
	ErrNotMapping   = errors.New("front matter is not a list of key: value lines")
)

// Document is a parsed file.
type Document struct {
	// HasFrontMatter is false when the file does not start with a "---"
	// line; then Fields is empty and Body is the whole text.
	HasFrontMatter bool
	// Fields holds the front matter's top-level keys with their decoded
	// values (strings, ints, floats, bools, nil, []any, map[string]any).
	Fields map[string]any
	// Keys lists Fields' keys in the order the file has them, so callers
	// can warn about unknown ones deterministically.
	Keys []string
	// Body is the text after the front matter, with CRLF turned into LF.
	Body string
}

// Parse splits data and decodes its front matter. A byte-order mark and
// CRLF line ends are accepted. Errors wrap the Err* values above.
func Parse(data []byte) (Document, error) {
	if len(data) > MaxSize {
		return Document{}, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(data), MaxSize)
	}
	if !utf8.Valid(data) {
		return Document{}, ErrNotUTF8
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	front, body, ok, err := split(text)
	if err != nil || !ok {
		return Document{Body: text}, err
	}
	doc := Document{HasFrontMatter: true, Fields: map[string]any{}, Body: body}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(front), &root); err != nil {
		return Document{}, fmt.Errorf("%w: %s", ErrSyntax, yamlReason(err))
	}
	if root.Kind == 0 { // an empty block: no keys
		return doc, nil
	}
	m := &root
	if m.Kind == yaml.DocumentNode && len(m.Content) == 1 {
		m = m.Content[0]
	}
	if m.Kind != yaml.MappingNode {
		return Document{}, fmt.Errorf("%w (line 2)", ErrNotMapping)
	}
	if err := m.Decode(&doc.Fields); err != nil {
		return Document{}, fmt.Errorf("%w: %s", ErrSyntax, yamlReason(err))
	}
	doc.Keys = keyOrder(m, doc.Fields)
	return doc, nil
}

// keyOrder lists fields' keys in the order the mapping m writes them; keys
// the file does not spell out (a "<<" merge, a null key) follow, sorted.
func keyOrder(m *yaml.Node, fields map[string]any) []string {
	keys := make([]string, 0, len(fields))
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if _, ok := fields[k]; ok && !seen[k] {
			keys, seen[k] = append(keys, k), true
		}
	}
	rest := make([]string, 0, len(fields)-len(keys))
	for k := range fields {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(keys, rest...)
}

// split cuts text (LF line ends) into the front matter's YAML and the body.
// ok is false when the first line is not "---".
func split(text string) (front, body string, ok bool, err error) {
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return "", text, false, nil
	}
	offset := 0
	for line := 2; ; line++ {
		end := strings.IndexByte(rest[offset:], '\n')
		var l string
		if end < 0 {
			l = rest[offset:]
		} else {
			l = rest[offset : offset+end]
		}
		if strings.TrimRight(l, " \t") == "---" {
			front = rest[:offset]
			if end >= 0 {
				body = rest[offset+end+1:]
			}
			return front, body, true, nil
		}
		if end < 0 {
			return "", "", false, fmt.Errorf("%w: it opens on line 1; end it with a line holding only ---", ErrUnterminated)
		}
		offset += end + 1
	}
}

// yamlLine finds the library's line numbers, which count from the line
// after the opening ---.
var yamlLine = regexp.MustCompile(`\bline (\d+)`)

// yamlReason is the YAML library's message without its "yaml: " prefix and
// with its line numbers counted from the top of the file.
func yamlReason(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	return yamlLine.ReplaceAllStringFunc(msg, func(m string) string {
		n, convErr := strconv.Atoi(strings.TrimPrefix(m, "line "))
		if convErr != nil {
			return m
		}
		return "line " + strconv.Itoa(n+1)
	})
}

// Marshal renders fields as front matter followed by body: the inverse of
// Parse for the values it decodes. v is a struct or map the YAML library
// can encode (its field order is kept).
func Marshal(v any, body string) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	buf.WriteString("---\n\n")
	buf.WriteString(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}
