package subagent

import "strings"

// ProfileRef is what model resolution needs of a saved provider profile.
// The caller passes them in the order the user sees them, since an alias
// picks the first that fits.
type ProfileRef struct {
	ID    string
	Name  string
	API   string // anthropic | openai | openai-compatible
	Model string
}

// claudeAliases are the model names Claude Code's agent files use.
var claudeAliases = []string{"sonnet", "opus", "haiku"}

// ResolveModel finds the saved profile a definition's model value names:
// a profile's id or name (exactly), then a profile whose model id is
// exactly the value, then a Claude alias (sonnet, opus, haiku) meaning the
// first Anthropic profile whose model id contains it. It returns "" and
// false when none fits.
func ResolveModel(spec string, profiles []ProfileRef) (string, bool) {
	for _, match := range []func(ProfileRef) bool{
		func(p ProfileRef) bool { return p.ID == spec },
		func(p ProfileRef) bool { return p.Name == spec },
		func(p ProfileRef) bool { return p.Model == spec },
	} {
		for _, p := range profiles {
			if match(p) {
				return p.ID, true
			}
		}
	}
	alias := strings.ToLower(spec)
	for _, a := range claudeAliases {
		if alias != a {
			continue
		}
		for _, p := range profiles {
			if p.API == "anthropic" && strings.Contains(strings.ToLower(p.Model), a) {
				return p.ID, true
			}
		}
	}
	return "", false
}
