package subagent

// Source says where a definition comes from.
type Source string

const (
	SourceBuiltin Source = "builtin"
	SourceUser    Source = "user"
	SourceProject Source = "project"
)

// Permission is a delegate's permission scope (§10.2): inherit uses the
// session's effective mode; the others override only the permission mode,
// never the contract modes' deny or the external-path gate.
type Permission string

const (
	PermissionInherit     Permission = "inherit"
	PermissionAsk         Permission = "ask"
	PermissionAcceptEdits Permission = "accept-edits"
	PermissionAuto        Permission = "auto"
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

// HasWarnings reports whether anything of the file was dropped or changed.
func (d Definition) HasWarnings() bool { return len(d.Warnings) > 0 }
