package hostcore_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// The composer's custom commands through the host: a session lists its
// project's and its user's; an isolated session reads the project path, not
// its worktree; expansion fills the arguments; an unknown name fails with a
// stable code.
func TestSlashCommandsThroughTheHost(t *testing.T) {
	data, home, proj := t.TempDir(), t.TempDir(), t.TempDir()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: data, Home: home, RgPath: "-", Keychain: providertest.NewKeychain()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	writeFile(t, filepath.Join(home, ".agents", "commands", "hello.md"), "---\ndescription: greet\n---\nSay hello to $1.\n")
	writeFile(t, filepath.Join(home, ".claude", "commands", "review.md"), "user review\n")
	writeFile(t, filepath.Join(proj, ".agents", "commands", "review.md"), "---\nargument-hint: <file>\n---\nOld review of $ARGUMENTS\n")
	gitInit(t, proj)
	// After the commit: the worktree an isolated session gets has the old
	// text; the project path has this one.
	writeFile(t, filepath.Join(proj, ".agents", "commands", "review.md"), "---\nargument-hint: <file>\n---\nReview $1 then $2.\n")
	p, err := core.AddProject(t.Context(), proj)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	temp, err := core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}

	list, err := core.ListSlashCommands(t.Context(), iso.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range list.Commands {
		got = append(got, c.Name+"/"+c.Source+"/"+c.State)
	}
	want := []string{"hello/user/effective", "review/user/overridden", "review/project/effective"}
	if !slices.Equal(got, want) {
		t.Fatalf("commands = %q, want %q", got, want)
	}
	if r := list.Commands[2]; r.ArgumentHint != "<file>" || r.Path != filepath.Join(proj, ".agents", "commands", "review.md") {
		t.Errorf("project review = %+v", r)
	}
	if r := list.Commands[1]; len(r.Problems) != 1 {
		t.Errorf("the replaced review lists no reason: %+v", r)
	}

	exp, err := core.ExpandSlashCommand(t.Context(), iso.ID, "review", `"main.go" tests`)
	if err != nil || exp.Prompt != "Review main.go then tests." || exp.Name != "review" {
		t.Fatalf("expand review = %+v, %v", exp, err)
	}
	// A temporary session has the user's commands only.
	exp, err = core.ExpandSlashCommand(t.Context(), temp.ID, "review", "x")
	if err != nil || exp.Prompt != "user review\n\nARGUMENTS: x" {
		t.Fatalf("temporary review = %+v, %v", exp, err)
	}
	_, err = core.ExpandSlashCommand(t.Context(), temp.ID, "nope", "")
	if errs.CodeOf(err) != errs.SlashCommandNotFound {
		t.Fatalf("unknown command: %v", err)
	}
	if _, err := core.ListSlashCommands(t.Context(), "missing"); errs.CodeOf(err) != errs.SessionNotFound {
		t.Fatalf("missing session: %v", err)
	}
	if err := core.RequestCompaction(t.Context(), "missing"); errs.CodeOf(err) != errs.SessionNotFound {
		t.Fatalf("compaction of a missing session: %v", err)
	}
	if err := core.RequestCompaction(t.Context(), temp.ID); err != nil {
		t.Fatal(err)
	}
}
