package cmdrule

import "testing"

// checkConsistent asserts what must hold for any result: allow only when
// every command is allowed by a matching allow rule; the overall decision is
// the strictest command's; no suggestion beside an always-ask construct.
func checkConsistent(t *testing.T, cmd string, r Result) {
	t.Helper()
	strictest := Allow
	always := false
	for _, c := range r.Commands {
		if c.Decision.rank() > strictest.rank() {
			strictest = c.Decision
		}
		always = always || c.AlwaysAsk
		if c.Decision == Allow && !hasAllowRule(c) {
			t.Errorf("%q: %q allowed without a matching allow rule", cmd, c.Text)
		}
	}
	if len(r.Commands) == 0 {
		strictest = Ask
	}
	if r.Decision != strictest {
		t.Errorf("%q: overall %s, strictest command %s", cmd, r.Decision, strictest)
	}
	if (r.Decision == Deny) != (r.DenyError() != nil) {
		t.Errorf("%q: decision %s but DenyError %v", cmd, r.Decision, r.DenyError())
	}
	if always && len(r.Suggestions) > 0 {
		t.Errorf("%q: suggestions %v beside an always-ask construct", cmd, r.Suggestions)
	}
}

// hasAllowRule re-checks c's allow on its own words: the program and the
// words the rule names, as plain literals, equal.
func hasAllowRule(c Command) bool {
	for _, r := range c.Rules {
		if r.Decision != Allow || r.Program != c.Program || len(c.Args) < len(r.Args) {
			continue
		}
		ok := len(c.words) == len(c.Args)+1 && c.words[0].literal
		for i, a := range r.Args {
			ok = ok && c.Args[i] == a && c.words[i+1].literal
		}
		if ok {
			return true
		}
	}
	return false
}
