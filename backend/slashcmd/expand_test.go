package slashcmd_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/slashcmd"
)

func TestSplitArgs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"a", []string{"a"}},
		{"a b  c", []string{"a", "b", "c"}},
		{`"a b" c`, []string{"a b", "c"}},
		{`'a b' "c d"`, []string{"a b", "c d"}},
		{`x"y z"w`, []string{"xy zw"}},                          // quotes join like the shell's
		{`""`, []string{""}},                                    // an empty quoted argument counts
		{`a\ b`, []string{"a b"}},                               // an escaped space
		{`"say \"hi\""`, []string{`say "hi"`}},                  // an escaped quote in quotes
		{`'it\s'`, []string{`it\s`}},                            // no escapes in single quotes
		{`"open quote runs on`, []string{"open quote runs on"}}, // unclosed: to the end
		{`trailing\`, []string{`trailing\`}},
		{"tab\tand\nnewline", []string{"tab", "and", "newline"}},
		{"ünï cödé", []string{"ünï", "cödé"}},
	} {
		if got := slashcmd.SplitArgs(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("SplitArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		name, template, args, want string
	}{
		{"arguments", "Review $ARGUMENTS now", "  the parser ", "Review the parser now"},
		{"positional", "From $1 to $2", `"src dir" dst`, "From src dir to dst"},
		{"missing positional is empty", "A=$1 B=$2 C=$3", "x", "A=x B= C="},
		{"no args at all", "Fix $1 and $ARGUMENTS.", "", "Fix  and ."},
		{"$9 is the last", "$9|$10", "1 2 3 4 5 6 7 8 9 10", "9|10"},
		{"$0 stays", "cost $0 $ $1", "x", "cost $0 $ x"},
		{"one pass", "$1 $2", `'$2' second`, "$2 second"},
		{"arguments keep quotes as typed", "[$ARGUMENTS]", `"a b" c`, `["a b" c]`},
		{"no placeholder appends", "Summarize the repo.", "briefly", "Summarize the repo.\n\nARGUMENTS: briefly"},
		{"no placeholder, no args", "Summarize the repo.", "   ", "Summarize the repo."},
		{"dollar words stay", "echo $HOME and $ARGUMENT", "", "echo $HOME and $ARGUMENT"},
		{"repeated", "$1$1$ARGUMENTS$ARGUMENTS", "ab", "abababab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := slashcmd.Expand(tc.template, tc.args); got != tc.want {
				t.Errorf("Expand(%q, %q) = %q, want %q", tc.template, tc.args, got, tc.want)
			}
		})
	}
}

// quote writes args so SplitArgs reads them back: each in double quotes,
// with the characters special there escaped.
func quote(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
		parts[i] = `"` + r.Replace(a) + `"`
	}
	return strings.Join(parts, " ")
}

func FuzzSplitExpand(f *testing.F) {
	for _, seed := range []struct{ template, args string }{
		{"Review $ARGUMENTS", `"a b" c`},
		{"$1 $2 $3", `'x y' "z\" w" \ `},
		{"$$1$ARGUMENTS$", `"open`},
		{"plain", "x"},
		{"ü$9", "1 2 3 4 5 6 7 8 9"},
	} {
		f.Add(seed.template, seed.args)
	}
	f.Fuzz(func(t *testing.T, template, args string) {
		split := slashcmd.SplitArgs(args)
		// Quoting what was split and splitting again gives the same arguments.
		if again := slashcmd.SplitArgs(quote(split)); !slices.Equal(again, split) && len(split) > 0 {
			t.Fatalf("SplitArgs(quote(%q)) = %q", split, again)
		}
		out := slashcmd.Expand(template, args)
		// A template without '$' is kept as written (arguments appended at most).
		if !strings.Contains(template, "$") {
			want := template
			if a := strings.TrimSpace(args); a != "" {
				want += "\n\n" + slashcmd.ArgumentsLabel + a
			}
			if out != want {
				t.Fatalf("Expand(%q, %q) = %q, want %q", template, args, out, want)
			}
		}
		// $1 alone is the first argument exactly.
		first := slashcmd.Expand("$1", args)
		if len(split) > 0 && first != split[0] || len(split) == 0 && first != "" {
			t.Fatalf("Expand($1, %q) = %q, split %q", args, first, split)
		}
	})
}
