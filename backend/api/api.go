// Package api holds the data shapes shared by the Wails bindings, the
// frontend and tests. JSON is camelCase; times are Unix milliseconds.
package api

// Operating modes of a session (spec §10).
const (
	ModeAgent = "agent"
	ModePlan  = "plan"
	ModeGoal  = "goal"
)

// Permission modes (spec §6). Inherit is valid only on a session.
const (
	PermissionInherit     = "inherit"
	PermissionAsk         = "ask"
	PermissionAcceptEdits = "accept-edits"
	PermissionAuto        = "auto"
)

// Themes.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Event names emitted to the frontend (domain:event).
const (
	EventProjectsChanged = "projects:changed"
	EventSessionsChanged = "sessions:changed"
	EventSettingsChanged = "settings:changed"
	// EventProvidersChanged: a saved model provider was added, edited or
	// removed, or the default changed (no payload: reload the list).
	EventProvidersChanged = "providers:changed"
	// EventDevOrdered is the numbered envelope a dev build wraps every event
	// in (Wails' dev server can deliver two events swapped); the bridge
	// unwraps it in order.
	EventDevOrdered = "dev:event"
)

// SessionsChanged is the payload of sessions:changed: which session was
// created, changed or deleted, and its project ("" for a temporary session).
// projects:changed and providers:changed carry no payload (reload the
// list); settings:changed carries the stored Settings.
type SessionsChanged struct {
	SessionID string `json:"sessionId"`
	ProjectID string `json:"projectId"`
}

// Project is a folder the user added; Path is canonical.
type Project struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Path      string `json:"path"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`
	// SetupCommand runs once in each new isolated worktree ("" = none).
	SetupCommand string `json:"setupCommand"`
}

// Session is one conversation. ProjectID is empty for a temporary session,
// whose workspace is its own scratch directory. ArchivedAt is 0 unless archived.
type Session struct {
	ID             string `json:"id"`
	ProjectID      string `json:"projectId"`
	Title          string `json:"title"`
	OperatingMode  string `json:"operatingMode"`
	PermissionMode string `json:"permissionMode"`
	Isolated       bool   `json:"isolated"`
	CreatedAt      int64  `json:"createdAt"`
	UpdatedAt      int64  `json:"updatedAt"`
	ArchivedAt     int64  `json:"archivedAt"`
}

// CreateSessionInput creates a session in ProjectID, or a temporary session
// when ProjectID is empty. An empty Title gets a default. Isolated gives the
// session its own git worktree of the project (spec §4e).
type CreateSessionInput struct {
	ProjectID string `json:"projectId"`
	Title     string `json:"title"`
	Isolated  bool   `json:"isolated"`
}

// SessionConfig changes a session's modes; empty fields are left as they are.
type SessionConfig struct {
	OperatingMode  string `json:"operatingMode"`
	PermissionMode string `json:"permissionMode"`
}

// Settings are the persisted application settings.
type Settings struct {
	DefaultPermissionMode    string `json:"defaultPermissionMode"`
	DefaultCommandShell      string `json:"defaultCommandShell"`
	InlineVisualizations     bool   `json:"inlineVisualizations"`
	PermissionTimeoutSeconds int    `json:"permissionTimeoutSeconds"`
	Theme                    string `json:"theme"`
	// EnvPassthrough lists environment variables commands receive although
	// the environment policy drops them by default (backend/envpolicy);
	// EnvDrop lists extra variables to drop. Never nil.
	EnvPassthrough []string `json:"envPassthrough"`
	EnvDrop        []string `json:"envDrop"`
}

// ShellOption is one entry of the command-shell catalog for this platform.
type ShellOption struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// AppInfo describes the running application.
type AppInfo struct {
	Version       string        `json:"version"`
	Platform      string        `json:"platform"`
	DataDir       string        `json:"dataDir"`
	CommandShells []ShellOption `json:"commandShells"`
}

// Attachment is a file attached to a prompt in the composer: a copy in
// <data dir>/scratch/<session>/pasted/, and for an image the prepared
// (downscaled) copy in the attachments store. The wire and the database
// carry this reference, never the bytes.
type Attachment struct {
	Path      string `json:"path"` // absolute, inside the session's pasted folder
	Name      string `json:"name"` // the copy's file name (made unique in the folder)
	Size      int64  `json:"size"` // bytes of the copy
	MediaType string `json:"mediaType"`
	// SHA256 names the prepared image in the attachments store; empty for
	// a file that is not an image a model can be shown.
	SHA256     string `json:"sha256,omitempty"`
	Width      int    `json:"width,omitempty"`
	Height     int    `json:"height,omitempty"`
	ImageBytes int    `json:"imageBytes,omitempty"` // bytes of the prepared image
	// ImageMediaType is the prepared image's type (PNG or JPEG), which may
	// differ from the file's (a WebP is sent as JPEG).
	ImageMediaType string `json:"imageMediaType,omitempty"`
}

// AttachmentBudget is what the message being composed already holds, so
// a new attachment is refused before it is copied when it would break the
// per-message limits.
type AttachmentBudget struct {
	Count int   `json:"count"`
	Bytes int64 `json:"bytes"`
}
