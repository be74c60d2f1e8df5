package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// MCP is the user's Model Context Protocol servers (Settings → MCP servers,
// the composer's picker). projectID "" names the app's own servers. No
// method returns a secret header or env value.
type MCP struct{ h Handle }

// ListServers returns the app's servers and projectID's servers with trust.
func (m *MCP) ListServers(projectID string) ([]api.MCPServer, error) {
	return with(m.h, func(ctx context.Context, c *hostcore.Core) ([]api.MCPServer, error) {
		return c.ListMCPServers(ctx, projectID)
	})
}

// SaveServer adds or replaces an app server.
func (m *MCP) SaveServer(in api.MCPServerInput) (api.MCPServer, error) {
	return with(m.h, func(ctx context.Context, c *hostcore.Core) (api.MCPServer, error) {
		return c.SaveMCPServer(ctx, in)
	})
}

// RemoveServer deletes an app server and ends its processes.
func (m *MCP) RemoveServer(id string) error {
	return do(m.h, func(ctx context.Context, c *hostcore.Core) error { return c.RemoveMCPServer(ctx, id) })
}

// SetServerEnabled turns a server on or off.
func (m *MCP) SetServerEnabled(projectID, id string, enabled bool) error {
	return do(m.h, func(ctx context.Context, c *hostcore.Core) error {
		return c.SetMCPServerEnabled(ctx, projectID, id, enabled)
	})
}

// SetToolEnabled turns one tool of a server on or off.
func (m *MCP) SetToolEnabled(projectID, serverID, tool string, enabled bool) error {
	return do(m.h, func(ctx context.Context, c *hostcore.Core) error {
		return c.SetMCPToolEnabled(ctx, projectID, serverID, tool, enabled)
	})
}

// TestServer connects with the form's definition and lists its tools.
func (m *MCP) TestServer(in api.MCPServerInput) (api.MCPTestResult, error) {
	return with(m.h, func(ctx context.Context, c *hostcore.Core) (api.MCPTestResult, error) {
		return c.TestMCPServer(ctx, in)
	})
}

// TestServerByID connects once to a configured server (projectID "" = an
// app server) and lists its tools; an untrusted project server is refused,
// never started.
func (m *MCP) TestServerByID(projectID, serverID string) (api.MCPTestResult, error) {
	return with(m.h, func(ctx context.Context, c *hostcore.Core) (api.MCPTestResult, error) {
		return c.TestMCPServerByID(ctx, projectID, serverID)
	})
}

// TrustServer trusts a project's server with the definition the user saw.
func (m *MCP) TrustServer(projectID, serverID, definitionHash string) error {
	return do(m.h, func(ctx context.Context, c *hostcore.Core) error {
		return c.TrustMCPServer(ctx, projectID, serverID, definitionHash)
	})
}

// RestartServer reconnects a server.
func (m *MCP) RestartServer(projectID, serverID string) error {
	return do(m.h, func(ctx context.Context, c *hostcore.Core) error {
		return c.RestartMCPServer(ctx, projectID, serverID)
	})
}

// SignIn runs a remote server's OAuth sign-in in the system browser.
func (m *MCP) SignIn(projectID, serverID string) error {
	return do(m.h, func(ctx context.Context, c *hostcore.Core) error {
		return c.SignInMCPServer(ctx, projectID, serverID)
	})
}

// CancelSignIn ends a sign-in waiting in the browser.
func (m *MCP) CancelSignIn(projectID, serverID string) error {
	return do(m.h, func(ctx context.Context, c *hostcore.Core) error {
		return c.CancelMCPSignIn(ctx, projectID, serverID)
	})
}

// ServerLog returns a stdio server's bounded stderr log.
func (m *MCP) ServerLog(projectID, serverID string) (string, error) {
	return with(m.h, func(ctx context.Context, c *hostcore.Core) (string, error) {
		return c.MCPServerLog(ctx, projectID, serverID)
	})
}
