// Package skills discovers Agent Skills: a folder holding SKILL.md (YAML
// front matter with name and description, then instructions) and any files
// beside it, or a single .md file. Skills written for other agents
// (~/.claude/skills, .agents/skills) work here unchanged.
//
// Sources, in precedence order (the first to define a name wins; every
// later one is listed as a problem with ReasonShadowed):
//
//  1. built in: pi-desktop/visualize, only while inline visualizations are on;
//  2. the user's: <data dir>/skills, ~/.agents/skills, ~/.claude/skills;
//  3. the project's: .agents/skills, .claude/skills.
//
// The user's skills win over the project's so that a cloned repository can
// never replace a skill the user trusts (or the builtin one) with its own
// instructions under the same name. Within one folder, entries are read in
// name order and the first of a name wins. At most MaxSkills are loaded;
// the rest are listed with ReasonOverLimit.
//
// A skill folder's files are readable by Read, Glob and Grep as a
// read-only root (pathguard.Skill) for every loaded skill, those with
// disable-model-invocation included (the user may invoke them, and their
// files are no secret from the agent the user gave them to). A single-file
// skill has no folder of its own: its neighbours are other skills.
//
// Every file Load cannot use is listed as a Problem with a stable Reason
// code; nothing is skipped silently except hidden names (".git") and absent
// source folders. A link inside a source folder is followed only when it
// stays inside that folder; one leading out is refused (ReasonLinkOutside),
// because a skill folder becomes a read-only root the model may read.
package skills
