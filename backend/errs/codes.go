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
	StorageForeign     Code = "STORAGE_FOREIGN"       // the database file holds another program's tables
	DataDirNotWritable Code = "DATA_DIR_NOT_WRITABLE" // the data directory cannot be written

	// Projects and sessions.
	ProjectNotFound   Code = "PROJECT_NOT_FOUND"
	ProjectExists     Code = "PROJECT_EXISTS"
	SessionNotFound   Code = "SESSION_NOT_FOUND"
	WorkspaceRequired Code = "WORKSPACE_REQUIRED"

	// Paths.
	PathOutsideWorkspace Code = "PATH_OUTSIDE_WORKSPACE"
	PathProtected        Code = "PATH_PROTECTED" // inside the host's data folder: refused in every mode, never a card

	// Tools and permissions.
	ToolNotFound      Code = "TOOL_NOT_FOUND"
	ToolDenied        Code = "TOOL_DENIED"
	ToolTimeout       Code = "TOOL_TIMEOUT"
	ToolFailed        Code = "TOOL_FAILED"
	ToolAborted       Code = "TOOL_ABORTED"
	PermissionTimeout Code = "PERMISSION_TIMEOUT"
	HostOverloaded    Code = "HOST_OVERLOADED"

	// Operating-mode hard deny (the _IN_PLAN codes serve Plan and Goal).
	WriteDisabledInPlan  Code = "WRITE_DISABLED_IN_PLAN"
	EditDisabledInPlan   Code = "EDIT_DISABLED_IN_PLAN"
	PluginDisabledInPlan Code = "PLUGIN_DISABLED_IN_PLAN"
	ToolDisabledInPlan   Code = "TOOL_DISABLED_IN_PLAN"

	// Edit contract codes used by Read/Write.
	EditTagRequired Code = "EDIT_TAG_REQUIRED"
	EditTagMismatch Code = "EDIT_TAG_MISMATCH"
	EditNotText     Code = "EDIT_NOT_TEXT"

	// Edit contract codes used by Edit (backend/hashline).
	EditTagUnknown               Code = "EDIT_TAG_UNKNOWN"
	EditLinesUnseen              Code = "EDIT_LINES_UNSEEN"
	EditParseFailed              Code = "EDIT_PARSE_FAILED"
	EditRangeInvalid             Code = "EDIT_RANGE_INVALID"
	EditBlockUnresolved          Code = "EDIT_BLOCK_UNRESOLVED"
	EditRegisterEmpty            Code = "EDIT_REGISTER_EMPTY"
	EditRegisterAmbiguous        Code = "EDIT_REGISTER_AMBIGUOUS"
	EditNoChange                 Code = "EDIT_NO_CHANGE"
	EditTargetMissing            Code = "EDIT_TARGET_MISSING"
	EditDestExists               Code = "EDIT_DEST_EXISTS"
	EditLimit                    Code = "EDIT_LIMIT"
	MutationRetryBudgetExhausted Code = "MUTATION_RETRY_BUDGET_EXHAUSTED"

	// Review and rollback.
	ReviewNotReversible Code = "REVIEW_NOT_REVERSIBLE"

	// Processes.
	ProcessResourceExhausted Code = "PROCESS_RESOURCE_EXHAUSTED"

	// Shells.
	ShellNotFound       Code = "SHELL_NOT_FOUND"
	CommandShellChanged Code = "COMMAND_SHELL_CHANGED"
	CommandShellInvalid Code = "COMMAND_SHELL_INVALID"

	// Background tasks (backend/bgtask).
	BackgroundTaskLimit      Code = "BACKGROUND_TASK_LIMIT"       // the session's concurrent limit (10)
	BackgroundTaskHostLimit  Code = "BACKGROUND_TASK_HOST_LIMIT"  // the process-wide ceiling
	BackgroundTaskRunning    Code = "BACKGROUND_TASK_RUNNING"     // remove refused: not terminal
	BackgroundTaskStopFailed Code = "BACKGROUND_TASK_STOP_FAILED" // the stop signal failed; retriable
	BackgroundTaskNotRunning Code = "BACKGROUND_TASK_NOT_RUNNING" // BashStop refused: the task already ended

	// Model providers (backend/provider) and turns.
	ModelNotConfigured   Code = "MODEL_NOT_CONFIGURED"  // no model or key: blocking, before any request
	ProviderUnauthorized Code = "PROVIDER_UNAUTHORIZED" // 401/403: the key was rejected
	ProviderRateLimited  Code = "PROVIDER_RATE_LIMITED" // 429 after the silent retries
	ProviderError        Code = "PROVIDER_ERROR"        // any other provider failure, with its message
	StreamFailed         Code = "STREAM_FAILED"         // the stream broke mid-way; partial output was delivered
	ContextTooLarge      Code = "CONTEXT_TOO_LARGE"     // the request exceeds the model's context window
	EmptyModelResponse   Code = "EMPTY_MODEL_RESPONSE"  // no text and no tool calls
	TurnAborted          Code = "TURN_ABORTED"          // the turn was stopped (context cancelled)

	// The agent loop (backend/agent).
	AgentBusy         Code = "AGENT_BUSY"          // a turn is already running in the session
	TurnInterrupted   Code = "TURN_INTERRUPTED"    // PI-Desktop stopped mid-turn; marked at the next start, never replayed
	ToolCallTruncated Code = "TOOL_CALL_TRUNCATED" // a call in a response cut by the output limit: not run, re-issue it

	// Runtime-owned tools (backend/agent): Plan/Goal control tools.
	ToolMustBeAlone         Code = "TOOL_MUST_BE_ALONE"        // Enter*/Submit* shared its response with other calls: not run
	PlanNotActive           Code = "PLAN_NOT_ACTIVE"           // SubmitPlan/SubmitGoal outside Plan and Goal mode
	PlanKindMismatch        Code = "PLAN_KIND_MISMATCH"        // SubmitPlan in Goal mode, SubmitGoal in Plan mode
	PlanApprovalStale       Code = "PLAN_APPROVAL_STALE"       // a decision for another session, turn or version, or one already settled
	PlanApprovalInterrupted Code = "PLAN_APPROVAL_INTERRUPTED" // PI-Desktop stopped while the proposal waited; it cannot be decided

	// Isolated session worktrees and host-run git (backend/worktree).
	WorktreeNotGit         Code = "WORKTREE_NOT_GIT"         // isolated refused: the project is not a git work tree (or has no commit)
	WorktreeMissing        Code = "WORKTREE_MISSING"         // the session's worktree is gone or was replaced by a link: never used
	WorktreeExists         Code = "WORKTREE_EXISTS"          // the session already has a worktree folder or branch
	WorktreeStalePreview   Code = "WORKTREE_STALE_PREVIEW"   // merge token no longer matches the project or the worktree
	WorktreeConflict       Code = "WORKTREE_CONFLICT"        // syncing the project branch into the worktree conflicted; files stay there
	WorktreeProjectDirty   Code = "WORKTREE_PROJECT_DIRTY"   // the project checkout has local changes in files the merge touches
	WorktreeMergeBlocked   Code = "WORKTREE_MERGE_BLOCKED"   // merge impossible as things stand (detached HEAD, worktree off its branch, …)
	WorktreePortsExhausted Code = "WORKTREE_PORTS_EXHAUSTED" // no free 10-port block in 41000–48999
	GitNotFound            Code = "GIT_NOT_FOUND"            // no git executable
	GitFailed              Code = "GIT_FAILED"               // a host-run git command failed
	GitTimeout             Code = "GIT_TIMEOUT"              // a host-run git command exceeded its timeout

	// MCP servers (backend/mcp).
	MCPServerUnavailable Code = "MCP_SERVER_UNAVAILABLE" // the server is disabled, failed, not trusted or its definition is unusable
	MCPConnectTimeout    Code = "MCP_CONNECT_TIMEOUT"    // the server did not finish the MCP handshake within its connect timeout
	MCPAuthRequired      Code = "MCP_AUTH_REQUIRED"      // the server wants the user to sign in (401, failed token refresh)
	MCPProtocolError     Code = "MCP_PROTOCOL_ERROR"     // the server broke the protocol (malformed message, bad schema)

	// Images and the attachments store (backend/attachments).
	ImageUnsupported   Code = "IMAGE_UNSUPPORTED"    // not a PNG, JPEG, GIF or WebP (sniffed, whatever it claimed)
	ImageTooLarge      Code = "IMAGE_TOO_LARGE"      // absurd dimensions, or cannot be brought under the size limit
	AttachmentNotFound Code = "ATTACHMENT_NOT_FOUND" // no stored attachment has that sha256

	// Subagent definitions (backend/subagent).
	SubagentInvalid Code = "SUBAGENT_INVALID" // a definition to save does not parse or would be saved with warnings

	// Delegations (backend/agent's delegate runtime).
	DelegateLimit          Code = "DELEGATE_LIMIT"           // the session already has the most delegates running at once
	DelegateNotFound       Code = "DELEGATE_NOT_FOUND"       // no delegation of this session has that id, or no subagent that name
	DelegateTurnsExhausted Code = "DELEGATE_TURNS_EXHAUSTED" // a delegate used its definition's maxTurns before it finished

	// Command rules (backend/cmdrule).
	CommandDeniedByRule Code = "COMMAND_DENIED_BY_RULE" // a deny rule matched a command: refused in every mode, auto included
	RuleInvalid         Code = "RULE_INVALID"           // a command rule to save is malformed (decision, program, scope, words)
	RuleNotFound        Code = "RULE_NOT_FOUND"         // no command rule has that id
	CommandTooComplex   Code = "COMMAND_TOO_COMPLEX"    // code nested deeper than deny rules are checked (sh -c in eval in …): refused while deny rules exist

	// Skills (issue 18).
	SkillNotFound     Code = "SKILL_NOT_FOUND"     // no skill of that name is loaded for the session
	SkillNotInvocable Code = "SKILL_NOT_INVOCABLE" // disable-model-invocation: only the user's /skill: may run it
	SkillReadOnly     Code = "SKILL_READ_ONLY"     // a skill folder is read-only: no Write, Edit or move into it
	// Custom slash commands (backend/slashcmd).
	SlashCommandNotFound Code = "SLASH_COMMAND_NOT_FOUND" // no usable custom command has that name for the session
	// Model lists (backend/provider ListModels).
	ProviderUnreachable  Code = "PROVIDER_UNREACHABLE"   // no HTTP answer from the server (refused, DNS, timeout)
	ModelListUnavailable Code = "MODEL_LIST_UNAVAILABLE" // the server has no model list endpoint: the model id is typed instead
	// Checkpoints (issue 20).
	CheckpointNotFound    Code = "CHECKPOINT_NOT_FOUND"    // no checkpoint of the session has that id
	CheckpointNotCaptured Code = "CHECKPOINT_NOT_CAPTURED" // the checkpoint (or the one a restore takes first) holds no snapshot
	// Plugins (issue 22).
	PermissionDenied      Code = "PERMISSION_DENIED"       // refused by the host before the tool ran (a plugin action outside its planSafeActions in Plan/Goal)
	PluginInvalid         Code = "PLUGIN_INVALID"          // a plugin's manifest (or folder) is unusable
	PluginArchiveRefused  Code = "PLUGIN_ARCHIVE_REFUSED"  // a .piplug or folder breaks the install rules (links, .. paths, size, entries): nothing was written
	PluginNotFound        Code = "PLUGIN_NOT_FOUND"        // no installed plugin has that id
	PluginConsentRequired Code = "PLUGIN_CONSENT_REQUIRED" // the plugin (or what it contributes) changed since the user consented: it runs nothing until they consent again
	PluginCrashed         Code = "PLUGIN_CRASHED"          // the plugin's process exited or could not start; the next call starts it again
	// Composer attachments (issue 23).
	AttachmentTooMany    Code = "ATTACHMENT_TOO_MANY"    // a message would carry more files than the per-message limit
	AttachmentTooLarge   Code = "ATTACHMENT_TOO_LARGE"   // one file is above the per-file limit
	AttachmentsTooLarge  Code = "ATTACHMENTS_TOO_LARGE"  // the message's files together are above the per-message limit
	AttachmentNotRegular Code = "ATTACHMENT_NOT_REGULAR" // the source is a link, folder, device or FIFO: nothing was copied
	AttachmentInvalid    Code = "ATTACHMENT_INVALID"     // a prompt's attachment is not a file the composer copied into the session's pasted folder
	AttachmentChanged    Code = "ATTACHMENT_CHANGED"     // an attached file or its stored image no longer hashes to the sha256 it was attached with: nothing was sent
)

// Codes lists every registered code in declaration order.
func Codes() []Code {
	return []Code{
		InvalidArgument, NotFound, Conflict, Internal,
		StorageUnavailable, StorageCorrupt, SchemaTooNew, MigrationFailed,
		StorageForeign, DataDirNotWritable,
		ProjectNotFound, ProjectExists, SessionNotFound, WorkspaceRequired,
		PathOutsideWorkspace, PathProtected,
		ToolNotFound, ToolDenied, ToolTimeout, ToolFailed, ToolAborted, PermissionTimeout,
		ShellNotFound, CommandShellChanged, CommandShellInvalid,
		HostOverloaded,
		WriteDisabledInPlan, EditDisabledInPlan, PluginDisabledInPlan, ToolDisabledInPlan,
		EditTagRequired, EditTagMismatch, EditNotText,
		EditTagUnknown, EditLinesUnseen, EditParseFailed, EditRangeInvalid,
		EditBlockUnresolved, EditRegisterEmpty, EditRegisterAmbiguous,
		EditNoChange, EditTargetMissing, EditDestExists, EditLimit,
		MutationRetryBudgetExhausted,
		ReviewNotReversible,
		BackgroundTaskLimit, BackgroundTaskHostLimit, BackgroundTaskRunning, BackgroundTaskStopFailed, BackgroundTaskNotRunning,
		ProcessResourceExhausted,
		ModelNotConfigured, ProviderUnauthorized, ProviderRateLimited, ProviderError,
		StreamFailed, ContextTooLarge, EmptyModelResponse, TurnAborted,
		AgentBusy, TurnInterrupted, ToolCallTruncated,
		ToolMustBeAlone, PlanNotActive, PlanKindMismatch, PlanApprovalStale, PlanApprovalInterrupted,
		WorktreeNotGit, WorktreeMissing, WorktreeExists, WorktreeStalePreview,
		WorktreeConflict, WorktreeProjectDirty, WorktreeMergeBlocked, WorktreePortsExhausted,
		GitNotFound, GitFailed, GitTimeout,
		MCPServerUnavailable, MCPConnectTimeout, MCPAuthRequired, MCPProtocolError,
		ImageUnsupported, ImageTooLarge, AttachmentNotFound,
		SubagentInvalid,
		DelegateLimit, DelegateNotFound, DelegateTurnsExhausted,
		CommandDeniedByRule, RuleInvalid, RuleNotFound, CommandTooComplex,
		SkillNotFound, SkillNotInvocable, SkillReadOnly,
		SlashCommandNotFound,
		ProviderUnreachable, ModelListUnavailable,
		CheckpointNotFound, CheckpointNotCaptured,
		PermissionDenied, PluginInvalid, PluginArchiveRefused, PluginNotFound, PluginConsentRequired, PluginCrashed,
		AttachmentTooMany, AttachmentTooLarge, AttachmentsTooLarge, AttachmentNotRegular, AttachmentInvalid, AttachmentChanged,
	}
}
