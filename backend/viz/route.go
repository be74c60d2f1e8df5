package viz

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Prefix is the URL path prefix of every visualization route.
const Prefix = "/_viz/"

// maxName bounds a fragment file name (most file systems allow 255 bytes).
const maxName = 255

// Route is a parsed visualization URL: which session and which file of its
// visualization folder.
type Route struct {
	Session string
	File    string // a single file name ending in ".html"
}

// ParseRoute parses the (already unescaped) URL path /_viz/<session>/<name>.
// It accepts only a session id of letters, digits, '-' and '_', and a name
// that is one plain file-name component; anything else is not a route.
func ParseRoute(urlPath string) (Route, bool) {
	rest, ok := strings.CutPrefix(urlPath, Prefix)
	if !ok {
		return Route{}, false
	}
	session, name, ok := strings.Cut(rest, "/")
	if !ok || !validSession(session) {
		return Route{}, false
	}
	file := name + ".html"
	if !ValidFileName(file) {
		return Route{}, false
	}
	return Route{Session: session, File: file}, true
}

// Path is the route of file (a valid fragment file name) in session, with
// the name escaped for a URL.
func Path(session, file string) string {
	return Prefix + session + "/" + escapeName(strings.TrimSuffix(file, ".html"))
}

func validSession(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
			return false
		}
	}
	return true
}

// ValidFileName reports whether name can be served: one component ending in
// ".html" with a non-empty stem, valid UTF-8, no separators, no control
// characters, and none of the characters Windows treats specially.
func ValidFileName(name string) bool {
	stem, ok := strings.CutSuffix(name, ".html")
	if !ok || stem == "" || len(name) > maxName || !utf8.ValidString(name) {
		return false
	}
	// Windows drops a trailing dot or space, so such a name is not the file.
	if strings.HasPrefix(name, ".") || strings.HasSuffix(stem, " ") || strings.HasSuffix(stem, ".") {
		return false
	}
	if reservedDevice(stem) {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || unicode.IsControl(r) || strings.ContainsRune(`/\:*?"<>|`, r) {
			return false
		}
	}
	return true
}

// escapeName percent-encodes everything but unreserved characters.
func escapeName(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// reservedDevice reports a Windows device name (CON, NUL, COM1, …), which
// names the device there whatever the extension.
func reservedDevice(stem string) bool {
	base, _, _ := strings.Cut(stem, ".")
	switch strings.ToUpper(strings.TrimRight(base, " ")) {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		return true
	}
	return false
}
