package cmdrule

import (
	"strings"

	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// ClassifyDialect decides a command written for a shell dialect
// (platform/shells.Dialect*). Only POSIX commands are parsed; for
// PowerShell, cmd or an unknown dialect no rule can allow (ask), and deny
// and ask rules are matched on the leading words of each piece of the line
// split conservatively on ; & | and newlines.
func ClassifyDialect(dialect, src string, rules []Rule) Result {
	why := "commands for the shell dialect " + dialect + " are not parsed; no rule can allow one"
	switch dialect {
	case shells.DialectPOSIX, "":
		return Classify(src, rules)
	case shells.DialectPowerShell:
		why = "PowerShell commands are not parsed; no rule can allow one"
	case shells.DialectCmd:
		why = "cmd commands are not parsed; no rule can allow one"
	}
	res := unparsed(src, rules, why, "")
	res.settle()
	return res
}

// unparsed is the answer for a script the classifier cannot parse: it
// asks, or denies when a deny rule matches the words of any piece.
func unparsed(src string, rules []Rule, reason, parseErr string) Result {
	res := Result{Decision: Ask, Reason: reason, ParseError: parseErr}
	for _, piece := range splitPieces(src) {
		words := rawWords(piece, false)
		if len(words) == 0 {
			continue
		}
		cmd := Command{Text: piece, Program: words[0].val, Args: wordVals(words[1:]), Decision: Ask, Reason: reason, AlwaysAsk: true}
		// Backslashes are escapes in a POSIX line and path separators in
		// PowerShell and cmd: the words are tried both ways.
		for _, ws := range [][]word{words, rawWords(piece, true)} {
			cmd.Rules = append(cmd.Rules, leadingRules(ws, rules)...)
		}
		cmd.Rules = dedupe(cmd.Rules)
		for _, r := range cmd.Rules {
			if r.Decision == Deny {
				cmd.Decision, cmd.Reason = Deny, "denied by rule: "+r.String()
				res.Decision, res.Reason = Deny, piece+" — "+cmd.Reason
				break
			}
		}
		res.Commands = append(res.Commands, cmd)
	}
	return res
}

// splitPieces cuts a line at the separators of every shell dialect, and at
// the openings of substitutions and blocks, without regard to quoting: it
// may cut too often, which only means more pieces are checked.
func splitPieces(src string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(src, func(r rune) bool {
		return strings.ContainsRune(";&|\n\r(){}`", r)
	}) {
		p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "$"))
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// leadingRules are the deny and ask rules matching at the first word of
// words, or behind a leading call operator or wrapper (& x, sudo x, cmd /c x).
func leadingRules(words []word, rules []Rule) []Rule {
	var out []Rule
	for p := range words {
		for _, r := range rules {
			if r.Decision != Allow && restrictiveMatches(r, words[p:]) {
				out = append(out, r)
			}
		}
		name := baseName(words[p].val)
		if _, ok := lookThrough[name]; !ok && !callOperators[name] {
			break
		}
	}
	return out
}

// callOperators run the word after them in PowerShell and cmd.
var callOperators = set("&", ".", "call", "start", "cmd", "/c", "/k", "powershell", "pwsh", "-command", "-c",
	"invoke-expression", "iex", "sh", "bash")

// rawWords splits a piece on white space and drops quote characters (and
// backslashes with dropBackslash), so `"rm" -rf` and `r'm' -rf` meet the
// rule `deny rm -rf`.
func rawWords(piece string, dropBackslash bool) []word {
	fields := strings.Fields(piece)
	out := make([]word, 0, len(fields))
	drop := strings.NewReplacer(`"`, "", `'`, "", "^", "", "`", "")
	if dropBackslash {
		drop = strings.NewReplacer(`"`, "", `'`, "", "^", "", "`", "", `\`, "")
	}
	for _, f := range fields {
		f = drop.Replace(f)
		if f != "" {
			out = append(out, word{val: f})
		}
	}
	return out
}
