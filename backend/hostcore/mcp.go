package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// The MCP surface Settings, the composer and the CLI use (issue 15). The
// bodies arrive with the MCP manager and store; until then every call says
// so with a stable code.

func mcpPending() error {
	return errs.New(errs.MCPServerUnavailable, "MCP servers are not available in this build yet")
}

// ListMCPServers lists the app's servers and, for projectID, that project's
// servers with their trust; listing never starts an untrusted server.
func (c *Core) ListMCPServers(ctx context.Context, projectID string) ([]api.MCPServer, error) {
	return nil, mcpPending()
}

// SaveMCPServer adds or replaces an app server by id.
func (c *Core) SaveMCPServer(ctx context.Context, in api.MCPServerInput) (api.MCPServer, error) {
	return api.MCPServer{}, mcpPending()
}

// RemoveMCPServer deletes an app server, its secrets and tokens, and ends
// its process tree.
func (c *Core) RemoveMCPServer(ctx context.Context, id string) error { return mcpPending() }

// SetMCPServerEnabled turns a server on or off (projectID "" = an app
// server).
func (c *Core) SetMCPServerEnabled(ctx context.Context, projectID, id string, enabled bool) error {
	return mcpPending()
}

// SetMCPToolEnabled turns one tool of a server on or off.
func (c *Core) SetMCPToolEnabled(ctx context.Context, projectID, serverID, tool string, enabled bool) error {
	return mcpPending()
}

// TestMCPServer connects with the form's definition, lists the tools and
// disconnects.
func (c *Core) TestMCPServer(ctx context.Context, in api.MCPServerInput) (api.MCPTestResult, error) {
	return api.MCPTestResult{}, mcpPending()
}

// TrustMCPServer trusts a project's server with the definition the user
// saw (its hash); a changed definition is not trusted by it.
func (c *Core) TrustMCPServer(ctx context.Context, projectID, serverID, definitionHash string) error {
	return mcpPending()
}

// RestartMCPServer reconnects a server (after a fix, or a failed state).
func (c *Core) RestartMCPServer(ctx context.Context, projectID, serverID string) error {
	return mcpPending()
}

// SignInMCPServer runs a remote server's OAuth sign-in in the system
// browser.
func (c *Core) SignInMCPServer(ctx context.Context, projectID, serverID string) error {
	return mcpPending()
}

// MCPServerLog is a stdio server's bounded stderr log.
func (c *Core) MCPServerLog(ctx context.Context, projectID, serverID string) (string, error) {
	return "", mcpPending()
}

// StartTurnWith is StartTurn with the composer's options. An MCP selection
// is checked before the turn opens.
func (c *Core) StartTurnWith(ctx context.Context, sessionID, prompt string, opts api.PromptOptions) error {
	if len(opts.MCP) > 0 {
		return mcpPending()
	}
	return c.StartTurn(ctx, sessionID, prompt)
}
