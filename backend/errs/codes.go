package errs

// The registry. Keep it sorted by area; TestCodesGolden fails on any change
// that is not also made to testdata/codes.golden.
const (
	// General.
	InvalidArgument Code = "INVALID_ARGUMENT"
	NotFound        Code = "NOT_FOUND"
	Conflict        Code = "CONFLICT"
	Internal        Code = "INTERNAL"

	// Storage.
	StorageUnavailable Code = "STORAGE_UNAVAILABLE"
	StorageCorrupt     Code = "STORAGE_CORRUPT"
	SchemaTooNew       Code = "SCHEMA_TOO_NEW"
	MigrationFailed    Code = "MIGRATION_FAILED"

	// Projects and sessions.
	ProjectNotFound   Code = "PROJECT_NOT_FOUND"
	ProjectExists     Code = "PROJECT_EXISTS"
	SessionNotFound   Code = "SESSION_NOT_FOUND"
	WorkspaceRequired Code = "WORKSPACE_REQUIRED"

	// Paths.
	PathOutsideWorkspace Code = "PATH_OUTSIDE_WORKSPACE"

	// Tools and permissions.
	ToolNotFound      Code = "TOOL_NOT_FOUND"
	ToolDenied        Code = "TOOL_DENIED"
	ToolTimeout       Code = "TOOL_TIMEOUT"
	ToolFailed        Code = "TOOL_FAILED"
	ToolAborted       Code = "TOOL_ABORTED"
	PermissionTimeout Code = "PERMISSION_TIMEOUT"

	// Shells.
	ShellNotFound       Code = "SHELL_NOT_FOUND"
	CommandShellChanged Code = "COMMAND_SHELL_CHANGED"
	CommandShellInvalid Code = "COMMAND_SHELL_INVALID"
)

// Codes lists every registered code in declaration order.
func Codes() []Code {
	return []Code{
		InvalidArgument, NotFound, Conflict, Internal,
		StorageUnavailable, StorageCorrupt, SchemaTooNew, MigrationFailed,
		ProjectNotFound, ProjectExists, SessionNotFound, WorkspaceRequired,
		PathOutsideWorkspace,
		ToolNotFound, ToolDenied, ToolTimeout, ToolFailed, ToolAborted, PermissionTimeout,
		ShellNotFound, CommandShellChanged, CommandShellInvalid,
	}
}
