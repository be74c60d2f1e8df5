package mcpstore

import (
	"strings"
	"testing"
)

// FuzzParseServerFile: whatever a project's .agents/servers file holds, the
// parser neither panics nor returns an unusable definition as usable, and
// every entry says where it came from.
func FuzzParseServerFile(f *testing.F) {
	for _, seed := range []string{
		`{"command": "uvx", "args": ["mcp-server-git"], "env": {"A": "${B:-c}"}}`,
		`{"type": "http", "url": "https://x.example/mcp", "headers": {"Authorization": "Bearer ${T}"}}`,
		`{"mcpServers": {"a": {"command": "a"}, "b": {"type": "sse", "url": "http://l/sse"}, "c": null}}`,
		`{"mcpServers": null}`,
		`{"command": 1}`,
		`[]`, `null`, `{`, ``, `{"mcpServers": {"": {"command": "x"}}}`,
		"{\"command\": \"a\x00b\"}",
	} {
		f.Add("git.json", []byte(seed))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if strings.ContainsAny(name, "/\\") {
			return // a directory entry's name never holds a separator
		}
		source := ProjectServersDir + "/" + name
		for _, p := range parseServerFile(source, data, true) {
			if p.Source != source {
				t.Fatalf("entry %q has source %q", p.Server.ID, p.Source)
			}
			if p.Problem != nil {
				if p.Hash != "" {
					t.Fatalf("a problem entry carries a hash")
				}
				continue
			}
			if err := p.Server.Validate(); err != nil {
				t.Fatalf("usable entry %q does not validate: %v", p.Server.ID, err)
			}
			if p.Hash != p.Server.DefinitionHash() {
				t.Fatalf("entry %q: hash mismatch", p.Server.ID)
			}
		}
	})
}

// FuzzExpand: expansion never panics, leaves text without "${" alone, and
// with every variable set to "" removes every well-formed reference.
func FuzzExpand(f *testing.F) {
	for _, seed := range []string{"${A}", "${A:-b}", "x${A}y${B:-}z", "${", "${}", "${1}", "$${A}", "${A:-${B}}", "}${A"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) {
		out, missing := expandString(v, func(string) (string, bool) { return "", false })
		if !strings.Contains(v, "${") && (out != v || missing != nil) {
			t.Fatalf("expandString(%q) = %q, %v; want it unchanged", v, out, missing)
		}
		set, missing := expandString(v, func(string) (string, bool) { return "", true })
		if missing != nil || len(set) > len(v) {
			t.Fatalf("expandString(%q) with every variable set = %q, %v", v, set, missing)
		}
	})
}
