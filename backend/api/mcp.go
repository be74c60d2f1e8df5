package api

// MCP server states (issue 15). A project's server the user has not trusted
// for that project is "untrusted" and never started.
const (
	MCPStateDisabled   = "disabled"
	MCPStateUntrusted  = "untrusted"
	MCPStateConnecting = "connecting"
	MCPStateReady      = "ready"
	MCPStateFailed     = "failed"
	MCPStateNeedsAuth  = "needs_auth"
)

// MCP server scopes: the app's own list, or one project's files.
const (
	MCPScopeUser    = "user"
	MCPScopeProject = "project"
)

// EventMCPServersChanged: a server was added, edited, removed, trusted, or
// changed state or tools. The payload says which project's list to reload
// ("" = the app's own servers, which every project's list includes).
const EventMCPServersChanged = "mcp:changed"

// MCPServersChanged is the payload of mcp:changed.
type MCPServersChanged struct {
	ProjectID string `json:"projectId"`
	ServerID  string `json:"serverId"`
}

// MCPHeader is one HTTP header of a remote server. A secret value lives in
// the OS keychain and is never sent to the window: Value is "" and HasValue
// says whether one is saved.
type MCPHeader struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Secret   bool   `json:"secret"`
	HasValue bool   `json:"hasValue"`
}

// MCPTool is one tool of a server as Settings and the composer show it.
type MCPTool struct {
	Name string `json:"name"` // the server's own name
	// ModelName is what the model of the listed scope's sessions calls it
	// (mcp_<server>_<tool>, unique over their whole catalog); "" for a tool
	// those sessions are not offered (switched off, server not ready or
	// overridden).
	ModelName   string `json:"modelName"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`
	// SchemaTokens estimates what the tool's name, description and input
	// schema cost in the model's context once loaded.
	SchemaTokens int `json:"schemaTokens"`
}

// MCPServer is one configured server and its live state.
type MCPServer struct {
	ID        string `json:"id"`
	Scope     string `json:"scope"`     // MCPScopeUser | MCPScopeProject
	ProjectID string `json:"projectId"` // the project of a project server
	// Source is where the definition comes from: "app", ".mcp.json" or
	// ".agents/servers/<file>.json"; "." is a project folder that cannot
	// be read (a failed row with no ID).
	Source    string      `json:"source"`
	Transport string      `json:"transport"` // stdio | http | sse
	Command   string      `json:"command"`
	Args      []string    `json:"args"`
	Env       []MCPHeader `json:"env"` // the server's own variables; secrets masked like headers
	Cwd       string      `json:"cwd"`
	URL       string      `json:"url"`
	Headers   []MCPHeader `json:"headers"`
	Enabled   bool        `json:"enabled"`
	// State is one of the MCPState constants; Error explains failed and
	// needs_auth (with a stable code), LogTail is the last lines of a
	// stdio server's stderr.
	State     string   `json:"state"`
	ErrorCode string   `json:"errorCode"`
	Error     string   `json:"error"`
	LogTail   []string `json:"logTail"`
	Restarts  int      `json:"restarts"`
	// Trusted: a project server the user trusted for this project with
	// this exact definition (DefinitionHash); app servers are always trusted.
	Trusted        bool   `json:"trusted"`
	DefinitionHash string `json:"definitionHash"`
	// Tools are the kept tools (at most 64); OmittedTools counts the rest.
	Tools            []MCPTool `json:"tools"`
	OmittedTools     int       `json:"omittedTools"`
	SchemaTokens     int       `json:"schemaTokens"`
	ConnectTimeoutMs int64     `json:"connectTimeoutMs"` // 0 = default (10 s)
	CallTimeoutMs    int64     `json:"callTimeoutMs"`    // 0 = default (100 s)
	// Overridden: an app server that the listed project's own server of
	// the same id (trusted, so it runs) replaces in that project's
	// sessions; its tools then have no ModelName there.
	Overridden bool `json:"overridden"`
	// SigningIn: an OAuth sign-in to this server waits on the browser, so
	// the window offers Cancel even after Settings was closed and reopened.
	SigningIn bool `json:"signingIn"`
}

// MCPServerInput is the add/edit form of an app server. A secret header or
// env value left "" keeps the saved one.
type MCPServerInput struct {
	ID               string      `json:"id"`
	Transport        string      `json:"transport"`
	Command          string      `json:"command"`
	Args             []string    `json:"args"`
	Env              []MCPHeader `json:"env"`
	Cwd              string      `json:"cwd"`
	URL              string      `json:"url"`
	Headers          []MCPHeader `json:"headers"`
	Enabled          bool        `json:"enabled"`
	ConnectTimeoutMs int64       `json:"connectTimeoutMs"`
	CallTimeoutMs    int64       `json:"callTimeoutMs"`
}

// MCPTestResult is what Test found: the tools, or the error with its code
// and the server's last stderr lines.
type MCPTestResult struct {
	OK        bool      `json:"ok"`
	ErrorCode string    `json:"errorCode"`
	Error     string    `json:"error"`
	Tools     []MCPTool `json:"tools"`
	LogTail   []string  `json:"logTail"`
}

// MCPSelection is the composer's choice of one server for a prompt: its
// tools (all the mode allows when Tools is empty) are loaded for that
// prompt without a ToolSearch round trip.
type MCPSelection struct {
	ServerID string   `json:"serverId"`
	Tools    []string `json:"tools"` // the server's own tool names
}

// PromptOptions go with a prompt from the composer.
type PromptOptions struct {
	MCP []MCPSelection `json:"mcp"`
	// Attachments are the files the composer copied into the session's
	// pasted folder (AttachFiles, AttachData): references, never bytes.
	Attachments []Attachment `json:"attachments,omitempty"`
}
