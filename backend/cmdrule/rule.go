package cmdrule

import (
	"strings"
	"unicode"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Decision is what a rule or the classifier says about a command.
type Decision string

const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// rank orders decisions so the stricter one wins: deny > ask > allow.
func (d Decision) rank() int {
	switch d {
	case Deny:
		return 2
	case Ask:
		return 1
	}
	return 0
}

// Label is how a decision reads for a person, on a card, in Settings and
// in a terminal: "allowed by rule", "needs you", "denied".
func (d Decision) Label() string {
	switch d {
	case Allow:
		return "allowed by rule"
	case Deny:
		return "denied"
	}
	return "needs you" // ask, and anything unknown: fail towards asking
}

// Scope is where a rule applies.
type Scope string

const (
	ScopeSession Scope = "session"
	ScopeProject Scope = "project"
	ScopeGlobal  Scope = "global"
)

// Rule allows, asks for or denies a program with an argument prefix.
type Rule struct {
	ID       string   `json:"id"`
	Decision Decision `json:"decision"`
	Program  string   `json:"program"`
	// Args is a prefix of the words after the program; empty matches any.
	Args  []string `json:"args"`
	Scope Scope    `json:"scope"`
	Note  string   `json:"note,omitempty"`
	// ProjectID is set for project scope, SessionID for session scope.
	ProjectID string `json:"projectId,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
	CreatedAt int64  `json:"createdAt,omitempty"`
}

// Words is the rule's program and argument prefix as one line: "git status".
func (r Rule) Words() string {
	return strings.Join(append([]string{r.Program}, r.Args...), " ")
}

// String is the rule as the card and the CLI show it:
// "allow git status (project)".
func (r Rule) String() string {
	s := string(r.Decision) + " " + r.Words()
	if r.Scope != "" {
		s += " (" + string(r.Scope) + ")"
	}
	return s
}

const (
	maxRuleWords   = 32
	maxRuleWordLen = 256
	maxNoteLen     = 500
)

// Validate reports a rule that cannot be saved, with RULE_INVALID naming
// the field and what to write instead.
func (r Rule) Validate() error {
	switch r.Decision {
	case Allow, Ask, Deny:
	default:
		return invalid("decision", "the decision %q is not allow, ask or deny", r.Decision)
	}
	switch r.Scope {
	case ScopeGlobal:
		if r.ProjectID != "" || r.SessionID != "" {
			return invalid("scope", "a global rule names no project or session")
		}
	case ScopeProject:
		if r.ProjectID == "" || r.SessionID != "" {
			return invalid("scope", "a project rule needs its project (and no session); pass --workspace DIR")
		}
	case ScopeSession:
		if r.SessionID == "" || r.ProjectID != "" {
			return invalid("scope", "a session rule needs its session (and no project)")
		}
	default:
		return invalid("scope", "the scope %q is not session, project or global", r.Scope)
	}
	if r.Program == "" {
		return invalid("program", "name the program the rule is about, e.g. git")
	}
	if len(r.Args)+1 > maxRuleWords {
		return invalid("args", "a rule has at most %d words; keep the prefix that matters", maxRuleWords)
	}
	for _, w := range append([]string{r.Program}, r.Args...) {
		if err := validWord(w); err != nil {
			return err
		}
	}
	if strings.HasPrefix(r.Program, "-") {
		return invalid("program", "the program %q looks like an option; a rule starts with the program's name", r.Program)
	}
	if len(r.Note) > maxNoteLen {
		return invalid("note", "the note is longer than %d bytes; shorten it", maxNoteLen)
	}
	if r.Decision == Allow {
		if why := neverAllowed(r.Program); why != "" {
			return invalid("program", "%s always asks (%s); an allow rule for it would never apply — allow the commands it runs instead", r.Program, why)
		}
	}
	return nil
}

func validWord(w string) error {
	if w == "" {
		return invalid("args", "a rule word is empty; write each word once, without quotes")
	}
	if len(w) > maxRuleWordLen {
		return invalid("args", "the rule word %.40q… is longer than %d bytes", w, maxRuleWordLen)
	}
	for _, r := range w {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return invalid("args", "the rule word %q holds a space or control character; give each word separately", w)
		}
	}
	return nil
}

func invalid(field, format string, a ...any) error {
	return errs.New(errs.RuleInvalid, format, a...).With("field", field)
}
