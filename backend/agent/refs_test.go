package agent

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

func TestReferences(t *testing.T) {
	cases := []struct {
		prompt string
		want   []string
	}{
		{"no refs here", nil},
		{"@src/a.go", []string{"src/a.go"}},
		{"Fix @src/a.go, then @docs/b.md.", []string{"src/a.go", "docs/b.md"}},
		{"see (@src/a.go) and @Makefile", []string{"Makefile"}}, // "(@" is not after white space
		{"mail ada@example.com about @README.md", []string{"README.md"}},
		{`open @"docs/a b.md" and @"unterminated`, []string{"docs/a b.md"}},
		{"twice @a.go and @a.go and @./a.go", []string{"a.go"}},
		{"outside @/etc/passwd @../x.go @a/../../y @~/.ssh/id @C:/w.txt @ alone", nil},
		{"windows @src\\win.go", []string{"src/win.go"}},
		{"line\n@first.txt\t@second.txt", []string{"first.txt", "second.txt"}},
		{"trailing @", nil},
	}
	for _, tc := range cases {
		if got := References(tc.prompt); !slices.Equal(got, tc.want) {
			t.Errorf("References(%q) = %q, want %q", tc.prompt, got, tc.want)
		}
	}
	var many strings.Builder
	for i := range maxReferences + 5 {
		many.WriteString(" @f" + string(rune('a'+i)) + ".txt")
	}
	if got := References(many.String()); len(got) != maxReferences || got[0] != "fa.txt" {
		t.Errorf("References(many) = %d refs starting %q", len(got), got[:1])
	}
}

func TestReferenceNoteGolden(t *testing.T) {
	got := referenceNote(`Why does @src/login.ts call @"docs/auth flow.md"? Ask ada@example.com.`)
	golden.Assert(t, filepath.Join("testdata", "reference_note.golden"), got)
	if referenceNote("no references") != "" {
		t.Error("a prompt without @ got a note")
	}
}

// The model gets the note with the prompt, the transcript keeps only what
// the user typed, and a later request rebuilds the same message.
func TestPromptReferencesReachTheModelNotTheTranscript(t *testing.T) {
	f := newFixture(t, say("Looked."), say("Again."))
	prompt := "Explain @src/login.ts please"
	if _, err := f.run(prompt); err != nil {
		t.Fatal(err)
	}
	first := f.prov.requests()[0].Messages
	last := first[len(first)-1]
	if last.Role != provider.RoleUser || len(last.Content) != 2 || last.Content[0].Text != prompt ||
		!strings.Contains(last.Content[1].Text, "\n- src/login.ts") {
		t.Fatalf("model saw %s", must(json.Marshal(last)))
	}
	if len(f.host.records()) != 0 {
		t.Error("the agent touched a file itself; only the model's Read may")
	}
	tr := f.load()
	if p := tr.Messages[0]; p.Kind != KindPrompt || len(p.Content) != 1 || p.Content[0].Text != prompt {
		t.Errorf("stored prompt = %s", must(json.Marshal(p.Content)))
	}
	if _, err := f.run("and now?"); err != nil {
		t.Fatal(err)
	}
	second := f.prov.requests()[1].Messages
	if !jsonEqual(second[:len(first)], first) {
		t.Errorf("the rebuilt prompt differs:\n got %s\nwant %s", must(json.Marshal(second[:len(first)])), must(json.Marshal(first)))
	}
}
