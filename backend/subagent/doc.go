// Package subagent reads subagent definitions: Markdown files whose YAML
// front matter names a delegate, its tools, model, permission scope and turn
// budget, and whose body is the delegate's system prompt (spec §10.2).
//
// Definitions come from four places, each overriding the ones before by
// name: the builtins embedded in the binary, the user's (the app's data
// folder, then ~/.agents/subagents), and the project's (.claude/agents for
// compatibility, then .agents/subagents). Load returns the definitions in
// effect and a row for every file it saw, so a file that does not parse is
// listed with its reason rather than silently ignored.
//
// The package only reads and writes definitions; the delegate runtime
// (the Task tools) resolves a definition's tools against its parent's live
// catalog with ToolSpec.Resolve.
package subagent
