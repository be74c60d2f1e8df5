package permission_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/permission"
)

func TestProtectedName(t *testing.T) {
	git, cfg, none := permission.ProtectedGit, permission.ProtectedAgentConfig, permission.NotProtected
	tests := []struct {
		rel  string
		top  bool
		want permission.Protected
	}{
		{".git/hooks/pre-commit", true, git},
		{".git/config", true, git},
		{".GIT/config", true, git},
		{".Git/hooks/post-checkout", true, git},
		{"vendor/lib/.git/config", true, git}, // a nested repository
		{"sub/.git", true, git},               // a submodule's or worktree's .git file
		{".git", true, git},
		{".pi/settings.json", true, cfg},
		{".PI/plan/x.md", true, cfg},
		{".pi/plan/sub/x.md", true, cfg},
		{".pi/plan/x.sh", true, cfg},
		{"pkg/.pi/plan/x.md", true, cfg}, // not where the host writes its artifacts
		{".pi/plan/x.md", false, cfg},    // outside the workspace
		{".agents/skills/a/SKILL.md", true, cfg},
		{".claude/settings.json", true, cfg},
		{"app/.claude/commands/x.md", true, cfg},
		{".mcp.json", true, cfg},
		{"tools/.MCP.json", true, cfg},
		{".pi/.git/config", true, git}, // git wins: it runs code
		{".pi/plan/fix-login-1.md", true, none},
		{".pi/goal/ship-2.md", true, none},
		{"src/main.go", true, none},
		{".github/workflows/ci.yml", true, none},
		{".gitignore", true, none},
		{"a.git/config", true, none},
		{"mcp.json", true, none},
		{".pi-desktop/x", true, none},
	}
	for _, tt := range tests {
		if got := permission.ProtectedName(tt.rel, tt.top); got != tt.want {
			t.Errorf("ProtectedName(%q, %v) = %q, want %q", tt.rel, tt.top, got, tt.want)
		}
	}
}

// A grant for a protected class is neither the tool's grant nor another
// class's, nor the same class outside the workspace.
func TestProtectedGrantKeysAreDistinct(t *testing.T) {
	keys := []string{"Write", "Edit",
		permission.ProtectedGrant("Write", permission.ProtectedGit, false),
		permission.ProtectedGrant("Write", permission.ProtectedGit, true),
		permission.ProtectedGrant("Write", permission.ProtectedAgentConfig, false),
		permission.ProtectedGrant("Edit", permission.ProtectedGit, false),
	}
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			t.Errorf("grant key %q is shared", k)
		}
		seen[k] = true
	}
}

// An allow-session answer to a card with a Grant key installs that key, not
// the tool's grant.
func TestBrokerInstallsTheCardsGrantKey(t *testing.T) {
	ev := newEvents()
	b := permission.NewBroker(ev.emit, nil)
	key := permission.ProtectedGrant("Write", permission.ProtectedGit, false)
	out := make(chan permission.Outcome, 1)
	go func() {
		out <- b.Ask(t.Context(), permission.Request{ID: "r1", SessionID: "s1", Tool: "Write", Grant: key}, 0)
	}()
	req := <-ev.reqs
	if err := b.Resolve(req.SessionID, req.ID, permission.AllowSession); err != nil {
		t.Fatal(err)
	}
	if o := <-out; o != permission.AllowSession {
		t.Fatalf("outcome %s", o)
	}
	if !b.Granted("s1", key) || b.Granted("s1", "Write") {
		t.Errorf("grants: class %v, tool %v; want only the class", b.Granted("s1", key), b.Granted("s1", "Write"))
	}
}
