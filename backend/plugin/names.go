package plugin

import "strings"

// SafeID is a plugin id as it appears in model-facing names: every
// character outside [A-Za-z0-9] replaced by '_' (dev.acme.tools →
// dev_acme_tools).
func SafeID(id string) string {
	var b strings.Builder
	for _, c := range id {
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// ModelName is the name the model calls a plugin tool by (spec §11, D015):
// plugin_<SafeID(id)>_<tool>. The forced prefix keeps it apart from every
// builtin and MCP tool.
func ModelName(id, tool string) string { return "plugin_" + SafeID(id) + "_" + tool }

// InternalName is the tool's full name inside the host: plugin.<id>.<tool>.
func InternalName(id, tool string) string { return "plugin." + id + "." + tool }
