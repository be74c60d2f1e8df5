package permission

import "strings"

// Protected names a class of paths whose change can turn an edit permission
// into code execution or into more authority for the agent: a write there
// always shows a card, in every permission mode including auto, and only an
// allow-session answer on such a card (for that tool and class) lifts it.
type Protected string

const (
	NotProtected Protected = ""
	// ProtectedGit is a repository's own folder (.git, a .git file of a
	// worktree or submodule, the git dir one points to): hooks and config
	// there run code at the user's next git command.
	ProtectedGit Protected = "git"
	// ProtectedAgentConfig is the agent's own configuration (.agents, .pi,
	// .claude, .mcp.json): it decides what the agent loads and may run.
	ProtectedAgentConfig Protected = "agent-config"
)

// Reason is the line the approval card shows.
func (p Protected) Reason() string {
	switch p {
	case ProtectedGit:
		return "writes to a git folder (.git): its hooks and config can run code at your next git command"
	case ProtectedAgentConfig:
		return "changes the agent's own configuration (.agents, .pi, .claude, .mcp.json), which decides what the agent loads and may run"
	}
	return ""
}

// ProtectedGrant is the key an allow-session answer installs for a
// protected card: that tool and class only, inside or outside the
// workspace, so it never covers ordinary writes and an ordinary grant never
// covers it.
func ProtectedGrant(tool string, p Protected, external bool) string {
	k := tool + "\x00protected:" + string(p)
	if external {
		k += "\x00external"
	}
	return k
}

// Protected reports whether v asks because the change reaches a protected
// path: only then does it carry a protected grant key.
func (v Verdict) Protected() bool {
	return strings.Contains(v.Grant, "\x00protected:")
}

// ProtectedName classifies a '/'-separated path by its components, anywhere
// in the tree and in any case spelling (a case-insensitive disk treats .GIT
// as .git). workspaceTop says rel is relative to the workspace root, where
// the host's own Plan/Goal artifacts (.pi/plan/*.md, .pi/goal/*.md, written
// by SubmitPlan/SubmitGoal) are not protected.
func ProtectedName(rel string, workspaceTop bool) Protected {
	parts := strings.Split(rel, "/")
	if workspaceTop && len(parts) == 3 && parts[0] == ".pi" && (parts[1] == "plan" || parts[1] == "goal") &&
		strings.HasSuffix(parts[2], ".md") && !strings.EqualFold(parts[2], ".md") {
		return NotProtected
	}
	found := NotProtected
	for _, c := range parts {
		switch strings.ToLower(c) {
		case ".git":
			return ProtectedGit
		case ".agents", ".pi", ".claude", ".mcp.json":
			found = ProtectedAgentConfig
		}
	}
	return found
}
