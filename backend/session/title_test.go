package session_test

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/session"
)

func TestPromptTitle(t *testing.T) {
	tests := []struct{ prompt, want string }{
		{"Fix the flaky test in loader_test.go", "Fix the flaky test in loader_test.go"},
		{"\n\n   ## Add   a CHANGELOG\nwith the v2 notes", "Add a CHANGELOG"},
		{"> quote me\nrest", "quote me"},
		{"```\n---\nreal words here", "real words here"},
		{"   \n\t", ""},
		{strings.Repeat("word ", 30), strings.TrimSpace(strings.Repeat("word ", 12)) + "…"},
		{strings.Repeat("x", 100), strings.Repeat("x", 60) + "…"},
	}
	for _, tc := range tests {
		if got := session.PromptTitle(tc.prompt); got != tc.want {
			t.Errorf("PromptTitle(%q) = %q, want %q", tc.prompt, got, tc.want)
		}
	}
}

func TestFirstPromptTitlesAPlaceholderSessionOnly(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	p, err := f.svc.AddProject(ctx, projectDir(t, "shop"))
	if err != nil {
		t.Fatal(err)
	}
	create := func(title string) api.Session {
		s, err := f.svc.Create(ctx, api.CreateSessionInput{ProjectID: p.ID, Title: title})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	titleOf := func(id string) string {
		s, err := f.svc.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return s.Title
	}

	placeholder := create("")
	if !strings.HasPrefix(placeholder.Title, "New session ") {
		t.Fatalf("placeholder title %q", placeholder.Title)
	}
	s, changed, err := f.svc.TitleFromPrompt(ctx, placeholder.ID, "Add a dark theme to the settings page")
	if err != nil || !changed || s.Title != "Add a dark theme to the settings page" {
		t.Fatalf("first prompt: %q changed=%v err=%v", s.Title, changed, err)
	}
	if _, changed, _ := f.svc.TitleFromPrompt(ctx, placeholder.ID, "now the tests"); changed || titleOf(placeholder.ID) != "Add a dark theme to the settings page" {
		t.Errorf("a second prompt retitled the session: %q", titleOf(placeholder.ID))
	}

	named := create("Release 2.3")
	if _, changed, _ := f.svc.TitleFromPrompt(ctx, named.ID, "write notes"); changed || titleOf(named.ID) != "Release 2.3" {
		t.Errorf("a session named at creation was retitled: %q", titleOf(named.ID))
	}

	renamed := create("")
	if _, err := f.svc.Rename(ctx, renamed.ID, "Mine"); err != nil {
		t.Fatal(err)
	}
	if _, changed, _ := f.svc.TitleFromPrompt(ctx, renamed.ID, "write notes"); changed || titleOf(renamed.ID) != "Mine" {
		t.Errorf("a session the user renamed was retitled: %q", titleOf(renamed.ID))
	}

	blank := create("")
	if _, changed, _ := f.svc.TitleFromPrompt(ctx, blank.ID, "  \n "); changed {
		t.Error("a prompt without words replaced the placeholder")
	}
	f.reopen(t) // the placeholder mark survives a restart
	if _, changed, _ := f.svc.TitleFromPrompt(ctx, blank.ID, "later words"); !changed || titleOf(blank.ID) != "later words" {
		t.Errorf("after a restart: %q", titleOf(blank.ID))
	}
}
