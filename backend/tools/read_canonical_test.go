package tools_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// readWithStore runs Read on path in w with a snapshot store, and returns
// the result and what the store recorded.
func readWithStore(t *testing.T, w *ws, path string, args map[string]any) (tools.Result, []hashline.Snapshot) {
	t.Helper()
	args["path"] = path
	raw, _ := json.Marshal(args)
	folded, _, err := w.registry.Validate("Read", raw)
	if err != nil {
		t.Fatal(err)
	}
	tl, _ := w.registry.Lookup("Read")
	target, err := w.resolver.Resolve(path)
	if err != nil {
		t.Fatal(err)
	}
	st := hashline.NewStore(hashline.DefaultLimits(), nil)
	res := tl.Run(t.Context(), &tools.Call{SessionID: "s", Args: folded, Target: &target, Resolver: w.resolver, Edits: st})
	return res, st.Versions(w.resolver.Key(target))
}

// Read of a file that is its own canonical text takes a fast path (hash
// the bytes, cut out only the window). Its BOM twin takes the decoding
// path and, the BOM being hidden from Read and the tag, must give the
// same result and record the same version, byte for byte.
func TestReadCanonicalFastPathMatchesDecode(t *testing.T) {
	var many strings.Builder
	for i := range 3000 {
		many.WriteString(strings.Repeat("y", i%70) + "\n")
	}
	big := strings.Repeat(strings.Repeat("z", 99)+"\n", (hashline.MaxRetainedText/100)+10) // not retained
	contents := map[string]string{
		"greet":        greet,
		"empty":        "",
		"newline":      "\n",
		"unterminated": "a\nb",
		"blank lines":  "\n\n\nx\n\n",
		"wide":         "a\n" + strings.Repeat("é", 2100) + "\nc",
		"many":         many.String(),
		"big":          big,
	}
	argsList := []map[string]any{
		{},
		{"offset": 2},
		{"offset": 3, "limit": 1},
		{"offset": 2, "limit": 10, "wide": true},
		{"offset": 2990, "limit": 20},
		{"offset": 1, "limit": 2000},
		{"offset": 5000},
	}
	for name, body := range contents {
		w := newWS(t, map[string]string{"plain.txt": body, "bom.txt": "\xEF\xBB\xBF" + body})
		for _, args := range argsList {
			plain, pv := readWithStore(t, w, "plain.txt", copyArgs(args))
			twin, tv := readWithStore(t, w, "bom.txt", copyArgs(args))
			plain.Content = strings.Replace(plain.Content, "[plain.txt#", "[bom.txt#", 1)
			plain.Message = strings.ReplaceAll(plain.Message, "plain.txt", "bom.txt")
			plain.Path = twin.Path
			if !reflect.DeepEqual(plain, twin) {
				t.Errorf("%s %v:\nfast   %+v\ndecode %+v", name, args, plain, twin)
				continue
			}
			if len(pv) != len(tv) {
				t.Errorf("%s %v: recorded %d versions vs %d", name, args, len(pv), len(tv))
				continue
			}
			for i := range pv {
				pv[i].At, tv[i].At = time.Time{}, time.Time{}
				if !reflect.DeepEqual(pv[i], tv[i]) {
					t.Errorf("%s %v: recorded\nfast   %+v\ndecode %+v", name, args, pv[i], tv[i])
				}
			}
		}
	}
}

func copyArgs(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
