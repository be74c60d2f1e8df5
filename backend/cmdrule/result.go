package cmdrule

import "strings"

// Command is one simple command found in a script, as the parser sees it.
type Command struct {
	// Text is the command as written, with its redirections.
	Text string `json:"text"`
	// Wrappers are the wrappers looked through, as written: "timeout 10".
	Wrappers []string `json:"wrappers,omitempty"`
	// Program and Args are the words that run, after quote removal; a word
	// that is not a plain literal is given as written. Program is "" for
	// what is not a simple command (a function definition, a bare
	// assignment, a redirection alone).
	Program  string   `json:"program"`
	Args     []string `json:"args"`
	Decision Decision `json:"decision"`
	// Rules are the rules that matched, strictest first.
	Rules []Rule `json:"rules,omitempty"`
	// Reason says why, in a short sentence.
	Reason string `json:"reason"`
	// AlwaysAsk marks a construct no rule can allow (eval, sh -c, a
	// variable in command position…); the card offers no "Always allow".
	AlwaysAsk bool `json:"alwaysAsk,omitempty"`

	words     []word // Program and Args with their literal flags
	unmatched bool   // asks only because no rule allows it
}

// WriteTarget is a file a command would write through a redirection, tee
// or dd of=, spelled as written. The host resolves it with its path rules.
type WriteTarget struct {
	Path string `json:"path"`
	// Static is false when the path is only known when the shell runs it.
	Static bool `json:"static"`
	// Via is how it is written: ">", ">>", "tee", "dd of=" …
	Via string `json:"via"`
	// Command is the index in Result.Commands of the command that writes,
	// -1 for a redirection of a compound command ({ …; } > file).
	Command int `json:"command"`
}

// Suggestion is an "Always allow …" choice: a program and its subcommand,
// never the exact command.
type Suggestion struct {
	Program string   `json:"program"`
	Args    []string `json:"args"`
}

// Words is the suggestion as one line: "git status".
func (s Suggestion) Words() string {
	return strings.Join(append([]string{s.Program}, s.Args...), " ")
}

// Result is the classifier's answer for a script.
type Result struct {
	Decision    Decision      `json:"decision"`
	Reason      string        `json:"reason"`
	Commands    []Command     `json:"commands"`
	Writes      []WriteTarget `json:"writes"`
	Suggestions []Suggestion  `json:"suggestions"`
	// ParseError is set when the script does not parse as Bash.
	ParseError string `json:"parseError,omitempty"`
}

// settle gives every list in r a value, so JSON has [] and never null.
func (r *Result) settle() {
	if r.Commands == nil {
		r.Commands = []Command{}
	}
	if r.Writes == nil {
		r.Writes = []WriteTarget{}
	}
	if r.Suggestions == nil {
		r.Suggestions = []Suggestion{}
	}
	for i := range r.Commands {
		if r.Commands[i].Args == nil {
			r.Commands[i].Args = []string{}
		}
		if r.Commands[i].Rules == nil {
			r.Commands[i].Rules = []Rule{}
		}
	}
}
