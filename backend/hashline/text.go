// Package hashline implements the text model of the line-anchored edit
// contract (shared/design/edit-contract.md): decoding, canonical text,
// digests and the 4-hex-digit tags that Read, Grep and Write hand out.
package hashline

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-desktop/pi-desktop/backend/names"
)

// MaxTextBytes is the largest file treated as text; larger files are binary
// for the contract (no tag, no edit).
const MaxTextBytes = 16 << 20

// binarySniff is how much of a file is searched for NUL.
const binarySniff = 8 << 10

var bom = []byte{0xEF, 0xBB, 0xBF}

// Digest is the full SHA-256 of a file's canonical text. It is kept host
// side: tags are only an index, every authorization compares digests.
type Digest [32]byte

// Tag is the public 4-hex-digit index of a digest.
func (d Digest) Tag() string { return fmt.Sprintf("%02X%02X", d[30], d[31]) }

// Line is one decoded line: content without its terminator.
type Line struct {
	Text string
	CRLF bool // terminated by \r\n rather than \n
}

// Text is a decoded text file.
type Text struct {
	Lines        []Line
	BOM          bool
	FinalNewline bool
	// decoded is the whole file as Decode converted it (BOM removed); the
	// lines are substrings of it. Canonical returns it when it is already
	// canonical instead of copying the file once more.
	decoded string
}

// IsBinary reports whether data is binary under the contract: NUL in the
// first 8 KiB, invalid UTF-8, or larger than MaxTextBytes.
func IsBinary(data []byte) bool {
	if len(data) > MaxTextBytes {
		return true
	}
	sniff := data
	if len(sniff) > binarySniff {
		sniff = sniff[:binarySniff]
	}
	return bytes.IndexByte(sniff, 0) >= 0 || !utf8.Valid(data)
}

// Decode splits data into lines. It does not check IsBinary.
func Decode(data []byte) Text { return decode(data, false) }

// decodeOwned is Decode of bytes handed over for good: the lines are
// substrings of data itself, not of a copy (an Edit of a 100,000-line
// file copied its 6.6 MB once more). data must never change afterwards.
func decodeOwned(data []byte) Text { return decode(data, true) }

func decode(data []byte, owned bool) Text {
	var t Text
	if bytes.HasPrefix(data, bom) {
		t.BOM = true
		data = data[len(bom):]
	}
	if len(data) == 0 {
		return t
	}
	// One string conversion for the whole file; lines are substrings of it,
	// so decoding a 10k-line file costs two allocations, not 10k.
	var rest string
	if owned {
		rest = unsafe.String(unsafe.SliceData(data), len(data))
	} else {
		rest = string(data)
	}
	t.decoded = rest
	t.Lines = make([]Line, 0, strings.Count(rest, "\n")+1)
	for len(rest) > 0 {
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			t.Lines = append(t.Lines, Line{Text: rest})
			return t
		}
		line := rest[:i]
		crlf := len(line) > 0 && line[len(line)-1] == '\r'
		if crlf {
			line = line[:len(line)-1]
		}
		t.Lines = append(t.Lines, Line{Text: line, CRLF: crlf})
		rest = rest[i+1:]
	}
	t.FinalNewline = true
	return t
}

// Canonical is the text the digest covers: lines joined by \n, plus a final
// \n when the file had one. BOM and CRLF do not change it.
func (t Text) Canonical() string {
	n := 0
	for _, l := range t.Lines {
		n += len(l.Text) + 1
	}
	if !t.FinalNewline && n > 0 {
		n--
	}
	// A decoded file without \r is its own canonical text (the lines are
	// its substrings): no copy of a 100,000-line file per call.
	if len(t.decoded) == n && n > 0 && strings.IndexByte(t.decoded, '\r') < 0 {
		return t.decoded
	}
	var b strings.Builder
	b.Grow(n + 1)
	for i, l := range t.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.Text)
	}
	if t.FinalNewline && len(t.Lines) > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// Digest returns the SHA-256 of the canonical text.
func (t Text) Digest() Digest { return digestString(t.Canonical()) }

// digestString hashes s in place: converting a multi-megabyte text to
// []byte would copy it only for sha256 to read it once. sha256 neither
// keeps nor writes its input, so the string's immutability holds.
func digestString(s string) Digest {
	return sha256.Sum256(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// DigestOf decodes data and returns its digest: the fast path for callers
// that need only the tag.
func DigestOf(data []byte) Digest {
	if isCanonical(data) {
		return sha256.Sum256(data)
	}
	return Decode(data).Digest()
}

// IsCanonical reports whether data is its own canonical text: no BOM and
// no \r, so decoding and joining the lines gives the same bytes back, and
// its digest is the SHA-256 of the bytes.
func IsCanonical(data []byte) bool { return isCanonical(data) }

func isCanonical(data []byte) bool {
	return bytes.IndexByte(data, '\r') < 0 && !bytes.HasPrefix(data, bom)
}

// CanonicalOf returns the canonical text of data, decoded as t: the bytes
// themselves when they hold no \r and no BOM (already canonical), without
// rebuilding them line by line.
func CanonicalOf(data []byte, t Text) string {
	if isCanonical(data) {
		if len(t.decoded) == len(data) {
			return t.decoded // the same bytes, already a string
		}
		return string(data)
	}
	return t.Canonical()
}

// Header renders the "[path#TAG]" line that opens Read and Grep output.
func Header(path, tag string) string { return "[" + names.Escape(path) + "#" + tag + "]" }

// ValidTag reports whether s is 4 hex digits (any case).
func ValidTag(s string) bool {
	if len(s) != 4 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}
