package redact

import "strings"

// MaxHold bounds the partial line a Stream keeps back: a longer line is
// redacted and shown as it is.
const MaxHold = 8 << 10

// Stream redacts text that arrives in chunks cut anywhere (live command
// output). It shows whole lines only, so a secret split across two chunks
// is still seen whole, and it remembers an open private-key block so the
// body lines of later chunks stay hidden. The zero value is ready.
type Stream struct {
	pend  string
	inKey bool
}

// Write takes the next chunk and returns what may be shown now (possibly
// "").
func (r *Stream) Write(chunk string) string {
	text := r.pend + chunk
	cut := strings.LastIndexByte(text, '\n') + 1
	if cut == 0 && len(text) < MaxHold {
		r.pend = text
		return ""
	}
	if cut == 0 {
		cut = len(text)
	}
	r.pend = text[cut:]
	return r.redact(text[:cut])
}

// Flush returns the held-back rest at the end of the stream.
func (r *Stream) Flush() string {
	text := r.pend
	r.pend = ""
	if text == "" {
		return ""
	}
	return r.redact(text)
}

func (r *Stream) redact(text string) string {
	prefix := ""
	if r.inKey {
		// Still inside a private-key block shown as redacted earlier: hide
		// everything up to its END line.
		end := -1
		for j := 0; ; {
			k := strings.Index(text[j:], pemEnd)
			if k < 0 {
				break
			}
			if pemHeader(text, j+k+len(pemEnd)) > 0 {
				end = j + k
				break
			}
			j += k + len(pemEnd)
		}
		if end < 0 {
			return ""
		}
		ls := strings.LastIndexByte(text[:end], '\n') + 1
		r.inKey = false
		if ls > 0 {
			text = text[ls:]
		}
		// The END line itself stays; what follows is redacted as usual.
		he := pemHeader(text, strings.Index(text, pemEnd)+len(pemEnd))
		prefix, text = text[:he], text[he:]
	}
	out, open := redact(text)
	r.inKey = open
	return prefix + out
}
