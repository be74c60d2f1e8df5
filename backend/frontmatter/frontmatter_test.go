package frontmatter_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/frontmatter"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		has     bool
		fields  map[string]any
		keys    []string
		body    string
		wantErr error
		errText string // a part of the message the user reads
	}{
		{name: "plain", in: "---\nname: a\ntools: [Read, Grep]\n---\nHello\n",
			has: true, fields: map[string]any{"name": "a", "tools": []any{"Read", "Grep"}}, keys: []string{"name", "tools"}, body: "Hello\n"},
		{name: "key order kept", in: "---\nz: 1\na: 2\n---\n", has: true,
			fields: map[string]any{"z": 1, "a": 2}, keys: []string{"z", "a"}, body: ""},
		{name: "byte-order mark and CRLF", in: "\uFEFF---\r\nname: a\r\n---\r\nline 1\r\nline 2\r\n",
			has: true, fields: map[string]any{"name": "a"}, keys: []string{"name"}, body: "line 1\nline 2\n"},
		{name: "trailing blanks on the fences", in: "--- \nname: a\n---\t\nbody", has: true,
			fields: map[string]any{"name": "a"}, keys: []string{"name"}, body: "body"},
		{name: "closing fence at end of file", in: "---\nname: a\n---", has: true,
			fields: map[string]any{"name": "a"}, keys: []string{"name"}, body: ""},
		{name: "empty block", in: "---\n---\nbody\n", has: true, fields: map[string]any{}, body: "body\n"},
		{name: "no front matter", in: "# Title\n---\nname: a\n", body: "# Title\n---\nname: a\n"},
		{name: "empty file", in: "", body: ""},
		{name: "a longer dash line is not a fence", in: "----\nname: a\n", body: "----\nname: a\n"},
		{name: "body keeps later fences", in: "---\na: 1\n---\ntext\n---\nmore\n", has: true,
			fields: map[string]any{"a": 1}, keys: []string{"a"}, body: "text\n---\nmore\n"},
		{name: "unterminated", in: "---\nname: a\nbody\n", wantErr: frontmatter.ErrUnterminated, errText: "closing --- line"},
		{name: "bad YAML names the file's line", in: "---\nname: a\n  bad: [\n---\n", wantErr: frontmatter.ErrSyntax, errText: "line 3"},
		{name: "duplicate key", in: "---\na: 1\na: 2\n---\n", wantErr: frontmatter.ErrSyntax, errText: "already defined"},
		{name: "a list is not a mapping", in: "---\n- a\n- b\n---\n", wantErr: frontmatter.ErrNotMapping},
		{name: "a scalar is not a mapping", in: "---\njust text\n---\n", wantErr: frontmatter.ErrNotMapping},
		{name: "not UTF-8", in: "---\na: \xff\n---\n", wantErr: frontmatter.ErrNotUTF8},
		{name: "too large", in: "---\na: 1\n---\n" + strings.Repeat("x", frontmatter.MaxSize), wantErr: frontmatter.ErrTooLarge, errText: "the limit is 131072"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := frontmatter.Parse([]byte(tt.in))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.errText) {
					t.Fatalf("err = %v, want %v containing %q", err, tt.wantErr, tt.errText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if doc.HasFrontMatter != tt.has || doc.Body != tt.body || !reflect.DeepEqual(doc.Keys, tt.keys) {
				t.Errorf("got has=%v keys=%q body=%q", doc.HasFrontMatter, doc.Keys, doc.Body)
			}
			if len(tt.fields) > 0 || len(doc.Fields) > 0 {
				if !reflect.DeepEqual(doc.Fields, tt.fields) {
					t.Errorf("fields = %#v, want %#v", doc.Fields, tt.fields)
				}
			}
		})
	}
}

// A "billion laughs" document fits in the size limit but would expand to
// gigabytes: it must fail, not eat the machine.
func TestAliasBombFails(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na0: &a0 [x,x,x,x,x,x,x,x,x,x]\n")
	for i := 1; i < 12; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("---\n")
	if len(b.String()) > frontmatter.MaxSize {
		t.Fatalf("the bomb is %d bytes, over the limit: it would not reach the decoder", b.Len())
	}
	if _, err := frontmatter.Parse([]byte(b.String())); !errors.Is(err, frontmatter.ErrSyntax) {
		t.Fatalf("err = %v, want a refusal", err)
	}
}

func TestMarshalRoundTrips(t *testing.T) {
	type meta struct {
		Name  string   `yaml:"name"`
		Tools []string `yaml:"tools,omitempty"`
		Desc  string   `yaml:"description"`
	}
	in := meta{Name: "a", Tools: []string{"Read", "inherit"}, Desc: "says: \"hi\" # not a comment\n---"}
	data, err := frontmatter.Marshal(in, "Prompt body")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := frontmatter.Parse(data)
	if err != nil {
		t.Fatalf("%v in\n%s", err, data)
	}
	want := map[string]any{"name": "a", "tools": []any{"Read", "inherit"}, "description": in.Desc}
	if !reflect.DeepEqual(doc.Fields, want) || doc.Body != "\nPrompt body\n" {
		t.Errorf("round trip: %#v body %q from\n%s", doc.Fields, doc.Body, data)
	}
}

// FuzzParse: any input either fails with one of the package's errors or
// gives a document whose body is part of the input and whose keys are its
// fields.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"---\nname: a\ntools: Read, Grep\n---\nbody\n",
		"\uFEFF---\r\nname: a\r\n---\r\n",
		"---\na: &x [1]\nb: *x\n---\n",
		"---\nname: a\n", "---\n---\n", "---", "", "text only",
		"---\n- a\n---\n", "---\na: 1\na: 2\n---\n", "---\n{a: 1}\n---\nb",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := frontmatter.Parse(data)
		if err != nil {
			for _, known := range []error{frontmatter.ErrTooLarge, frontmatter.ErrNotUTF8, frontmatter.ErrUnterminated, frontmatter.ErrSyntax, frontmatter.ErrNotMapping} {
				if errors.Is(err, known) {
					return
				}
			}
			t.Fatalf("unexpected error %v", err)
		}
		normalized := strings.ReplaceAll(string(data), "\r\n", "\n")
		if !strings.HasSuffix(normalized, doc.Body) {
			t.Fatalf("body %q is not the end of the input", doc.Body)
		}
		if len(doc.Keys) != len(doc.Fields) {
			t.Fatalf("keys %q vs %d fields", doc.Keys, len(doc.Fields))
		}
		if !doc.HasFrontMatter && len(doc.Fields) > 0 {
			t.Fatal("fields without front matter")
		}
	})
}

// Keys the file does not spell out still get a place in Keys.
func TestKeysOfMergesAndNullKeys(t *testing.T) {
	doc, err := frontmatter.Parse([]byte("---\nbase: &b {tools: Read}\n<<: *b\nname: x\n~: y\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"base", "name", "tools"}; !reflect.DeepEqual(doc.Keys, want) {
		t.Errorf("keys = %q, want %q (fields %v)", doc.Keys, want, doc.Fields)
	}
}
