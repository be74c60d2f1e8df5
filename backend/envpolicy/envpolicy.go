// Package envpolicy decides which of the host's environment variables a
// command the agent starts may see. The model is never trusted: a
// prompt-injected command could send any key it can read anywhere, so the
// host drops credentials by default and keeps the rest (PATH, HOME, LANG, …)
// so that tools still work. Bash (foreground and background), worktree setup
// commands and (later) MCP server launches all filter through Apply.
package envpolicy

import (
	"fmt"
	"slices"
	"strings"
)

// Policy is one environment policy. The zero value is the default: drop
// credentials by name, keep everything else.
type Policy struct {
	// Pass lists variables to keep although a default rule drops them
	// (the user's explicit choice, from settings).
	Pass []string
	// Drop lists extra variables to drop (from settings).
	Drop []string
	// ProviderKeys are the variables the configured model providers read
	// their API keys from; dropped unless passed.
	ProviderKeys []string
	// GOOS selects name comparison: Windows variable names are
	// case-insensitive, so Pass and Drop match in any case there.
	GOOS string
}

// awsCredentials are the AWS variables that carry credentials. The rest of
// AWS_* (AWS_REGION, AWS_DEFAULT_REGION, AWS_PROFILE, AWS_CONFIG_FILE, …)
// is configuration the aws CLI and SDKs need to pick a region or profile,
// and holds no secret by itself, so it is kept.
var awsCredentials = []string{
	"AWS_ACCESS_KEY_ID",
	"AWS_SECRET_ACCESS_KEY",
	"AWS_SESSION_TOKEN",
	"AWS_SECURITY_TOKEN",
	"AWS_BEARER_TOKEN_BEDROCK",
	"AWS_CONTAINER_AUTHORIZATION_TOKEN",
}

// DroppedByDefault reports whether a default rule drops name. The rules
// match in any case on every OS: a lowercase github_token is as much a
// token as GITHUB_TOKEN, and dropping it fails closed (Pass restores it).
func DroppedByDefault(name string) bool {
	n := strings.ToUpper(name)
	switch {
	case n == "API_KEY" || strings.HasSuffix(n, "_API_KEY"),
		n == "TOKEN" || strings.HasSuffix(n, "_TOKEN"),
		strings.HasPrefix(n, "SECRET") || strings.Contains(n, "_SECRET"),
		strings.Contains(n, "PASSWORD"),
		n == "PRIVATE_KEY" || strings.HasSuffix(n, "_PRIVATE_KEY"),
		slices.Contains(awsCredentials, n):
		return true
	}
	return false
}

// Keep reports whether a variable named name reaches the command.
func (p Policy) Keep(name string) bool {
	if name == "" {
		return true // Windows' per-drive "=C:=C:\…" entries
	}
	if p.listed(p.Drop, name) {
		return false
	}
	if p.listed(p.Pass, name) {
		return true
	}
	if p.listed(p.ProviderKeys, name) || DroppedByDefault(name) {
		return false
	}
	return true
}

// Apply returns the entries of env ("NAME=value") that the policy keeps, in
// order, and the names it dropped.
func (p Policy) Apply(env []string) (kept, dropped []string) {
	kept = make([]string, 0, len(env))
	for _, kv := range env {
		name := Name(kv)
		if p.Keep(name) {
			kept = append(kept, kv)
		} else {
			dropped = append(dropped, name)
		}
	}
	return kept, dropped
}

// Environ is Apply without the dropped names.
func (p Policy) Environ(env []string) []string {
	kept, _ := p.Apply(env)
	return kept
}

// Name is the variable name of an environment entry. On Windows an entry
// may start with "=" (the per-drive working directories); that "=" is part
// of the name.
func Name(kv string) string {
	start := 0
	if strings.HasPrefix(kv, "=") {
		start = 1
	}
	if i := strings.IndexByte(kv[start:], '='); i >= 0 {
		return kv[:start+i]
	}
	return kv
}

func (p Policy) listed(list []string, name string) bool {
	for _, l := range list {
		if l == name || (p.GOOS == "windows" && strings.EqualFold(l, name)) {
			return true
		}
	}
	return false
}

// Limits on the user's lists.
const (
	MaxNames   = 200
	MaxNameLen = 128
)

// CheckName reports why name cannot be a variable name in a list: letters,
// digits and underscores, not starting with a digit.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("a variable name is empty")
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("variable name %.20q… is longer than %d characters", name, MaxNameLen)
	}
	for i, r := range name {
		ok := r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			return fmt.Errorf("%q is not a variable name: use letters, digits and underscores, not starting with a digit", name)
		}
	}
	return nil
}

// WithPATH is env with its PATH replaced by path: the login shell's PATH
// for commands the agent starts (Bash, MCP servers), so npx, uvx and docker
// resolve after a Finder or Dock launch. An empty path (no login PATH
// found) leaves env as it is: the host's PATH beats none, with which a
// command finds nothing. env itself is never changed.
func WithPATH(env []string, path string) []string {
	if path == "" {
		return env
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if Name(kv) != "PATH" {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+path)
}
