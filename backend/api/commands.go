package api

// Slash command sources and states (issue 18): a project's command replaces
// the user's of the same name; a replaced or unusable file stays listed.
const (
	SlashCommandSourceUser    = "user"
	SlashCommandSourceProject = "project"

	SlashCommandStateEffective  = "effective"
	SlashCommandStateOverridden = "overridden"
	SlashCommandStateError      = "error"
)

// SlashCommand is one custom command file as the composer's "/" menu and
// `pi-desktop commands list` show it.
type SlashCommand struct {
	// Name is what follows "/": "review", "git:commit" (git/commit.md).
	Name         string `json:"name"`
	Source       string `json:"source"` // SlashCommandSource*
	State        string `json:"state"`  // SlashCommandState*
	Path         string `json:"path"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint"`
	// Problems: why the file cannot be used (state error), what of it was
	// ignored, or which file replaced it (state overridden).
	Problems []string `json:"problems"`
}

// SlashCommandList is every command file a session's project and its user
// have, sorted by name.
type SlashCommandList struct {
	Commands []SlashCommand `json:"commands"`
}

// SlashCommandExpansion is a command filled with its arguments: the prompt
// that is sent and that the transcript shows.
type SlashCommandExpansion struct {
	Name   string `json:"name"`
	Prompt string `json:"prompt"`
}
