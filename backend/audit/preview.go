package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/redact"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Preview bounds.
const (
	PreviewMaxBytes  = 1024
	PreviewMaxString = 200
)

// secretKey matches argument names whose values are never shown.
var secretKey = regexp.MustCompile(`(?i)(api[_-]?key|token|secret|password|passwd|authorization|credential|private[_-]?key)`)

// Redact replaces credential-shaped substrings: the one redactor that also
// hides secrets in stored and displayed tool output.
func Redact(s string) string { return redact.String(s) }

// Hash is the hex SHA-256 of the canonical arguments, shortened: enough to
// match a row to a call, never enough to reconstruct the arguments.
func Hash(args []byte) string {
	sum := sha256.Sum256(args)
	return hex.EncodeToString(sum[:12])
}

// Preview renders arguments for an approval card or an audit row: keys
// sorted, long strings cut, secrets redacted, the whole bounded.
func Preview(args []byte) string {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return truncate.Bytes(Redact(string(args)), PreviewMaxBytes)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteString("=")
		if secretKey.MatchString(k) {
			b.WriteString("[REDACTED]")
			continue
		}
		switch v := m[k].(type) {
		case string:
			b.WriteString(fmt.Sprintf("%q", shorten(v)))
		default:
			raw, _ := json.Marshal(sanitize(v))
			b.WriteString(truncate.Bytes(string(raw), PreviewMaxString))
		}
	}
	return truncate.Bytes(b.String(), PreviewMaxBytes)
}

// redactHead is how much of a long string value shorten redacts: far more
// than is shown, so a secret that starts in the shown part is still whole
// for the patterns, but bounded, so a 19 MB Write content is not scanned
// (and copied) whole for a 200-character preview.
const redactHead = 64 << 10

// shorten redacts a string value and cuts it to PreviewMaxString runes.
func shorten(v string) string {
	s := Redact(truncate.Bytes(v, redactHead))
	if utf8.RuneCountInString(s) > PreviewMaxString {
		s = truncate.Bytes(s, PreviewMaxString) + fmt.Sprintf("…(%d chars)", utf8.RuneCountInString(v))
	}
	return s
}

// sanitize redacts secrets at any depth of a decoded JSON value: values of
// secret-named keys, and credential-shaped strings anywhere.
func sanitize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, val := range t {
			if secretKey.MatchString(k) {
				out[k] = "[REDACTED]"
			} else {
				out[k] = sanitize(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, val := range t {
			out[i] = sanitize(val)
		}
		return out
	case string:
		return shorten(t)
	}
	return v
}
