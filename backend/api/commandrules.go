package api

// Command rule decisions and scopes (issue 19), spelled as backend/cmdrule
// spells them.
const (
	RuleAllow = "allow"
	RuleAsk   = "ask"
	RuleDeny  = "deny"

	RuleScopeSession = "session"
	RuleScopeProject = "project"
	RuleScopeGlobal  = "global"
)

// CommandRule is one command rule as Settings → Permissions lists it: a
// program and the first words of its arguments, allowed, asked for or
// denied in one scope.
type CommandRule struct {
	ID       string   `json:"id"`
	Decision string   `json:"decision"` // Rule{Allow,Ask,Deny}
	Program  string   `json:"program"`
	Args     []string `json:"args"`
	Scope    string   `json:"scope"` // RuleScope*
	Note     string   `json:"note"`
	// ProjectID names a project rule's project, and ProjectName and
	// ProjectPath show it ("" when the rule is not a project's, or in a
	// check's matched rules).
	ProjectID   string `json:"projectId"`
	ProjectName string `json:"projectName"`
	ProjectPath string `json:"projectPath"`
	// SessionID names a session rule's session, SessionTitle shows it.
	SessionID    string `json:"sessionId"`
	SessionTitle string `json:"sessionTitle"`
	CreatedAt    int64  `json:"createdAt"`
}

// CommandRuleInput is a rule to add, or the new values of one to edit.
// ProjectID is set for project scope only, SessionID for session scope only.
type CommandRuleInput struct {
	Decision  string   `json:"decision"`
	Program   string   `json:"program"`
	Args      []string `json:"args"`
	Scope     string   `json:"scope"`
	ProjectID string   `json:"projectId"`
	SessionID string   `json:"sessionId"`
	Note      string   `json:"note"`
}

// CommandCheckInput is a command to decide as the agent's Bash call would
// be: with the rules in effect for SessionID (global, its project's, its
// own), else for ProjectID (global and the project's), else the global
// ones. Shell is the dialect (posix, powershell, cmd; "" = the default
// command shell's).
type CommandCheckInput struct {
	SessionID string `json:"sessionId"`
	ProjectID string `json:"projectId"`
	Command   string `json:"command"`
	Shell     string `json:"shell"`
}

// CommandCheck is how the rules decide a command: the same facts
// `pi-desktop rules check` prints.
type CommandCheck struct {
	Decision string `json:"decision"`
	// Label is the decision as a person reads it: allowed by rule, needs
	// you, denied.
	Label    string           `json:"label"`
	Reason   string           `json:"reason"`
	Commands []CheckedCommand `json:"commands"`
	Writes   []CommandWrite   `json:"writes"`
	// Suggestions are the "Always allow" choices a card would offer:
	// "git status", "go test".
	Suggestions []string `json:"suggestions"`
	// ParseError is set when the command does not parse as Bash.
	ParseError string `json:"parseError"`
	// Shell is the dialect the command was decided in.
	Shell string `json:"shell"`
}

// CheckedCommand is one simple command found in a checked command.
type CheckedCommand struct {
	// Text is the command as written, with its redirections.
	Text string `json:"text"`
	// Wrappers are the wrappers looked through: "timeout 10", "nice".
	Wrappers []string `json:"wrappers"`
	Program  string   `json:"program"`
	Args     []string `json:"args"`
	Decision string   `json:"decision"`
	Label    string   `json:"label"`
	Reason   string   `json:"reason"`
	// Rules are the rules it matched, strictest first.
	Rules []CommandRule `json:"rules"`
	// AlwaysAsk marks a construct no rule can allow (eval, sh -c, …).
	AlwaysAsk bool `json:"alwaysAsk"`
}

// CommandWrite is a file a command would write, spelled as written.
type CommandWrite struct {
	Path string `json:"path"`
	// Static is false when the path is only known when the shell runs it.
	Static bool   `json:"static"`
	Via    string `json:"via"` // ">", ">>", "tee", "dd of=" …
	// Command is the index in Commands of the command that writes, -1 for
	// a redirection of a compound command.
	Command int `json:"command"`
}
