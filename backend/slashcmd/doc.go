// Package slashcmd is the user's custom slash commands: Markdown prompt
// templates the composer's "/" menu offers and expands into the prompt that
// is sent (issue 18).
//
// Sources, in override order (a later one replaces an earlier command of the
// same name; the replaced one stays listed with the reason):
//
//	user     ~/.claude/commands, ~/.agents/commands, <data dir>/commands
//	project  .claude/commands, .agents/commands
//
// so a project's command wins over the user's, and the .agents spelling over
// the .claude one read for compatibility. An isolated session's project
// commands come from the project path, never its worktree (the caller passes
// that root).
//
// A command is named after its file: review.md is /review. A file in a
// subfolder is named with the folder first and a colon, as Gemini CLI and
// opencode name them: git/commit.md is /git:commit. Names keep the file's
// case and must be letters, digits, '-', '_' or '.' per part.
//
// Optional front matter: description and argument-hint. Claude Code's other
// keys (allowed-tools, model, …) are listed as warnings: the command still
// works, without them. A file that cannot be used (too large, not UTF-8, bad
// front matter, a bad name, a name the app's built-ins own) is listed with
// its reason, never dropped silently.
package slashcmd
