package permission

// CommandEffect is what a command would do as the shell parser sees it,
// shown on its approval card so a user never approves a second half they
// did not see (issue 19).
type CommandEffect struct {
	// Decision is the command rules' answer for the whole command: allow
	// (every command allowed by a rule), ask or deny.
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	// Dialect is the shell the command is written for (posix, powershell,
	// cmd); only posix commands are parsed.
	Dialect string `json:"dialect"`
	// Commands are the simple commands found, in the order written.
	Commands []CommandLine `json:"commands"`
	// Writes are the files the command's redirections, tee and dd would write.
	Writes []CommandWrite `json:"writes"`
	// Matched are the rules that matched any command, each once, as
	// "allow git status (project)".
	Matched []string `json:"matched"`
	// ParseError is set when the command does not parse.
	ParseError string `json:"parseError,omitempty"`
}

// CommandLine is one simple command with its decision and why.
type CommandLine struct {
	Text string `json:"text"`
	// Wrappers are the wrappers looked through ("timeout 10", "env").
	Wrappers []string `json:"wrappers,omitempty"`
	// Decision is allow (allowed by a rule), ask (needs you) or deny.
	Decision string   `json:"decision"`
	Reason   string   `json:"reason"`
	Rules    []string `json:"rules,omitempty"`
}

// Roots a CommandWrite can land in, beside pathguard's.
const (
	WriteRootNull    = "null"    // /dev/null and the like: nothing is written
	WriteRootUnknown = "unknown" // not known before the shell runs it
)

// CommandWrite is a file a command would write.
type CommandWrite struct {
	// Path is the target as written; Abs where it resolves ("" when unknown).
	Path string `json:"path"`
	Abs  string `json:"abs"`
	// Root is workspace, scratch, visualization, external, null or unknown.
	Root string `json:"root"`
	// Via is how it is written: ">", ">>", "tee", "dd of=" …
	Via string `json:"via"`
	// Decision is what a Write to the path would need in this mode: allow,
	// ask or deny; Reason says why when it is not allow.
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

// RuleChoice is an "Always allow …" answer a card offers: allowing a
// program and its subcommand at a scope, never the exact command.
type RuleChoice struct {
	// ID names the choice in an answer: AnswerAllowRule + ID.
	ID string `json:"id"`
	// Words is the rule's program and argument prefix: "git status".
	Words string `json:"words"`
	// Scope is session or project.
	Scope string `json:"scope"`
	// Label is the button's text: "Always allow git status in this project".
	Label string `json:"label"`
}

// AnswerAllowRule prefixes an answer choosing a RuleChoice by its ID.
const AnswerAllowRule = "allow-rule:"
