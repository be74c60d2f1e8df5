// Package cmdrule decides shell commands against the user's command rules
// (issue 19). The command is parsed with mvdan.cc/sh (Bash), every simple
// command it contains is found — in pipelines, lists, subshells, $(…),
// backticks, process substitutions, loop and branch bodies, function bodies,
// here-documents and arithmetic — and each is matched against the rules on
// its words after quote removal. A command is allowed only when every simple
// command in it is allowed by a rule; deny beats ask beats allow; anything
// the classifier cannot see through asks.
//
// Matching on words after quote removal means `\g\i\t status` and
// `"git" status` are the command `git status`, which is what the shell runs.
// A word with any expansion (variables, globs, braces, $'…', substitutions)
// is not a plain literal and never matches an allow rule.
//
// The classifier resolves no paths: the files redirections, tee and dd would
// write are returned as spelled, for the host to check with its path rules.
package cmdrule
