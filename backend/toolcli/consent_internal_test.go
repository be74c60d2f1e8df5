package toolcli

import "testing"

func TestConsentTextCannotRewriteTheTerminal(t *testing.T) {
	words := []struct {
		command string
		args    []string
		want    string
	}{
		{"./server", nil, "./server"},
		{"sh", []string{"-c", "a b"}, "sh -c 'a b'"},
		{"sh", []string{"-c", "a", "b"}, "sh -c a b"},
		{"node", []string{"it's", ""}, `node 'it'\''s' ''`},
	}
	for _, tc := range words {
		if got := shellWords(tc.command, tc.args); got != tc.want {
			t.Errorf("shellWords(%q, %q) = %q, want %q", tc.command, tc.args, got, tc.want)
		}
	}
	lines := map[string]string{
		"two\nlines\there":        "two lines here",
		"esc \x1b[2K gone":        "esc \uFFFD[2K gone",
		"c1 \u009b and \u202eRLO": "c1 \uFFFD and \uFFFDRLO",
	}
	for in, want := range lines {
		if got := oneLineText(in); got != want {
			t.Errorf("oneLineText(%q) = %q, want %q", in, got, want)
		}
	}
}
