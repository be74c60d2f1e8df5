package api

// Subagent sources, in override order (issue 16).
const (
	SubagentSourceBuiltin = "builtin"
	SubagentSourceUser    = "user"
	SubagentSourceProject = "project"
)

// Subagent states: in effect, replaced by a later source's definition of
// the same name, beyond the limit of definitions in effect, or unusable
// (Error says why).
const (
	SubagentStateEffective  = "effective"
	SubagentStateOverridden = "overridden"
	SubagentStateOverLimit  = "over-limit"
	SubagentStateError      = "error"
)

// Subagent is one definition as Settings → Subagents and the CLI list it.
type Subagent struct {
	Name   string `json:"name"`
	Source string `json:"source"` // SubagentSource*
	State  string `json:"state"`  // SubagentState*
	// Path is the file, or "builtin:<name>".
	Path string `json:"path"`
	// Editable: one of the app's own (Save and Delete change it); the
	// others are edited in their files.
	Editable    bool   `json:"editable"`
	Error       string `json:"error"`
	Description string `json:"description"`
	// Tools are the working tools it names ("*" expanded); Inherit adds
	// the parent session's live catalog; ExcludedTools are taken away.
	Tools         []string `json:"tools"`
	Inherit       bool     `json:"inherit"`
	ExcludedTools []string `json:"excludedTools"`
	// ToolsWritten is the tools value as the file has it (for editing).
	ToolsWritten []string `json:"toolsWritten"`
	// Model is the value as written ("" or "inherit" = the session's);
	// ModelProfileID and ModelProfileName name the saved provider it
	// resolved to ("" = the session's model).
	Model            string `json:"model"`
	ModelProfileID   string `json:"modelProfileId"`
	ModelProfileName string `json:"modelProfileName"`
	// Permission is the effective scope: inherit | ask | accept-edits | auto.
	Permission string   `json:"permission"`
	MaxTurns   int      `json:"maxTurns"`
	Prompt     string   `json:"prompt"`
	Warnings   []string `json:"warnings"`
	// Overrides is the Path of the definition this one replaced;
	// OverriddenBy the Path of the one that replaced it.
	Overrides    string `json:"overrides"`
	OverriddenBy string `json:"overriddenBy"`
}

// SubagentList is every definition a project's sessions see.
type SubagentList struct {
	Subagents []Subagent `json:"subagents"`
	// UserDir is where the app's own definitions are saved.
	UserDir string `json:"userDir"`
	// ProjectRoot is the project whose files were read ("" = none).
	ProjectRoot string `json:"projectRoot"`
	// Limit is how many definitions can be in effect at once.
	Limit int `json:"limit"`
	// WorkingTools are the tool names a definition may name one by one.
	WorkingTools []string `json:"workingTools"`
}

// SubagentInput is a definition to save as one of the app's own. Replaces
// is the name of the one being edited ("" = a new one). Tools, Model and
// Permission are written as in a file: no tools means Read, Glob, Grep;
// "*" all working tools; "inherit" the parent's catalog.
type SubagentInput struct {
	Replaces    string   `json:"replaces"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tools       []string `json:"tools"`
	Model       string   `json:"model"`
	Permission  string   `json:"permission"`
	MaxTurns    int      `json:"maxTurns"`
	Prompt      string   `json:"prompt"`
}
