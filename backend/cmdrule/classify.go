package cmdrule

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

type classifier struct {
	src   string
	rules []Rule
	depth int
	// budget counts the code strings (sh -c, eval…) still to be parsed
	// again for deny rules; shared by the nested classifiers of one call.
	budget *int
	// unchecked is set when code in the current command was too deep, or
	// too much, to check against the deny rules.
	unchecked bool
	res       Result
}

// maxNestedParses bounds the code strings parsed again per Classify, so
// `env -S env -S …` cannot make a classification take seconds.
const maxNestedParses = 16

// Classify decides a Bash (POSIX shell) command against rules.
func Classify(src string, rules []Rule) Result {
	budget := maxNestedParses
	return classify(src, rules, 0, &budget)
}

func classify(src string, rules []Rule, depth int, budget *int) Result {
	c := &classifier{src: src, rules: rules, depth: depth, budget: budget}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		res := unparsed(src, rules, fmt.Sprintf("the command does not parse as Bash (%v); nothing in it can be allowed by a rule", err), err.Error())
		res.settle()
		return res
	}
	syntax.Walk(file, c.visit)
	c.finish()
	c.res.settle()
	return c.res
}

func (c *classifier) visit(n syntax.Node) bool {
	if why := expansionRisk(n); why != "" {
		c.add(Command{Text: c.text(n), Decision: Ask, AlwaysAsk: true, Reason: why})
	}
	switch n := n.(type) {
	case *syntax.Stmt:
		switch cmd := n.Cmd.(type) {
		case *syntax.CallExpr:
			c.call(n, cmd)
		case nil:
			i := c.add(Command{Text: c.text(n), Decision: Ask, AlwaysAsk: true, Reason: "a redirection without a command"})
			c.redirects(n.Redirs, i)
		default:
			if why := c.redirects(n.Redirs, -1); why != "" {
				c.add(Command{Text: c.text(n), Decision: Ask, AlwaysAsk: true, Reason: why})
			}
		}
	case *syntax.FuncDecl:
		name := "(anonymous)"
		if n.Name != nil {
			name = n.Name.Value
		}
		c.add(Command{Text: "function " + name, Decision: Ask, AlwaysAsk: true,
			Reason: "defines the function " + name + ", which can shadow a program"})
	case *syntax.CoprocClause:
		c.add(Command{Text: c.text(n), Decision: Ask, AlwaysAsk: true, Reason: alwaysAsk["coproc"]})
	case *syntax.DeclClause:
		c.decl(n)
	case *syntax.LetClause:
		c.other(n, "let")
	case *syntax.ArithmCmd:
		c.other(n, "((")
	case *syntax.TestClause:
		c.other(n, "[[")
	}
	return true
}

func (c *classifier) add(cmd Command) int {
	c.res.Commands = append(c.res.Commands, cmd)
	return len(c.res.Commands) - 1
}

// text is n as written, without a trailing ; or &.
func (c *classifier) text(n syntax.Node) string {
	return strings.TrimRight(strings.TrimSpace(sourceOf(c.src, n)), ";& \t")
}

// call decides one simple command.
func (c *classifier) call(st *syntax.Stmt, call *syntax.CallExpr) {
	words := make([]word, len(call.Args))
	for i, a := range call.Args {
		words[i] = evalWord(c.src, a)
	}
	cmd := Command{Text: c.text(st)}
	var why string
	for _, a := range call.Assigns {
		if a.Name != nil && dangerousVar(a.Name.Value) {
			why = "sets " + a.Name.Value + ", which changes what the command runs"
			break
		}
	}
	if len(words) == 0 {
		idx := c.add(cmd)
		if redirWhy := c.redirects(st.Redirs, idx); why == "" {
			why = redirWhy
		}
		c.res.Commands[idx].Decision, c.res.Commands[idx].Reason = Ask, "only sets shell variables; no rule allows that"
		if why != "" {
			c.res.Commands[idx].Reason, c.res.Commands[idx].AlwaysAsk = why, true
		}
		return
	}
	stdin := false
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn, syntax.RdrInOut:
			stdin = true
		}
	}
	idx := c.add(cmd)
	if redirWhy := c.redirects(st.Redirs, idx); why == "" {
		why = redirWhy
	}
	c.decide(idx, words, why, stdin)
}

// decide fills in the decision of the command at idx.
func (c *classifier) decide(idx int, words []word, why string, stdin bool) {
	c.unchecked = false
	deny, ask := c.restrictive(words)
	start, wrappers, peelWhy := peel(words)
	eff := words[start:]
	cmd := &c.res.Commands[idx]
	cmd.Wrappers, cmd.words = wrappers, eff
	cmd.Program, cmd.Args = eff[0].val, wordVals(eff[1:])
	if why == "" {
		why = peelWhy
	}
	if why == "" {
		why = askReason(eff, stdin)
	}
	for _, t := range c.toolWrites(eff, idx) {
		if !t.Static && why == "" {
			why = nonStaticWrite
		}
	}
	var allow []Rule
	for _, r := range c.rules {
		if r.Decision == Allow && allowMatches(r, eff) {
			allow = append(allow, r)
		}
	}
	cmd.Rules = dedupe(append(append(deny, ask...), allow...))
	switch {
	case len(deny) > 0:
		cmd.Decision, cmd.Reason = Deny, "denied by rule: "+deny[0].String()
	case c.unchecked && c.hasDenyRules():
		cmd.Decision, cmd.Reason, cmd.AlwaysAsk = Deny, tooNested, true
	case why != "":
		cmd.Decision, cmd.Reason, cmd.AlwaysAsk = Ask, why, true
	case len(ask) > 0:
		cmd.Decision, cmd.Reason = Ask, "a rule asks: "+ask[0].String()
	case len(allow) > 0:
		cmd.Decision, cmd.Reason = Allow, "allowed by rule: "+allow[0].String()
	default:
		cmd.Decision, cmd.Reason, cmd.unmatched = Ask, "no rule allows "+quoteWords(eff, 2), true
	}
}

// decl decides export/declare/local/readonly/typeset: a builtin like any
// other for the rules, but an assignment to PATH and the like asks.
func (c *classifier) decl(d *syntax.DeclClause) {
	words := []word{{val: d.Variant.Value, literal: true}}
	why := ""
	for _, a := range d.Args {
		if a.Name != nil && dangerousVar(a.Name.Value) {
			why = d.Variant.Value + " sets " + a.Name.Value + ", which changes what commands run"
		}
		switch {
		case a.Naked && a.Name == nil && a.Value != nil:
			words = append(words, evalWord(c.src, a.Value))
		default:
			words = append(words, word{val: sourceOf(c.src, a), literal: false})
		}
		if a.Naked && a.Name != nil {
			words[len(words)-1] = word{val: a.Name.Value, literal: true}
		}
	}
	idx := c.add(Command{Text: c.text(d)})
	c.decide(idx, words, why, false)
}

// other decides a let, (( )) or [[ ]] clause: a rule on its keyword may
// allow it; what it expands is found by the walk on its own.
func (c *classifier) other(n syntax.Node, keyword string) {
	idx := c.add(Command{Text: c.text(n)})
	c.decide(idx, []word{{val: keyword, literal: true}}, "", false)
}

// finish sets the overall decision, its reason and the suggestions.
func (c *classifier) finish() {
	r := &c.res
	if len(r.Commands) == 0 {
		r.Decision, r.Reason = Ask, "no command found"
		return
	}
	r.Decision = Allow
	asks := 0
	for _, cmd := range r.Commands {
		if cmd.Decision.rank() > r.Decision.rank() {
			r.Decision = cmd.Decision
			if cmd.Decision == Deny {
				r.Reason = fmt.Sprintf("%s — %s", cmd.Text, cmd.Reason)
			}
		}
		if cmd.Decision == Ask {
			asks++
		}
	}
	switch {
	case r.Decision == Allow:
		r.Reason = "every command is allowed by a rule"
	case r.Decision == Ask && len(r.Commands) == 1:
		r.Reason = r.Commands[0].Reason
	case r.Decision == Ask:
		r.Reason = fmt.Sprintf("%d of %d commands need you", asks, len(r.Commands))
	}
	r.Suggestions = suggest(r.Commands)
}

// tooNested is why a command whose nested code could not all be checked
// is refused: a deny rule must not be hidden where the classifier stops.
const tooNested = "runs code nested deeper, or more often, than deny rules are checked (sh -c, eval, env -S…); refused so no denied command can hide there"

func (c *classifier) hasDenyRules() bool {
	for _, r := range c.rules {
		if r.Decision == Deny {
			return true
		}
	}
	return false
}

func dedupe(rules []Rule) []Rule {
	var out []Rule
	seen := map[string]bool{}
	for _, r := range rules {
		k := r.ID + "\x00" + r.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

func quoteWords(ws []word, n int) string {
	if len(ws) < n {
		n = len(ws)
	}
	return "“" + joinRange(ws[:n]) + "”"
}
