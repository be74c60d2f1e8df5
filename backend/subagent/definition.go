package subagent

import "github.com/pi-desktop/pi-desktop/backend/api"

// Source says where a definition comes from.
type Source string

const (
	SourceBuiltin Source = "builtin"
	SourceUser    Source = "user"
	SourceProject Source = "project"
	// SourcePlugin is an enabled plugin's subagents/ folder: read last, and
	// never replacing a definition of the same name.
	SourcePlugin Source = "plugin"
)

// Permission is a delegate's permission scope (§10.2): inherit uses the
// session's effective mode; the others override only the permission mode,
// never the contract modes' deny or the external-path gate.
type Permission string

// The values are the session permission modes', so an override is one.
const (
	PermissionInherit     Permission = api.PermissionInherit
	PermissionAsk         Permission = api.PermissionAsk
	PermissionAcceptEdits Permission = api.PermissionAcceptEdits
	PermissionAuto        Permission = api.PermissionAuto
)

// Limits of a definition.
const (
	DefaultMaxTurns = 24
	MaxMaxTurns     = 80
	MaxName         = 64
	MaxDescription  = 1024     // characters
	MaxPrompt       = 32 << 10 // bytes
	MaxInEffect     = 16       // definitions a session can delegate to
)

// Definition is one parsed subagent.
type Definition struct {
	Name        string
	Description string
	Source      Source
	// Path is the file it was read from; "builtin:<name>" for a builtin.
	Path  string
	Tools ToolSpec
	// Model is the saved provider profile's id the delegate runs on; ""
	// means the session's model. ModelSpec is the value as written.
	Model     string
	ModelSpec string
	// Permission is the effective scope: a project definition's is always
	// inherit, whatever its file says.
	Permission Permission
	MaxTurns   int
	// Prompt is the delegate's system prompt (the file's body).
	Prompt string
	// Warnings say what of the file was dropped or changed, and why.
	Warnings []string
	// Overrides is the Path of the definition of the same name this one
	// replaced, if any.
	Overrides string
}

// PermissionOverride is what a delegate's calls carry as their permission
// scope (hostcore.ToolRequest.PermissionOverride): "" for inherit, so the
// session's effective mode applies.
func (d Definition) PermissionOverride() string {
	if d.Permission == PermissionInherit {
		return ""
	}
	return string(d.Permission)
}
