package cmdrule

import (
	"fmt"
	"strings"
)

// askReason is why the command words (wrappers already looked through) can
// never be allowed by a rule, or "" when a rule may allow them. stdin tells
// that a here-document, here-string or input redirection feeds it.
func askReason(words []word, stdin bool) string {
	if !words[0].literal {
		return fmt.Sprintf("the program %s is only known when the shell runs it", words[0].val)
	}
	name := baseName(words[0].val)
	args := words[1:]
	if why := alwaysAsk[name]; why != "" {
		return why
	}
	// An argument whose first character only the shell decides may turn
	// into an option the checks below never saw (go test ${X:--exec=./evil},
	// git $'-c' core.pager=…, a glob matching a file named -rf).
	for _, a := range args {
		if !a.literal && !a.fixedLead && !optionsInert(name) {
			return "the argument " + a.val + " is only known when the shell runs it and could become an option of " + name
		}
	}
	if opt := runOption(name, args); opt != "" {
		return name + " " + opt + " makes it run another program or load a configuration that can"
	}
	switch {
	case shellPrograms[name]:
		return shellReason(name, args, stdin)
	case interpreters[name]:
		if why := interpreterReason(name, args, stdin); why != "" {
			return why
		}
	}
	switch name {
	case "find":
		for _, a := range args {
			switch a.val {
			case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
				return "find " + a.val + " runs commands or changes files for what it finds"
			}
		}
	case "git":
		return gitReason(args)
	case "sed", "gsed":
		return sedReason(args)
	case "awk", "gawk", "mawk", "nawk":
		return awkReason(args)
	case "npm", "pnpm", "yarn", "bun":
		if sub := firstOperand(args); sub == "exec" || sub == "x" || sub == "dlx" {
			return name + " " + sub + " downloads or runs a package's binary"
		}
	case "rg":
		for _, a := range args {
			if a.val == "--pre" || strings.HasPrefix(a.val, "--pre=") {
				return "rg --pre runs a program on every file it searches"
			}
		}
	case "command":
		// command -v/-V only look a name up; anything else would run it.
		if len(args) == 0 || (args[0].val != "-v" && args[0].val != "-V") {
			return "command runs the program named after it"
		}
	}
	return ""
}

func shellReason(name string, args []word, stdin bool) string {
	for _, a := range args {
		if !strings.HasPrefix(a.val, "-") || a.val == "-" || a.val == "--" {
			break
		}
		if isShortCluster(a.val) && strings.ContainsAny(a.val[1:], "cs") {
			return name + " " + a.val + " runs a string or its input as shell code"
		}
	}
	if stdin || firstOperand(args) == "" {
		return name + " runs the shell code fed to its input"
	}
	return ""
}

// interpreterReason: inline code (python -c, node -e, perl -e, ruby -e,
// php -r) or a program read from the input is code the classifier does not see.
func interpreterReason(name string, args []word, stdin bool) string {
	for _, a := range args {
		v := a.val
		if !strings.HasPrefix(v, "-") || v == "-" || v == "--" {
			break
		}
		for _, p := range []string{"--eval", "--print", "--require", "--import", "--command", "--exec", "--loader"} {
			if strings.HasPrefix(v, p) {
				return name + " " + v + " runs code given on the command line"
			}
		}
		if isShortCluster(v) && strings.ContainsAny(v[1:], "ceEprx") {
			return name + " " + v + " runs code given on the command line"
		}
	}
	if name == "deno" || name == "bun" {
		if sub := firstOperand(args); sub == "eval" || sub == "repl" {
			return name + " " + sub + " runs code given on the command line"
		}
		return ""
	}
	if stdin {
		return name + " reads the code it runs from its input"
	}
	return ""
}

// gitReason: options that make git run a program or load another config.
func gitReason(args []word) string {
	sub := ""
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if sub == "" {
			switch {
			case v == "-c" || strings.HasPrefix(v, "-c") || strings.HasPrefix(v, "--exec-path") || strings.HasPrefix(v, "--config-env"):
				return "git " + v + " changes git's configuration for this command (core.pager, core.fsmonitor and others run programs)"
			case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace":
				i++ // its value is not the subcommand
			case !strings.HasPrefix(v, "-"):
				sub = v
			}
			continue
		}
		switch {
		case strings.HasPrefix(v, "--upload-pack"), strings.HasPrefix(v, "--receive-pack"),
			strings.HasPrefix(v, "--exec"), strings.HasPrefix(v, "--extcmd"):
			return "git " + sub + " " + v + " runs a program"
		case (sub == "rebase" || sub == "difftool") && v == "-x",
			(sub == "clone" || sub == "fetch" || sub == "pull" || sub == "ls-remote" || sub == "archive") && v == "-u",
			sub == "grep" && (v == "-O" || strings.HasPrefix(v, "-O") || strings.HasPrefix(v, "--open-files-in-pager")):
			return "git " + sub + " " + v + " runs a program"
		case (sub == "clone" || sub == "submodule") && (v == "-c" || strings.HasPrefix(v, "--config")):
			return "git " + sub + " " + v + " sets configuration that can run programs"
		case (sub == "submodule" && v == "foreach") || (sub == "bisect" && v == "run") || sub == "filter-branch":
			return "git " + sub + " " + v + " runs shell commands"
		}
	}
	return ""
}

// firstOperand is the first argument that is not an option, or "".
func firstOperand(args []word) string {
	for _, a := range args {
		if !strings.HasPrefix(a.val, "-") {
			return a.val
		}
	}
	return ""
}

func joinVals(ws []word, n int) string {
	var out []string
	for i, w := range ws {
		if i == n {
			out = append(out, "…")
			break
		}
		out = append(out, w.val)
	}
	return strings.Join(out, " ")
}

// optionsInert reports programs none of whose options runs a program,
// writes a file or sets a variable, so an argument that turns into an
// option at run time changes only what they print (echo "$x", cat "$f").
func optionsInert(name string) bool {
	switch name {
	case "echo", "cat", "ls", "wc", "head", "tail", "basename", "dirname", "realpath", "stat", "du", "df",
		"test", "[", "true", "false", "pwd":
		return true
	}
	return false
}
