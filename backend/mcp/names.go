package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// MaxToolNameLen is the longest tool name the model providers accept
// (Anthropic and OpenAI both: ^[a-zA-Z0-9_-]{1,64}$).
const MaxToolNameLen = 64

// hashLen is how many hex characters a suffix carries: 32 bits, enough that
// two tools of one catalog share a suffix only by astronomic chance (and
// Names resolves even that).
const hashLen = 8

// ToolRef names one tool of one server: the server's id and the tool's own
// name as the server lists it.
type ToolRef struct {
	Server string
	Tool   string
}

// ToolName is the model-facing name of one tool: mcp_<server>_<tool>, every
// character outside [A-Za-z0-9_-] replaced by '_'. A name longer than 64
// characters is cut and ends in '_' and a hash of the full server and tool
// names, so cut names stay distinct. Within a catalog use Names, which also
// separates tools whose names only differ in replaced characters.
func ToolName(r ToolRef) string {
	plain := plainName(r)
	if len(plain) <= MaxToolNameLen {
		return plain
	}
	return suffixed(plain, r, 0)
}

// Names gives every distinct tool of a catalog its model-facing name:
// ToolName where that is unique, otherwise the plain name cut to leave room
// for '_' and a hash suffix of the tool's identity. The result depends only
// on the set of tools, not on their order, so a tool keeps its name when
// another server reconnects and lists its tools in another order, unless
// the newcomer collides with it. Equal refs share one name.
func Names(refs []ToolRef) map[ToolRef]string {
	distinct := slices.Clone(refs)
	slices.SortFunc(distinct, func(a, b ToolRef) int {
		if c := strings.Compare(a.Server, b.Server); c != 0 {
			return c
		}
		return strings.Compare(a.Tool, b.Tool)
	})
	distinct = slices.Compact(distinct)

	first := make(map[string]int, len(distinct))
	for _, r := range distinct {
		first[ToolName(r)]++
	}
	names := make(map[ToolRef]string, len(distinct))
	used := make(map[string]bool, len(distinct))
	// Unique names are kept as they are and claimed first, so a suffixed
	// name can never take the name a tool would have had alone.
	for _, r := range distinct {
		if n := ToolName(r); first[n] == 1 {
			names[r], used[n] = n, true
		}
	}
	for _, r := range distinct {
		if _, done := names[r]; done {
			continue
		}
		plain := plainName(r)
		for salt := 0; ; salt++ {
			n := suffixed(plain, r, salt)
			if !used[n] {
				names[r], used[n] = n, true
				break
			}
		}
	}
	return names
}

// plainName is mcp_<server>_<tool> with unsafe characters replaced, uncut.
func plainName(r ToolRef) string {
	var b strings.Builder
	b.Grow(len("mcp__") + len(r.Server) + len(r.Tool))
	b.WriteString("mcp_")
	writeSafe(&b, r.Server)
	b.WriteByte('_')
	writeSafe(&b, r.Tool)
	return b.String()
}

// writeSafe writes s with every rune outside [A-Za-z0-9_-] as '_' (an
// invalid UTF-8 byte counts as one rune).
func writeSafe(b *strings.Builder, s string) {
	for _, c := range s {
		if c < 0x80 && safeByte(byte(c)) {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
}

func safeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// suffixed cuts plain so that '_' and the hash of r's full identity (and
// salt, when a suffix itself collided) fit in MaxToolNameLen.
func suffixed(plain string, r ToolRef, salt int) string {
	h := sha256.New()
	// Length-prefix the server so ("a_b","c") and ("a","b_c") differ.
	h.Write([]byte(strconv.Itoa(len(r.Server)) + ":" + r.Server + r.Tool))
	if salt > 0 {
		h.Write([]byte("#" + strconv.Itoa(salt)))
	}
	sum := hex.EncodeToString(h.Sum(nil))[:hashLen]
	keep := MaxToolNameLen - 1 - hashLen
	if len(plain) > keep {
		plain = plain[:keep]
	}
	return plain + "_" + sum
}
