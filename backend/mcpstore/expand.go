package mcpstore

import (
	"maps"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// Expand returns s with ${VAR} and ${VAR:-default} replaced, as Claude Code
// does in .mcp.json, in the command, the arguments, env values, the URL and
// header values; lookup is the environment to expand from (injected: the
// host's, at connect time). It is applied to a project server only when it
// connects: its trust card and DefinitionHash use the definition as
// written, so a changed variable never asks for trust again while a changed
// file does.
//
// Rules: VAR is [A-Za-z_][A-Za-z0-9_]*; a set variable is used even when
// empty, the default only when it is unset; the default runs to the first
// '}' and is not expanded itself; anything else ($VAR, ${not a name}, an
// unclosed ${) stays as written. An unset variable without a default fails
// with MCP_SERVER_UNAVAILABLE naming it. The expanded server is validated
// again (a variable must not smuggle a newline into a header).
func Expand(s mcp.Server, lookup func(string) (string, bool)) (mcp.Server, error) {
	var missing []string
	x := func(v string) string {
		out, miss := expandString(v, lookup)
		missing = append(missing, miss...)
		return out
	}
	out := s
	out.Command = x(s.Command)
	if s.Args != nil {
		out.Args = make([]string, len(s.Args))
		for i, a := range s.Args {
			out.Args[i] = x(a)
		}
	}
	out.URL = x(s.URL)
	out.Env = expandValues(s.Env, x)
	out.Headers = expandValues(s.Headers, x)
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		return mcp.Server{}, errs.New(errs.MCPServerUnavailable,
			"MCP server %q uses ${%s}, which is not set; set it in the environment PI-Desktop starts from, or write a default as ${%s:-value}",
			s.ID, missing[0], missing[0]).With("server", s.ID).With("variables", missing)
	}
	if err := out.Validate(); err != nil {
		return mcp.Server{}, err
	}
	return out, nil
}

func expandValues(m map[string]string, x func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := maps.Clone(m)
	for _, k := range sortedKeys(m) {
		out[k] = x(m[k])
	}
	return out
}

// expandString expands the references in v and lists the unset variables
// that had no default.
func expandString(v string, lookup func(string) (string, bool)) (string, []string) {
	if !strings.Contains(v, "${") {
		return v, nil
	}
	var b strings.Builder
	var missing []string
	for {
		i := strings.Index(v, "${")
		if i < 0 {
			b.WriteString(v)
			return b.String(), missing
		}
		end := strings.IndexByte(v[i+2:], '}')
		if end < 0 {
			b.WriteString(v)
			return b.String(), missing
		}
		body := v[i+2 : i+2+end]
		name, def, hasDefault := strings.Cut(body, ":-")
		if !isVarName(name) {
			b.WriteString(v[:i+2]) // not a reference: keep "${" and go on after it
			v = v[i+2:]
			continue
		}
		b.WriteString(v[:i])
		switch val, ok := lookup(name); {
		case ok:
			b.WriteString(val)
		case hasDefault:
			b.WriteString(def)
		default:
			missing = append(missing, name)
		}
		v = v[i+2+end+1:]
	}
}

func isVarName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
