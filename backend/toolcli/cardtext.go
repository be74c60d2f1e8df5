package toolcli

import (
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// commandLines is a Bash card's command as the shell parser sees it, for
// the terminal: each simple command on its own line with its decision and
// why, the wrappers looked through, the files it would write with their
// root, and the rules that matched. Nil when the card has no command.
func commandLines(e *permission.CommandEffect) []string {
	if e == nil {
		return nil
	}
	var out []string
	if e.ParseError != "" || e.Dialect != "posix" {
		out = append(out, "  "+e.Reason)
	}
	out = append(out, "  commands:")
	for _, c := range e.Commands {
		line := fmt.Sprintf("    %s %s", decisionMark(c.Decision), c.Text)
		if len(c.Wrappers) > 0 {
			line += "  [through " + strings.Join(c.Wrappers, ", ") + "]"
		}
		why := c.Reason
		if c.Decision != "allow" && c.Decision != "deny" {
			why = "needs you: " + why // allow and deny reasons name their rule
		}
		out = append(out, line, "        "+why)
	}
	if len(e.Writes) > 0 {
		out = append(out, "  writes:")
		for _, w := range e.Writes {
			line := fmt.Sprintf("    %s %s (%s, %s)", decisionMark(w.Decision), w.Path, rootWord(w.Root), w.Via)
			if w.Reason != "" {
				line += ": " + w.Reason
			}
			out = append(out, line)
		}
	}
	if len(e.Matched) > 0 {
		out = append(out, "  matched: "+strings.Join(e.Matched, ", "))
	}
	return out
}

func decisionMark(d string) string {
	switch d {
	case "allow":
		return "✓"
	case "deny":
		return "✗"
	}
	return "?"
}

func rootWord(root string) string {
	switch root {
	case "external":
		return "outside the session's folders"
	case permission.WriteRootNull:
		return "discarded"
	case permission.WriteRootUnknown:
		return "where only the shell knows"
	}
	return root
}

// approvalQuestion is the prompt's question: the card's answers, its
// "Always allow" choices numbered from 1.
func approvalQuestion(req permission.Request) string {
	if req.Command == nil {
		return "  allow [o]nce, for the [s]ession, or [d]eny? "
	}
	var b strings.Builder
	b.WriteString("  allow [o]nce, for the [s]ession (every command, not only this one)")
	for i, c := range req.RuleChoices {
		fmt.Fprintf(&b, ", [%d] always allow %s in this %s", i+1, c.Words, c.Scope)
	}
	b.WriteString(", or [d]eny? ")
	return b.String()
}

// approvalAnswer reads a typed answer: o, s, a choice's number, else deny.
func approvalAnswer(req permission.Request, ans string) permission.Outcome {
	ans = strings.ToLower(strings.TrimSpace(ans))
	switch ans {
	case "o", "once", "y", "yes":
		return permission.AllowOnce
	case "s", "session":
		return permission.AllowSession
	}
	var n int
	if _, err := fmt.Sscanf(ans, "%d", &n); err == nil && fmt.Sprint(n) == ans && n >= 1 && n <= len(req.RuleChoices) {
		return permission.Outcome(permission.AnswerAllowRule + req.RuleChoices[n-1].ID)
	}
	return permission.Denied
}
