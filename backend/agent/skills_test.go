package agent

import "testing"

func TestParseSkillInvocation(t *testing.T) {
	tests := []struct {
		prompt, name, text string
		ok                 bool
	}{
		{"/skill:pdf fill the form", "pdf", "fill the form", true},
		{"/skill:pdf", "pdf", "", true},
		{"  /skill:pdf\n\nline two\n", "pdf", "line two", true},
		{"/skill:pi-desktop/visualize chart it", "pi-desktop/visualize", "chart it", true},
		{"/skill: x", "", "x", true}, // an empty name: the turn refuses it
		{"please /skill:pdf", "", "", false},
		{"/skills", "", "", false},
		{"hello", "", "", false},
	}
	for _, tt := range tests {
		name, text, ok := ParseSkillInvocation(tt.prompt)
		if name != tt.name || text != tt.text || ok != tt.ok {
			t.Errorf("ParseSkillInvocation(%q) = %q, %q, %v; want %q, %q, %v", tt.prompt, name, text, ok, tt.name, tt.text, tt.ok)
		}
	}
}

func TestSkillPrompt(t *testing.T) {
	if got, want := skillPrompt("pdf", "fill it"), "fill it\n\n(The user invoked the skill \"pdf\" with /skill:pdf. Call the Skill tool with {\"name\": \"pdf\"} first, then follow its instructions for this request.)"; got != want {
		t.Errorf("skillPrompt = %q", got)
	}
	if got := skillPrompt("pdf", ""); got != "(The user invoked the skill \"pdf\" with /skill:pdf. Call the Skill tool with {\"name\": \"pdf\"} first, then follow its instructions.)" {
		t.Errorf("skillPrompt without text = %q", got)
	}
}
