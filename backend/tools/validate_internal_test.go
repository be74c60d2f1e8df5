package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// referenceTree is what validateArgs did before floatNumbers: encode the
// UseNumber tree and decode the bytes again.
func referenceTree(tree map[string]any) (any, error) {
	b, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}

func decodeWithNumbers(t testing.TB, doc string) (map[string]any, bool) {
	var tree map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil || tree == nil {
		return nil, false
	}
	return tree, true
}

// checkFloatNumbers asserts floatNumbers turns the UseNumber tree of doc
// into exactly the tree decoding its encoding gives, and fails exactly
// where that decoding fails.
func checkFloatNumbers(t testing.TB, doc string) {
	tree, ok := decodeWithNumbers(t, doc)
	if !ok {
		return
	}
	again, _ := decodeWithNumbers(t, doc)
	want, wantErr := referenceTree(again)
	err := floatNumbers(tree)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: floatNumbers error %v, decoding error %v", doc, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(any(tree), want) {
		t.Fatalf("%s: floatNumbers gave %#v, decoding gives %#v", doc, tree, want)
	}
}

var floatNumberDocs = []string{
	`{}`,
	`{"text":"hello"}`,
	`{"n":1,"f":-2.5,"e":1e2,"z":-0,"big":12345678901234567890}`,
	`{"a":[1,[2,{"b":3.25}],"x",true,null],"m":{"n":{"o":[0.1]}}}`,
	`{"s":"\u003c\u0026\ud83d\ude00","bad":"\xff"}`,
	`{"huge":1e400}`,
	`{"deep":[[[{"huge":-1e309}]]]}`,
	`{"tiny":1e-400}`,
}

func TestFloatNumbersMatchesDecoding(t *testing.T) {
	for _, doc := range floatNumberDocs {
		checkFloatNumbers(t, doc)
	}
}

func FuzzFloatNumbers(f *testing.F) {
	for _, doc := range floatNumberDocs {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) { checkFloatNumbers(t, doc) })
}

type schemaTool struct{ spec Spec }

func (s schemaTool) Spec() Spec                      { return s.spec }
func (schemaTool) Run(context.Context, *Call) Result { return Result{} }

// TestValidateArgsOneTree: the arguments come back as the canonical bytes
// and a tree with float64 numbers, the schema's number rules still apply to
// the converted tree, aliases fold, and a number no float64 holds is
// refused.
func TestValidateArgsOneTree(t *testing.T) {
	tool := schemaTool{Spec{Name: "T", Aliases: map[string]string{"file_path": "path"},
		Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"file_path":{"type":"string"},` +
			`"n":{"type":"integer","minimum":1},"xs":{"type":"array","items":{"type":"number","maximum":10}}},"additionalProperties":false}`)}}
	schema, err := CompileSchema(tool.spec)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args string
		canonical  string
		fields     map[string]any
		wantErr    string // the field named, when refused
	}{
		{"numbers as float64", `{"path":"a","n":3,"xs":[1.5,2e0]}`, `{"n":3,"path":"a","xs":[1.5,2e0]}`,
			map[string]any{"path": "a", "n": 3.0, "xs": []any{1.5, 2.0}}, ""},
		{"alias folded", `{"file_path":"b","n":1}`, `{"n":1,"path":"b"}`, map[string]any{"path": "b", "n": 1.0}, ""},
		{"minimum applies", `{"path":"a","n":0}`, "", nil, "n"},
		{"not an integer", `{"path":"a","n":1.5}`, "", nil, "n"},
		{"nested maximum applies", `{"path":"a","n":1,"xs":[11]}`, "", nil, "xs"},
		{"out of float64's range", `{"path":"a","n":1e400}`, "", nil, ""},
		{"unknown argument", `{"path":"a","n":1,"zzz":1}`, "", nil, "zzz"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			canonical, fields, err := schema.Validate(tool, json.RawMessage(tc.args))
			if tc.fields == nil {
				if err == nil {
					t.Fatalf("accepted %s as %s", tc.args, canonical)
				}
				if e := errs.As(err); e == nil || e.Code != errs.InvalidArgument || (tc.wantErr != "" && e.Details["field"] != tc.wantErr) {
					t.Fatalf("error %v, want INVALID_ARGUMENT on field %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(canonical) != tc.canonical || !reflect.DeepEqual(fields, tc.fields) {
				t.Fatalf("got %s %#v, want %s %#v", canonical, fields, tc.canonical, tc.fields)
			}
		})
	}
}
