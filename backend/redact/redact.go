// Package redact hides well-known secret shapes in text before it is stored
// or shown (spec §8). It is one hand-written scanner rather than a set of
// regular expressions: every rule starts at a literal anchor found with
// strings.Index or at an '=' / ':' separator and looks only a few bytes
// around it, so a 96 KB Bash result costs one linear pass per anchor and
// nothing can backtrack.
//
// What is redacted (the value only; names and prefixes around it stay):
//   - provider keys: sk-…, sk-ant-…, sk-proj-… (a body of 20+ characters
//     that mixes two of lower case, upper case and digits, so kebab-case
//     names like sk-button-primary-variant stay), sk_live_/rk_live_ keys;
//   - AWS access key ids (AKIA…, ASIA… and 16 upper-case characters);
//   - GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), Slack
//     tokens (xox?-), Google API keys (AIza…), JWTs (eyJ….eyJ….…),
//     Bearer tokens;
//   - private-key PEM blocks: the body between the BEGIN and END lines (a
//     block cut by truncation is hidden to the end, or from the start when
//     only its END survived);
//   - the password of a URL's user info (https://user:[REDACTED]@host);
//   - assignment values whose name ends in password, passwd, pwd,
//     passphrase, secret, token, credential(s), api key, private key or
//     secret/access key (aws_secret_access_key, SecretAccessKey,
//     DB_PASSWORD, GITHUB_TOKEN, "token": …).
//
// Assignments and false positives: a value in quotes is hidden; an
// unquoted value is hidden in env-file style (NAME=value at the start of
// a line, optionally after "export "), and elsewhere unless it reads as
// code: a call or index (contains '(' '[' '{'), a member access (a.b.c),
// a reference ($X, %s, {{x}}, <x>), a type or literal word (string, str,
// int, bool, null, None, true, …) or the name itself (password=password).
// So password = getPassword() and token: string stay; password = hunter2
// is hidden, and so is password = userInput (a false positive we accept:
// it costs a [REDACTED] in a displayed line, never a leak). Comparisons
// (==, !=, <=, >=, =>) are not assignments. Names such as max_tokens,
// token_count or password_hash do not end in a secret word and stay.
package redact

import (
	"slices"
	"strings"
)

// Mark replaces every redacted value.
const Mark = "[REDACTED]"

// span is a byte range of the input to replace.
type span struct {
	start, end int
	with       string
}

// String returns s with every secret value replaced by Mark. When nothing
// matches it returns s itself, without allocating.
func String(s string) string {
	out, _ := redact(s)
	return out
}

// redact also reports whether s ends inside a private-key block (its END
// line is missing), for Stream.
func redact(s string) (string, bool) {
	var sp []span
	open := false
	sp, open = pemBlocks(s, sp)
	sp = tokens(s, sp)
	sp = bearer(s, sp)
	sp = urlPasswords(s, sp)
	sp = assignments(s, sp)
	if len(sp) == 0 {
		return s, open
	}
	return apply(s, sp), open
}

// apply replaces the spans (merged where they overlap) in one pass.
func apply(s string, sp []span) string {
	slices.SortFunc(sp, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for i := 0; i < len(sp); i++ {
		cur := sp[i]
		for i+1 < len(sp) && sp[i+1].start < cur.end {
			cur.end = max(cur.end, sp[i+1].end)
			i++
		}
		if cur.start < at { // contained in what was already replaced
			cur.start = at
			if cur.end <= at {
				continue
			}
		}
		b.WriteString(s[at:cur.start])
		b.WriteString(cur.with)
		at = cur.end
	}
	b.WriteString(s[at:])
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isUpperOrDigit(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// run returns the end of the run of bytes satisfying ok starting at i.
func run(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// mixed reports whether s has characters of at least two of the classes
// lower case, upper case, digit: random key material always does, words
// and kebab-case names usually do not.
func mixed(s string) bool {
	var lo, up, dg int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lo = 1
		case c >= 'A' && c <= 'Z':
			up = 1
		case c >= '0' && c <= '9':
			dg = 1
		}
	}
	return lo+up+dg >= 2
}

// eachIndex calls fn with every index of sub in s.
func eachIndex(s, sub string, fn func(i int)) {
	for at := 0; ; {
		j := strings.Index(s[at:], sub)
		if j < 0 {
			return
		}
		fn(at + j)
		at += j + len(sub)
	}
}
