package redact

import "strings"

// tokenRule is a secret with a fixed prefix: the prefix must not follow a
// letter or digit, and the body after it must be at least min bytes of
// body's alphabet (and pass check, when set).
type tokenRule struct {
	prefix string
	min    int
	body   func(byte) bool
	check  func(body string) bool
	exact  int // when > 0 the body is exactly this long and not followed by a body byte
}

func keyChar(c byte) bool   { return isAlnum(c) || c == '_' || c == '-' }
func slackChar(c byte) bool { return isAlnum(c) || c == '-' }
func patChar(c byte) bool   { return isAlnum(c) || c == '_' }
func bearerChar(c byte) bool {
	return keyChar(c) || c == '.' || c == '~' || c == '+' || c == '/' || c == '='
}

var tokenRules = []tokenRule{
	{prefix: "sk-", min: 20, body: keyChar, check: mixed}, // OpenAI (sk-, sk-proj-…) and Anthropic (sk-ant-…)
	{prefix: "sk_live_", min: 16, body: isAlnum},
	{prefix: "sk_test_", min: 16, body: isAlnum},
	{prefix: "rk_live_", min: 16, body: isAlnum},
	{prefix: "rk_test_", min: 16, body: isAlnum},
	{prefix: "AKIA", body: isUpperOrDigit, exact: 16},
	{prefix: "ASIA", body: isUpperOrDigit, exact: 16},
	{prefix: "ghp_", min: 20, body: isAlnum},
	{prefix: "gho_", min: 20, body: isAlnum},
	{prefix: "ghu_", min: 20, body: isAlnum},
	{prefix: "ghs_", min: 20, body: isAlnum},
	{prefix: "ghr_", min: 20, body: isAlnum},
	{prefix: "github_pat_", min: 20, body: patChar},
	{prefix: "xoxa-", min: 10, body: slackChar},
	{prefix: "xoxb-", min: 10, body: slackChar},
	{prefix: "xoxp-", min: 10, body: slackChar},
	{prefix: "xoxo-", min: 10, body: slackChar},
	{prefix: "xoxr-", min: 10, body: slackChar},
	{prefix: "xoxs-", min: 10, body: slackChar},
	{prefix: "xoxe-", min: 10, body: slackChar},
	{prefix: "AIza", min: 35, body: keyChar},
}

// tokens finds the prefixed secrets and JWTs; the whole token is replaced.
func tokens(s string, sp []span) []span {
	for _, r := range tokenRules {
		eachIndex(s, r.prefix, func(i int) {
			if i > 0 && (isAlnum(s[i-1]) || s[i-1] == '_') {
				return
			}
			b := i + len(r.prefix)
			e := run(s, b, r.body)
			switch {
			case r.exact > 0:
				if e-b != r.exact {
					return
				}
			case e-b < r.min:
				return
			}
			if r.check != nil && !r.check(s[b:e]) {
				return
			}
			sp = append(sp, span{i, e, Mark})
		})
	}
	eachIndex(s, "eyJ", func(i int) {
		if i > 0 && keyChar(s[i-1]) {
			return
		}
		// header.payload.signature, base64url; the payload is JSON too.
		e1 := run(s, i, keyChar)
		if e1-i < 10 || e1 >= len(s) || s[e1] != '.' || !strings.HasPrefix(s[e1+1:], "eyJ") {
			return
		}
		e2 := run(s, e1+1, keyChar)
		if e2-e1-1 < 10 || e2 >= len(s) || s[e2] != '.' {
			return
		}
		sp = append(sp, span{i, run(s, e2+1, keyChar), Mark})
	})
	return sp
}

// bearer hides the credential of "Bearer <token>" (any case).
func bearer(s string, sp []span) []span {
	for _, p := range []string{"Bearer", "bearer", "BEARER"} {
		eachIndex(s, p, func(i int) {
			if i > 0 && isAlnum(s[i-1]) {
				return
			}
			b := i + len(p)
			ws := run(s, b, func(c byte) bool { return c == ' ' || c == '\t' })
			if ws == b {
				return
			}
			e := run(s, ws, bearerChar)
			if e-ws < 16 || !mixed(s[ws:e]) {
				return
			}
			sp = append(sp, span{ws, e, Mark})
		})
	}
	return sp
}

// urlPasswords hides the password of scheme://user:password@host.
func urlPasswords(s string, sp []span) []span {
	eachIndex(s, "://", func(i int) {
		b := i + 3
		colon := -1
		for j := b; j < len(s); j++ {
			switch c := s[j]; c {
			case '/', '?', '#', ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`':
				return
			case ':':
				if colon < 0 {
					colon = j
				}
			case '@':
				if colon >= 0 && j > colon+1 {
					sp = append(sp, span{colon + 1, j, Mark})
				}
				return
			}
		}
	})
	return sp
}

// Private-key PEM blocks: "-----BEGIN [words ]PRIVATE KEY[ BLOCK]-----".
const (
	pemBegin = "-----BEGIN "
	pemEnd   = "-----END "
)

// pemHeader returns the end of a private-key armor line starting at i
// (after "-----BEGIN " or "-----END "), or -1.
func pemHeader(s string, i int) int {
	e := run(s, i, func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' })
	if e-i > 60 || !strings.HasPrefix(s[e:], "-----") {
		return -1
	}
	label := s[i:e]
	if !strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") {
		return -1
	}
	return e + 5
}

// pemBlocks hides the body of every private-key block, keeping its armor
// lines. A block without an END line is hidden to the end of s (open is
// then true); an END line without a BEGIN before it (the head was cut
// off) is hidden from the start of s.
func pemBlocks(s string, sp []span) ([]span, bool) {
	if !strings.Contains(s, "PRIVATE KEY") {
		return sp, false
	}
	at, open, seenBegin := 0, false, false
	for at < len(s) {
		bi := strings.Index(s[at:], pemBegin)
		ei := strings.Index(s[at:], pemEnd)
		if ei >= 0 && (bi < 0 || ei < bi) {
			ei += at
			if he := pemHeader(s, ei+len(pemEnd)); he > 0 {
				if !seenBegin { // the body before this END has lost its BEGIN
					if ls := strings.LastIndexByte(s[:ei], '\n'); ls > 0 {
						sp = append(sp, span{0, ls, Mark})
					}
				}
				seenBegin = true
				at = he
				continue
			}
			at = ei + len(pemEnd)
			continue
		}
		if bi < 0 {
			break
		}
		bi += at
		he := pemHeader(s, bi+len(pemBegin))
		if he < 0 {
			at = bi + len(pemBegin)
			continue
		}
		seenBegin = true
		body := he
		with := Mark
		if body < len(s) && s[body] == '\n' {
			body++
			with = Mark + "\n"
		} else if strings.HasPrefix(s[body:], "\r\n") {
			body += 2
			with = Mark + "\r\n"
		}
		end := -1
		for j := body; ; {
			k := strings.Index(s[j:], pemEnd)
			if k < 0 {
				break
			}
			if pemHeader(s, j+k+len(pemEnd)) > 0 {
				end = j + k
				break
			}
			j += k + len(pemEnd)
		}
		if end < 0 {
			sp = append(sp, span{body, len(s), with})
			open = true
			break
		}
		// Keep the END line whole (with any line prefix, e.g. Read's
		// line number): replace up to the last line break before it.
		stop := end
		if nl := strings.LastIndexByte(s[body:end], '\n'); nl >= 0 {
			stop = body + nl + 1
		} else {
			with = Mark
		}
		if stop > body {
			sp = append(sp, span{body, stop, with})
		}
		at = pemHeader(s, end+len(pemEnd))
	}
	return sp, open
}
