package api

// SkillEntry is one skill a workspace's sessions see (the composer's /
// menu, pi-desktop skills list).
type SkillEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Source      string `json:"source"`         // builtin | user | project
	Path        string `json:"path,omitempty"` // SKILL.md or the .md file; "" for a builtin
	// UserOnly: disable-model-invocation. Not in the model's catalog; only
	// /skill:<name> runs it.
	UserOnly bool `json:"userOnly"`
}

// SkillProblem is a file that is not a usable skill, with why. Reason is a
// stable code (backend/skills Reason*: shadowed, link_outside_source, …).
type SkillProblem struct {
	Path    string `json:"path"`
	Name    string `json:"name,omitempty"`
	Source  string `json:"source"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// SkillList is every skill a workspace's sessions see, in precedence
// order, and every problem met while reading them.
type SkillList struct {
	Skills   []SkillEntry   `json:"skills"`
	Problems []SkillProblem `json:"problems"`
	// Listed and LeftOut say how the model's catalog fits its budget for
	// a default context window (about 2%): LeftOut skills are not named
	// in the system prompt, though Skill and /skill: still reach them.
	Listed  int `json:"listed"`
	LeftOut int `json:"leftOut"`
}
