package checkpoint

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestOverwriteFromScriptJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    Overwrite
		covered []string
		kept    []string
	}{
		{`true`, Overwrite{All: true}, []string{"a", "b/c"}, nil},
		{`false`, Overwrite{}, nil, []string{"a"}},
		{`["a","b/c"]`, Overwrite{Paths: []string{"a", "b/c"}}, []string{"a", "b/c"}, []string{"d", "b"}},
		{`{"paths":["x"]}`, Overwrite{Paths: []string{"x"}}, []string{"x"}, []string{"y"}},
		{`[]`, Overwrite{Paths: []string{}}, nil, []string{"a"}},
	}
	for _, tt := range tests {
		var o Overwrite
		if err := json.Unmarshal([]byte(tt.in), &o); err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if o.All != tt.want.All || !slices.Equal(o.Paths, tt.want.Paths) {
			t.Errorf("%s = %+v, want %+v", tt.in, o, tt.want)
		}
		for _, p := range tt.covered {
			if !o.covers(p) {
				t.Errorf("%s does not cover %q", tt.in, p)
			}
		}
		for _, p := range tt.kept {
			if o.covers(p) {
				t.Errorf("%s covers %q", tt.in, p)
			}
		}
	}
	var o Overwrite
	if err := json.Unmarshal([]byte(`"yes"`), &o); errs.CodeOf(err) != errs.InvalidArgument {
		t.Errorf(`"yes": err = %v, want INVALID_ARGUMENT`, err)
	}
}
