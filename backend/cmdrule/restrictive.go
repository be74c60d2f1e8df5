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
	for p := 0; p < len(words); {
		for _, r := range c.rules {
			if r.Decision != Allow && restrictiveMatches(r, words[p:]) {
				add(pick(r))
			}
		}
		name := baseName(words[p].val)
		rest := words[p+1:]
		switch {
		case name == "eval":
			add(c.nested(joinRange(rest)))
		case name == "watch":
			add(c.nested(joinRange(afterOptions(name, rest))))
		case shellPrograms[name] || name == "su" || name == "flock":
			for i, a := range rest {
				if isShortCluster(a.val) && strings.Contains(a.val, "c") && i+1 < len(rest) {
					add(c.nested(rest[i+1].val))
					break
				}
			}
		case name == "env":
			for i, a := range rest {
				switch {
				case a.val == "-S" || a.val == "--split-string":
					if i+1 < len(rest) {
						add(c.nested(strings.Join(append([]string{}, wordVals(rest[i+1:])...), " ")))
					}
				case strings.HasPrefix(a.val, "--split-string="):
					add(c.nested(strings.TrimPrefix(a.val, "--split-string=") + " " + joinRange(rest[i+1:])))
				case strings.HasPrefix(a.val, "-S"):
					add(c.nested(strings.TrimPrefix(a.val, "-S") + " " + joinRange(rest[i+1:])))
				}
			}
		case name == "find":
			for i, a := range rest {
				switch a.val {
				case "-exec", "-execdir", "-ok", "-okdir":
					d, k := c.restrictive(rest[i+1:])
					add(d, k)
				}
			}
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
	return args[i:]
}

// nested classifies code given as a string and returns the deny and ask
// rules any of its commands matched.
func (c *classifier) nested(code string) (deny, ask []Rule) {
	if c.depth >= maxNesting || strings.TrimSpace(code) == "" {
		return nil, nil
	}
	sub := classify(code, c.rules, c.depth+1)
	for _, cmd := range sub.Commands {
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

func wordVals(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.val
	}
	return out
}
