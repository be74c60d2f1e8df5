package api

// PluginTool is one agent tool a plugin contributes, as its consent card
// and Settings → Plugins show it.
type PluginTool struct {
	Name string `json:"name"`
	// ModelName is what the model calls: plugin_<id>_<name>.
	ModelName string `json:"modelName"`
	Risk      string `json:"risk"` // low | medium | high
	// PlanSafeActions are the actions allowed in Plan and Goal; empty
	// hides the tool there.
	PlanSafeActions []string `json:"planSafeActions"`
	Description     string   `json:"description"`
}

// PluginServer is one MCP server a plugin contributes: what it runs or
// reaches.
type PluginServer struct {
	ID        string   `json:"id"`
	Transport string   `json:"transport"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
	URL       string   `json:"url"`
}

// PluginSummary is everything a plugin contributes and asks for: the
// consent card's contents, the same as `pi-desktop plugins install`
// prints.
type PluginSummary struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Description string   `json:"description"`
	Author      string   `json:"author"`
	Permissions []string `json:"permissions"`
	// Command and Args start the plugin's own process (its tools).
	Command    string         `json:"command"`
	Args       []string       `json:"args"`
	Tools      []PluginTool   `json:"tools"`
	Skills     []string       `json:"skills"`
	Subagents  []string       `json:"subagents"`
	Commands   []string       `json:"commands"`
	MCPServers []PluginServer `json:"mcpServers"`
	Warnings   []string       `json:"warnings"`
	Files      int            `json:"files"`
	// Hash is what a consent is given to.
	Hash string `json:"hash"`
}

// Plugin is an installed plugin with its state.
type Plugin struct {
	Summary PluginSummary `json:"summary"`
	Path    string        `json:"path"`
	Enabled bool          `json:"enabled"`
	// Consented: the user consented to exactly what is installed; until
	// then the plugin runs and contributes nothing.
	Consented bool `json:"consented"`
	// Changed: its files on disk are not what was installed.
	Changed bool `json:"changed"`
	Running bool `json:"running"`
	// Projects are the projects that made their own choice, by project
	// id; it wins over Enabled there, either way. Every other project,
	// and a session without one, follows Enabled.
	Projects []PluginProject `json:"projects"`
}

// PluginProject is one project's own choice for a plugin.
type PluginProject struct {
	ProjectID string `json:"projectId"`
	Enabled   bool   `json:"enabled"`
}

// A project's state for a plugin, as Plugins.SetProjectEnabled takes it.
const (
	PluginProjectOn  = "on"  // on in the project, whatever the app-wide switch
	PluginProjectOff = "off" // off in the project, whatever the app-wide switch
	PluginProjectApp = "app" // no choice of its own: follows the app-wide switch
)

// PluginStaged is a plugin checked and staged for install (or update),
// not yet installed: its consent card. Token names it to InstallStaged or
// DiscardStaged; Cancelled means the user closed the file dialog.
type PluginStaged struct {
	Token     string        `json:"token"`
	Cancelled bool          `json:"cancelled"`
	Summary   PluginSummary `json:"summary"`
	// InstalledVersion is the version it replaces ("" = a new plugin).
	InstalledVersion string `json:"installedVersion"`
	// Unchanged: the installed plugin was consented to with this same
	// hash, so the update asks nothing again.
	Unchanged bool `json:"unchanged"`
}
