package hostcore

import (
	"context"
	"slices"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
)

// The MCP surface Settings, the composer and the CLI use (issue 15).
// projectID "" names the app's own servers.

// SaveMCPServer adds or replaces an app server by id and (re)starts it.
func (c *Core) SaveMCPServer(ctx context.Context, in api.MCPServerInput) (api.MCPServer, error) {
	s, err := c.mcp.store.Save(ctx, in)
	if err != nil {
		return api.MCPServer{}, err
	}
	return c.mcpSaved(ctx, s.ID)
}

// AddMCPServer is SaveMCPServer refusing an id already saved (CONFLICT),
// as `pi-desktop mcp add` does.
func (c *Core) AddMCPServer(ctx context.Context, in api.MCPServerInput) (api.MCPServer, error) {
	s, err := c.mcp.store.Add(ctx, in)
	if err != nil {
		return api.MCPServer{}, err
	}
	return c.mcpSaved(ctx, s.ID)
}

func (c *Core) mcpSaved(ctx context.Context, id string) (api.MCPServer, error) {
	if err := c.mcp.resyncApp(ctx); err != nil {
		return api.MCPServer{}, err
	}
	c.emit(api.EventMCPServersChanged, api.MCPServersChanged{ServerID: id})
	s, err := c.mcp.store.Get(ctx, id)
	if err != nil {
		return api.MCPServer{}, err
	}
	names := catalogNames(c.mcp.settled(ctx, []string{""}, false))
	return c.mcp.withStatus(s, keyOf("", id), names), nil
}

// RemoveMCPServer deletes an app server, its secrets and sign-in, and ends
// its process tree.
func (c *Core) RemoveMCPServer(ctx context.Context, id string) error {
	if err := c.mcp.store.Remove(ctx, id); err != nil {
		return err
	}
	c.mcp.mgr.Stop(keyOf("", id))
	if err := c.mcp.resyncApp(ctx); err != nil {
		return err
	}
	c.emit(api.EventMCPServersChanged, api.MCPServersChanged{ServerID: id})
	return nil
}

// SetMCPServerEnabled turns a server on or off (projectID "" = an app
// server); off ends its process tree.
func (c *Core) SetMCPServerEnabled(ctx context.Context, projectID, id string, enabled bool) error {
	if err := c.mcp.store.SetEnabled(ctx, projectID, id, enabled); err != nil {
		return err
	}
	return c.mcpResync(ctx, projectID, id)
}

// SetMCPToolEnabled turns one tool of a server on or off; the server keeps
// running.
func (c *Core) SetMCPToolEnabled(ctx context.Context, projectID, serverID, tool string, enabled bool) error {
	if err := c.mcp.store.SetToolEnabled(ctx, projectID, serverID, tool, enabled); err != nil {
		return err
	}
	return c.mcpResync(ctx, projectID, serverID)
}

// mcpResync hands a scope's changed definitions to the manager and
// announces the change.
func (c *Core) mcpResync(ctx context.Context, projectID, id string) error {
	if projectID == "" {
		if err := c.mcp.resyncApp(ctx); err != nil {
			return err
		}
	} else {
		p, err := c.sessions.Project(ctx, projectID)
		if err != nil {
			return err
		}
		if _, err := c.mcp.projectServers(ctx, p); err != nil {
			return err
		}
	}
	c.emit(api.EventMCPServersChanged, api.MCPServersChanged{ProjectID: projectID, ServerID: id})
	return nil
}

// TestMCPServer connects with the form's definition (a secret left empty
// uses the saved one), lists the tools and disconnects. A server that
// cannot be reached is a failed result, not an error.
func (c *Core) TestMCPServer(ctx context.Context, in api.MCPServerInput) (api.MCPTestResult, error) {
	s, err := c.mcp.store.Draft(ctx, in)
	if err != nil {
		return api.MCPTestResult{}, err
	}
	return c.mcp.test(ctx, keyOf("", s.ID), s), nil
}

// TestMCPServerByID tests a configured server (`pi-desktop mcp test`):
// projectID "" for an app server. An untrusted project server is refused,
// never started.
func (c *Core) TestMCPServerByID(ctx context.Context, projectID, id string) (api.MCPTestResult, error) {
	k, s, err := c.mcpDefinition(ctx, projectID, id)
	if err != nil {
		return api.MCPTestResult{}, err
	}
	return c.mcp.test(ctx, k, s), nil
}

func (h *mcpHost) test(ctx context.Context, k mcp.Key, s mcp.Server) api.MCPTestResult {
	listed, tail, err := h.mgr.Test(ctx, k, s)
	res := api.MCPTestResult{OK: err == nil, LogTail: tail, Tools: []api.MCPTool{}}
	if err != nil {
		p := errs.ToPayload(err)
		res.ErrorCode, res.Error = string(p.Code), p.Message
		return res
	}
	for _, t := range listed {
		res.Tools = append(res.Tools, api.MCPTool{Name: t.Name, Title: t.Title, Description: t.Description,
			Enabled: s.ToolEnabled(t.Name), SchemaTokens: mcp.SchemaTokens(t),
			ModelName: mcp.ToolName(mcp.ToolRef{Server: s.ID, Tool: t.Name})})
	}
	return res
}

// mcpDefinition is a configured server's key and its definition as it
// would run (an app server's secrets filled in); an untrusted or unusable
// project server is refused.
func (c *Core) mcpDefinition(ctx context.Context, projectID, id string) (mcp.Key, mcp.Server, error) {
	if projectID == "" {
		s, err := c.mcp.store.Resolve(ctx, id)
		return keyOf("", id), s, err
	}
	p, err := c.sessions.Project(ctx, projectID)
	if err != nil {
		return mcp.Key{}, mcp.Server{}, err
	}
	list, err := c.mcp.store.ProjectCatalog(ctx, p.ID, p.Path)
	if err != nil {
		return mcp.Key{}, mcp.Server{}, err
	}
	c.mcp.mu.Lock()
	c.mcp.projects[p.Path] = p.ID // its sign-in slot, for a Test or a Sign in
	c.mcp.mu.Unlock()
	i := slices.IndexFunc(list, func(ps mcpstore.ProjectServer) bool { return ps.Server.ID == id })
	switch {
	case i < 0:
		return mcp.Key{}, mcp.Server{}, errs.New(errs.NotFound, "project %q declares no MCP server %q; check its .mcp.json and .agents/servers", p.Name, id).With("server", id)
	case list[i].Problem != nil:
		return mcp.Key{}, mcp.Server{}, list[i].Problem
	case !list[i].Trusted:
		return mcp.Key{}, mcp.Server{}, errs.New(errs.MCPServerUnavailable,
			"MCP server %q of project %q is not trusted, so it is never started; trust it in Settings → MCP servers after checking its command", id, p.Name).With("server", id)
	}
	return keyOf(p.Path, id), list[i].Server, nil
}

// TrustMCPServer trusts a project's server with the definition the user
// saw (its hash) and starts it. A definition that changed since is
// refused: the user must see the new one first.
func (c *Core) TrustMCPServer(ctx context.Context, projectID, serverID, definitionHash string) error {
	p, err := c.sessions.Project(ctx, projectID)
	if err != nil {
		return err
	}
	list, err := mcpstore.ProjectServers(p.Path)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(list, func(ps mcpstore.ProjectServer) bool { return ps.Server.ID == serverID })
	if i < 0 || list[i].Problem != nil || list[i].Hash != definitionHash {
		return errs.New(errs.Conflict, "the definition of MCP server %q changed since it was shown; review it again before trusting it", serverID).
			With("server", serverID)
	}
	if err := c.mcp.store.Trust(ctx, projectID, serverID, definitionHash); err != nil {
		return err
	}
	return c.mcpResync(ctx, projectID, serverID)
}

// RestartMCPServer reconnects a server (after a fix, or a failed state).
func (c *Core) RestartMCPServer(ctx context.Context, projectID, serverID string) error {
	k, _, err := c.mcpDefinition(ctx, projectID, serverID)
	if err != nil {
		return err
	}
	if err := c.mcp.mgr.Restart(k); err != nil {
		return err
	}
	c.emit(api.EventMCPServersChanged, api.MCPServersChanged{ProjectID: projectID, ServerID: serverID})
	return nil
}

// SignInMCPServer runs a remote server's OAuth sign-in in the system
// browser, then reconnects it. It waits for the browser until the sign-in
// is done, cancelled (CancelMCPSignIn), or the app closes.
func (c *Core) SignInMCPServer(ctx context.Context, projectID, serverID string) error {
	k, s, err := c.mcpDefinition(ctx, projectID, serverID)
	if err != nil {
		return err
	}
	if s, err = c.mcp.runnable(k, s); err != nil {
		return err
	}
	tokenKey, err := c.mcp.tokenKey(k)
	if err != nil {
		return err
	}
	if c.cfg.OpenBrowser == nil {
		return errs.New(errs.InvalidArgument, "signing in to MCP server %q needs a browser; sign in from the desktop app", serverID).With("server", serverID)
	}
	// Until the browser answers, CancelMCPSignIn or the app's Close ends it.
	ctx, done, err := c.mcp.signIns.begin(ctx, k)
	if err != nil {
		return err
	}
	// The list's SigningIn flips both ways; a window reopened meanwhile
	// learns of it from this event.
	waitingChanged := func() {
		c.emit(api.EventMCPServersChanged, api.MCPServersChanged{ProjectID: projectID, ServerID: serverID})
	}
	waitingChanged()
	defer waitingChanged()
	defer done()
	if err := mcp.SignIn(ctx, s, mcp.SignInOptions{OpenBrowser: c.cfg.OpenBrowser, Tokens: c.mcp.tokenStore(),
		TokenKey: tokenKey}); err != nil {
		return err
	}
	return c.mcp.mgr.Restart(k)
}

// MCPServerLog is a server's bounded stderr log.
func (c *Core) MCPServerLog(ctx context.Context, projectID, serverID string) (string, error) {
	root := ""
	if projectID != "" {
		p, err := c.sessions.Project(ctx, projectID)
		if err != nil {
			return "", err
		}
		root = p.Path
	}
	return c.mcp.log(root, serverID), nil
}

// StartTurnWith is StartTurn with the composer's options: the chosen MCP
// servers' tools are loaded for this prompt. An unknown server, a tool of
// another server, or a choice the mode allows nothing of fails before the
// turn opens.
func (c *Core) StartTurnWith(ctx context.Context, sessionID, prompt string, opts api.PromptOptions) error {
	names, err := c.resolveMCPSelection(ctx, sessionID, opts.MCP)
	if err != nil {
		return err
	}
	atts, err := c.verifyAttachments(ctx, sessionID, opts.Attachments)
	if err != nil {
		return err
	}
	return c.startTurn(ctx, sessionID, prompt, agent.RunOptions{Preload: names, Attachments: atts})
}
