package cmdrule_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
)

// A card offers "Always allow" only for what one click may allow for good.
func TestSuggestionRisky(t *testing.T) {
	tests := []struct {
		words []string
		risky bool
		why   string
	}{
		{[]string{"git", "status"}, false, "reads the repository"},
		{[]string{"go", "test"}, false, "the issue's own example"},
		{[]string{"npm", "run", "test"}, false, "a package script by name"},
		{[]string{"ls"}, false, "lists files"},
		{[]string{"git", "config"}, true, "changes what git runs"},
		{[]string{"git", "push"}, true, "sends code away"},
		{[]string{"git", "remote"}, true, "changes where code goes"},
		{[]string{"npm", "exec"}, true, "a package runner"},
		{[]string{"pnpm", "dlx"}, true, "a package runner"},
		{[]string{"python3"}, true, "an interpreter"},
		{[]string{"bash"}, true, "a shell"},
		{[]string{"npx"}, true, "always asks"},
		{[]string{"rm"}, true, "deletes files anywhere"},
		{[]string{"/bin/rm"}, true, "a path does not hide rm"},
		{[]string{"cp"}, true, "writes files the host does not see"},
		{[]string{"curl"}, true, "the network"},
		{[]string{"pip", "install"}, true, "downloads and runs code"},
		{[]string{"/usr/bin/git"}, true, "a path: would allow git push, git config"},
		{[]string{"./build.sh"}, true, "a script a later Write can rewrite"},
		{[]string{"git"}, true, "git with no subcommand would allow them all"},
	}
	for _, tt := range tests {
		s := cmdrule.Suggestion{Program: tt.words[0], Args: tt.words[1:]}
		if got := s.Risky(); (got != "") != tt.risky {
			t.Errorf("%s: Risky() = %q, want risky=%v (%s)", s.Words(), got, tt.risky, tt.why)
		}
	}
}
