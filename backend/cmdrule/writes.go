package cmdrule

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirects records the files redirs write and returns why they make the
// command ask: a target only known when the shell runs it, or bash's
// network pseudo-files.
func (c *classifier) redirects(redirs []*syntax.Redirect, idx int) (why string) {
	for _, r := range redirs {
		if r.Word == nil {
			continue
		}
		if w := evalWord(c.src, r.Word); strings.HasPrefix(w.val, "/dev/tcp/") || strings.HasPrefix(w.val, "/dev/udp/") {
			why = "redirects to " + w.val + ", a network connection"
		}
		via := ""
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob,
			syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
			via = r.Op.String()
		case syntax.DplOut:
			// >&2 and >&- duplicate or close a descriptor; >& file writes.
			if w := evalWord(c.src, r.Word); w.literal && (isDigits(w.val) || w.val == "-") {
				continue
			}
			via = r.Op.String()
		default:
			continue
		}
		if !c.addWrite(evalWord(c.src, r.Word), via, idx) && why == "" {
			why = nonStaticWrite
		}
	}
	return why
}

const nonStaticWrite = "writes to a file whose name is only known when the shell runs it"

// toolWrites records the files tee and dd would write.
func (c *classifier) toolWrites(words []word, idx int) []WriteTarget {
	before := len(c.res.Writes)
	switch baseName(words[0].val) {
	case "tee":
		opts := true
		for _, w := range words[1:] {
			if opts && w.val == "--" {
				opts = false
				continue
			}
			if opts && strings.HasPrefix(w.val, "-") && len(w.val) > 1 {
				continue
			}
			c.addWrite(w, "tee", idx)
		}
	case "dd":
		for _, w := range words[1:] {
			if strings.HasPrefix(w.val, "of=") {
				c.addWrite(word{val: strings.TrimPrefix(w.val, "of="), literal: w.literal}, "dd of=", idx)
			}
		}
	case "git": // git diff/log --output=FILE
		c.optionWrites(words[1:], idx, "--output", "")
	case "sort":
		c.optionWrites(words[1:], idx, "--output", "-o")
	}
	return c.res.Writes[before:]
}

// optionWrites records the files named by an option's value: --long=FILE,
// --long FILE, -sFILE or -s FILE (short "" for none). Like getopt it also
// takes an abbreviated long option (--outp=FILE, at least "--" and two
// letters) and a short option inside a cluster (-uo FILE, -uoFILE); a
// cluster whose 'o' is really another option's value (sort -to) is counted
// too, which only asks where it need not.
func (c *classifier) optionWrites(args []word, idx int, long, short string) {
	for i, w := range args {
		var path word
		next := func() bool {
			if i+1 >= len(args) {
				return false
			}
			path = args[i+1]
			return true
		}
		via := long
		switch {
		case strings.HasPrefix(w.val, "--"):
			name, val, eq := strings.Cut(w.val, "=")
			if len(name) < 4 || !strings.HasPrefix(long, name) {
				continue
			}
			if eq {
				path = word{val: val, literal: w.literal}
			} else if !next() {
				continue
			}
		case short != "" && len(w.val) > 1 && w.val[0] == '-':
			at := strings.IndexByte(w.val[1:], short[1])
			if at < 0 {
				continue
			}
			via = short
			if rest := w.val[at+2:]; rest != "" {
				path = word{val: rest, literal: w.literal}
			} else if !next() {
				continue
			}
		default:
			continue
		}
		c.addWrite(path, via, idx)
	}
}

// addWrite records a write target; it reports whether the path is static.
// The null device and the standard streams are no file.
func (c *classifier) addWrite(w word, via string, idx int) bool {
	if w.literal {
		switch w.val {
		case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
			return true
		}
	}
	c.res.Writes = append(c.res.Writes, WriteTarget{Path: w.val, Static: w.literal, Via: via, Command: idx})
	return w.literal
}

// LiteralArgs are the command's arguments that are plain literals, after
// quote removal: the words the host can resolve as paths without running
// the shell.
func (c Command) LiteralArgs() []string {
	var out []string
	for i, w := range c.words {
		if i > 0 && w.literal {
			out = append(out, w.val)
		}
	}
	return out
}
