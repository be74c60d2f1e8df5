package redact

import "strings"

// assignments hides the values of secret-named assignments (see the
// package comment for what counts as code and stays).
func assignments(s string, sp []span) []span {
	for at := 0; at < len(s); {
		j := strings.IndexAny(s[at:], "=:")
		if j < 0 {
			break
		}
		i := at + j
		at = i + 1
		vs, envStyle, ok := separator(s, i)
		if !ok {
			continue
		}
		name, nameStart := nameBefore(s, i)
		if !secretName(name) {
			continue
		}
		atLineStart := lineStart(s, nameStart)
		// An unquoted value after ':' counts only for a YAML-style key at
		// the start of its line: "a secret: this file" is prose.
		unquotedOK := s[i] == '=' || atLineStart
		if sp2, ok := value(s, vs, name, envStyle && atLineStart, unquotedOK, sp); ok {
			sp = sp2
		}
	}
	return sp
}

// separator checks the '=' or ':' at i and returns where the value may
// start (after ":=" and blanks). envStyle means '=' right after a name.
func separator(s string, i int) (int, bool, bool) {
	c := s[i]
	next := byte(0)
	if i+1 < len(s) {
		next = s[i+1]
	}
	prev := byte(0)
	if i > 0 {
		prev = s[i-1]
	}
	vs := i + 1
	switch c {
	case '=':
		if next == '=' || next == '>' || next == '~' || prev == '=' || prev == '!' || prev == '<' || prev == '>' || prev == ':' {
			return 0, false, false
		}
	case ':':
		switch next {
		case ':', '/':
			return 0, false, false
		case '=':
			vs++
		}
		if prev == ':' {
			return 0, false, false
		}
	}
	envStyle := c == '=' && i > 0 && (isAlnum(prev) || prev == '_')
	return run(s, vs, func(b byte) bool { return b == ' ' || b == '\t' }), envStyle, true
}

func nameChar(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

// nameBefore returns the name ending before the separator at i: blanks
// and one closing quote are skipped ("token": …).
func nameBefore(s string, i int) (string, int) {
	e := i
	for e > 0 && (s[e-1] == ' ' || s[e-1] == '\t') {
		e--
	}
	if e > 0 && (s[e-1] == '"' || s[e-1] == '\'') {
		e--
	}
	b := e
	for b > 0 && nameChar(s[b-1]) && e-b < 128 {
		b--
	}
	return s[b:e], b
}

// lineStart reports whether only blanks or "export " precede i on its line.
func lineStart(s string, i int) bool {
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	pre := strings.TrimLeft(s[ls:i], " \t")
	return pre == "" || pre == "export " || pre == "- "
}

// secretName reports whether the last word of name (split at _ - . and
// lower-to-upper case changes) says it holds a secret.
func secretName(name string) bool {
	if len(name) < 3 || !secretSuffix(name) {
		return false
	}
	words := splitWords(name)
	n := len(words)
	if n == 0 {
		return false
	}
	switch words[n-1] {
	case "password", "passwd", "pwd", "passphrase", "secret", "token", "credential", "credentials", "apikey":
		return true
	case "key":
		if n >= 2 {
			switch words[n-2] {
			case "api", "private", "secret":
				return true
			}
		}
		for _, w := range words[:n-1] {
			if w == "secret" { // aws_secret_access_key, SecretAccessKey
				return true
			}
		}
	}
	return false
}

// secretSuffix is secretName's cheap first test, without allocating:
// most names before a separator end in no secret word at all.
func secretSuffix(name string) bool {
	for _, w := range []string{"password", "passwd", "pwd", "passphrase", "secret", "token", "credential", "credentials", "key"} {
		if len(name) >= len(w) && strings.EqualFold(name[len(name)-len(w):], w) {
			return true
		}
	}
	return false
}

// splitWords lower-cases name's words: DB_PASSWORD → db password,
// SecretAccessKey → secret access key, api-key → api key.
func splitWords(name string) []string {
	var words []string
	start := -1
	for i := 0; i <= len(name); i++ {
		if i == len(name) || !isAlnum(name[i]) {
			if start >= 0 {
				words = append(words, strings.ToLower(name[start:i]))
			}
			start = -1
			continue
		}
		c := name[i]
		if start >= 0 && c >= 'A' && c <= 'Z' && i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z' {
			words = append(words, strings.ToLower(name[start:i]))
			start = i
		}
		if start < 0 {
			start = i
		}
	}
	return words
}

// value adds the span of the assignment value starting at vs.
func value(s string, vs int, name string, envStyle, unquotedOK bool, sp []span) ([]span, bool) {
	if vs >= len(s) {
		return sp, false
	}
	if q := s[vs]; q == '"' || q == '\'' || q == '`' {
		b := vs + 1
		e := b
		for e < len(s) && s[e] != q && s[e] != '\n' {
			if s[e] == '\\' && e+1 < len(s) && s[e+1] != '\n' {
				e++
			}
			e++
		}
		if e == b || reference(s[b:e]) {
			return sp, false
		}
		return append(sp, span{b, e, Mark}), true
	}
	if !unquotedOK {
		return sp, false
	}
	var e int
	if envStyle {
		e = run(s, vs, func(c byte) bool { return c != ' ' && c != '\t' && c != '\n' && c != '\r' })
	} else {
		e = run(s, vs, func(c byte) bool {
			return !strings.ContainsRune(" \t\r\n&,;\"'`)]}<>", rune(c))
		})
	}
	v := s[vs:e]
	if v == "" || reference(v) || (!envStyle && code(v, name)) {
		return sp, false
	}
	return append(sp, span{vs, e, Mark}), true
}

// reference reports a value that names a secret rather than holding it.
func reference(v string) bool {
	switch {
	case strings.HasPrefix(v, "$"), strings.HasPrefix(v, "%"), strings.HasPrefix(v, "{{"),
		strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">"), v == Mark:
		return true
	}
	return false
}

// literalWords are types and literals that follow a secret name in code.
var literalWords = map[string]bool{
	"null": true, "nil": true, "none": true, "true": true, "false": true, "undefined": true,
	"string": true, "str": true, "int": true, "number": true, "bool": true, "boolean": true,
	"bytes": true, "any": true, "object": true, "optional": true, "required": true, "secretstr": true,
}

// code reports an unquoted value that reads as code, not a secret.
func code(v, name string) bool {
	if strings.ContainsAny(v, "([{") {
		return true
	}
	lv := strings.ToLower(strings.TrimSuffix(v, ":"))
	if literalWords[lv] || strings.EqualFold(v, name) {
		return true
	}
	if words := splitWords(name); len(words) > 0 && lv == words[len(words)-1] {
		return true // token: Token
	}
	// a.b.c: a member access.
	if strings.Contains(v, ".") {
		for _, part := range strings.Split(v, ".") {
			if part == "" || !identifier(part) {
				return false
			}
		}
		return true
	}
	return false
}

func identifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '_' {
			return false
		}
	}
	return true
}
