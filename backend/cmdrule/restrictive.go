package cmdrule

import "strings"

// maxNesting bounds how deep strings run as code (bash -c "…", eval …) are
// parsed again for deny rules.
const maxNesting = 3

// lookThrough are programs that run the command after their own options:
// restrictive rules look for a program at each of those places, including
// behind sudo, xargs and the like that an allow never looks through.
var lookThrough = map[string][]string{
	"timeout": {"-s", "-k", "--signal", "--kill-after"}, "nice": {"-n"}, "nohup": nil,
	"stdbuf": {"-i", "-o", "-e"}, "time": {"-f", "-o"}, "command": nil, "builtin": nil,
	"env": {"-u", "-C", "--unset", "--chdir"}, "exec": {"-a"},
	"sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group"},
	"doas": {"-u", "-C"}, "pkexec": {"--user"}, "xargs": {"-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a"},
	"setsid": nil, "chroot": nil, "ionice": {"-c", "-n", "-p"}, "taskset": nil, "flock": {"-w", "-E"},
	"strace": {"-o", "-e", "-p"}, "ltrace": {"-o", "-e"}, "unbuffer": nil, "chrt": nil, "caffeinate": nil,
	"watch": {"-n", "-d"}, "firejail": nil, "proxychains": nil, "systemd-run": nil,
}

// operands are how many words after its options a looked-through program
// takes before the command (timeout's duration, chroot's folder).
var operands = map[string]int{"timeout": 1, "chroot": 1, "taskset": 1, "flock": 1, "chrt": 1}

// restrictive finds the deny and ask rules that catch words: at the
// program, behind every wrapper-like program, after find -exec, and inside
// strings run as code (sh -c, eval, su -c, env -S, watch).
func (c *classifier) restrictive(words []word) (deny, ask []Rule) {
	add := func(d, a []Rule) { deny, ask = append(deny, d...), append(ask, a...) }
	// A code string built from the rest of the words (eval, watch, env -S)
	// covers every later candidate: it is parsed once, not once per wrapper.
	restParsed := false
	for p := 0; p < len(words); {
		for _, r := range c.rules {
			if r.Decision != Allow && restrictiveMatches(r, words[p:]) {
				add(pick(r))
			}
		}
		name := baseName(words[p].denyVal())
		rest := words[p+1:]
		switch {
		case restParsed:
		case name == "eval":
			restParsed = true
			add(c.nested(joinDeny(rest)))
		case name == "watch":
			restParsed = true
			add(c.nested(joinDeny(afterOptions(name, rest))))
		case shellPrograms[name] || name == "su" || name == "flock":
			if code := commandString(rest); code != "" {
				add(c.nested(code))
			}
		case name == "env":
			if code := splitString(rest); code != "" {
				restParsed = true
				add(c.nested(code))
			}
		case name == "find":
			add(c.afterExec(rest))
		}
		if _, ok := lookThrough[name]; !ok {
			break
		}
		next := len(words) - len(afterOptions(name, rest))
		if next <= p {
			break
		}
		p = next
	}
	return deny, ask
}

// commandString is the code a shell, su or flock runs from its -c (in a
// cluster too: bash -lc) or --command option, or "".
func commandString(args []word) string {
	for i, a := range args {
		v := a.denyVal()
		switch {
		case strings.HasPrefix(v, "--command="):
			return strings.TrimPrefix(v, "--command=")
		case v == "--command" || isShortCluster(v) && strings.Contains(v, "c"):
			if i+1 < len(args) {
				return args[i+1].denyVal()
			}
		}
	}
	return ""
}

// splitString is the command env -S / --split-string would run, or "".
func splitString(args []word) string {
	for i, a := range args {
		switch {
		case a.val == "-S" || a.val == "--split-string":
			return joinDeny(args[i+1:])
		case strings.HasPrefix(a.val, "--split-string="):
			return strings.TrimPrefix(a.denyVal(), "--split-string=") + " " + joinDeny(args[i+1:])
		case strings.HasPrefix(a.val, "-S"):
			return strings.TrimPrefix(a.denyVal(), "-S") + " " + joinDeny(args[i+1:])
		}
	}
	return ""
}

// afterExec matches the restrictive rules on the commands find runs
// (-exec, -execdir, -ok, -okdir). Only the first is looked through further
// (behind sudo, in sh -c…): recursing at each would cost 2^n on
// `find -exec find -exec …`.
func (c *classifier) afterExec(args []word) (deny, ask []Rule) {
	first := true
	for i, a := range args {
		switch a.val {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		if first && c.depth >= maxNesting {
			c.unchecked = true
		}
		if first && c.depth < maxNesting {
			first = false
			c.depth++
			d, k := c.restrictive(args[i+1:])
			c.depth--
			deny, ask = append(deny, d...), append(ask, k...)
			continue
		}
		for _, r := range c.rules {
			if r.Decision != Allow && restrictiveMatches(r, args[i+1:]) {
				d, k := pick(r)
				deny, ask = append(deny, d...), append(ask, k...)
			}
		}
	}
	return deny, ask
}

// afterOptions drops a looked-through program's options, assignments and
// operands from the front of its arguments.
func afterOptions(name string, args []word) []word {
	i := 0
	for i < len(args) {
		v := args[i].val
		if v == "--" {
			i++
			break
		}
		if isAssignment(v) {
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") || len(v) < 2 {
			break
		}
		if contains(lookThrough[name], v) {
			i++
		}
		i++
	}
	for n := operands[name]; n > 0 && i < len(args); n-- {
		i++
	}
	return args[min(i, len(args)):]
}

// nested classifies code given as a string and returns the deny and ask
// rules any of its commands matched.
func (c *classifier) nested(code string) (deny, ask []Rule) {
	if strings.TrimSpace(code) == "" {
		return nil, nil
	}
	if c.depth >= maxNesting || *c.budget <= 0 {
		c.unchecked = true
		return nil, nil
	}
	*c.budget--
	sub := classify(code, c.rules, c.depth+1, c.budget)
	for _, cmd := range sub.Commands {
		if cmd.Reason == tooNested {
			c.unchecked = true
		}
		for _, r := range cmd.Rules {
			d, a := pick(r)
			deny, ask = append(deny, d...), append(ask, a...)
		}
	}
	return deny, ask
}

func pick(r Rule) (deny, ask []Rule) {
	switch r.Decision {
	case Deny:
		return []Rule{r}, nil
	case Ask:
		return nil, []Rule{r}
	}
	return nil, nil
}

// joinDeny is words as one line of code, for parsing again: each word's
// deny value, so "rm -rf $x" in eval "rm -rf $x" is code, not one word.
func joinDeny(ws []word) string {
	vals := make([]string, len(ws))
	for i, w := range ws {
		vals[i] = w.denyVal()
	}
	return strings.Join(vals, " ")
}

func wordVals(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.val
	}
	return out
}
