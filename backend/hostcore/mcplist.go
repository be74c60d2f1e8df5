package hostcore

import (
	"context"
	"path/filepath"
	"slices"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
)

// ListMCPServers lists the app's servers and, for projectID, that project's
// servers with their trust, each with its live state. Listing starts only
// servers the user already trusted; never an untrusted one. A project
// folder that cannot be read, like a file that cannot be parsed, is a
// failed row saying why, not a failed list.
func (c *Core) ListMCPServers(ctx context.Context, projectID string) ([]api.MCPServer, error) {
	var p api.Project
	if projectID != "" {
		var err error
		if p, err = c.sessions.Project(ctx, projectID); err != nil {
			return nil, err
		}
	}
	return c.mcp.list(ctx, p)
}

// ListMCPServersAt is ListMCPServers for the project folder dir ("" = the
// app's servers only), as `pi-desktop mcp list --workspace DIR` shows it:
// a folder that is no project is only read, never registered, so its
// servers are all untrusted. With settle > 0 it first waits, at most that
// long, for servers still connecting.
func (c *Core) ListMCPServersAt(ctx context.Context, dir string, settle time.Duration) ([]api.MCPServer, error) {
	p, err := c.projectAt(ctx, dir)
	if err != nil {
		return nil, err
	}
	if settle <= 0 {
		return c.mcp.list(ctx, p)
	}
	// The first listing starts what may start; the second shows where it got.
	if _, err := c.mcp.list(ctx, p); err != nil {
		return nil, err
	}
	c.mcp.settledBy(ctx, listScopes(p), time.Now().Add(settle))
	return c.mcp.list(ctx, p)
}

// TestMCPServerAt is TestMCPServerByID for the project folder dir, as
// `pi-desktop mcp test NAME --workspace DIR` runs it, registering nothing:
// a folder that is no project has trusted nothing, so a server it declares
// is refused (MCP_SERVER_UNAVAILABLE). NOT_FOUND when dir declares no
// server of that id.
func (c *Core) TestMCPServerAt(ctx context.Context, dir, id string) (api.MCPTestResult, error) {
	p, err := c.projectAt(ctx, dir)
	if err != nil {
		return api.MCPTestResult{}, err
	}
	if p.ID != "" {
		return c.TestMCPServerByID(ctx, p.ID, id)
	}
	list, err := mcpstore.ProjectServers(p.Path)
	if err != nil {
		return api.MCPTestResult{}, err
	}
	if !slices.ContainsFunc(list, func(ps mcpstore.ProjectServer) bool { return ps.Server.ID == id }) {
		return api.MCPTestResult{}, errs.New(errs.NotFound, "%s declares no MCP server %q; check its .mcp.json and .agents/servers", p.Path, id).With("server", id)
	}
	return api.MCPTestResult{}, errs.New(errs.MCPServerUnavailable,
		"MCP server %q of %s is not trusted, so it is never started; open the folder as a project and trust it in Settings → MCP servers after checking its command", id, p.Path).With("server", id)
}

// projectAt is the project saved for the folder dir, or, for a folder that
// is no project, one with only its Path (nothing is registered); a zero
// project for dir "". The path is resolved as projects are saved; a folder
// that cannot be resolved keeps the path given (reading it fails later,
// where the failure is shown).
func (c *Core) projectAt(ctx context.Context, dir string) (api.Project, error) {
	if dir == "" {
		return api.Project{}, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return api.Project{}, errs.Wrap(err, errs.InvalidArgument, "the path %q cannot be made absolute", dir).With("field", "workspace")
	}
	if canon, err := filepath.EvalSymlinks(abs); err == nil {
		abs = canon
	}
	p, err := c.sessions.ProjectByPath(ctx, abs)
	if errs.Is(err, errs.ProjectNotFound) {
		return api.Project{Path: abs}, nil
	}
	return p, err
}

// listScopes are the manager scopes a listing of p covers.
func listScopes(p api.Project) []string {
	if p.ID == "" {
		return []string{""}
	}
	return []string{"", p.Path}
}

// list is the app's servers and p's (none for a zero p; read only, all
// untrusted, for a p without an id), each tool named as the model of p's
// sessions sees it. An app server that p's own server of its id replaces
// in p's sessions is marked Overridden.
func (h *mcpHost) list(ctx context.Context, p api.Project) ([]api.MCPServer, error) {
	if err := h.refreshApp(ctx); err != nil {
		return nil, err
	}
	app, err := h.store.List(ctx)
	if err != nil {
		return nil, err
	}
	scopes := listScopes(p)
	var project []mcpstore.ProjectServer
	if p.Path != "" {
		if p.ID != "" {
			project, err = h.projectServers(ctx, p)
		} else {
			project, err = mcpstore.ProjectServers(p.Path)
		}
		switch {
		case errs.Is(err, errs.ProjectNotFound): // the folder itself cannot be read
			project, scopes = []mcpstore.ProjectServer{{Source: mcpstore.ProjectFolder, Problem: errs.As(err)}}, scopes[:1]
		case err != nil:
			return nil, err
		}
	}
	// The statuses a session of p sees: the project's server hides the
	// app's of its id.
	statuses := h.settled(ctx, scopes, false)
	inProject := map[string]bool{}
	for _, st := range statuses {
		inProject[st.Key.ID] = inProject[st.Key.ID] || st.Key.Scope != ""
	}
	names := catalogNames(statuses)
	out := make([]api.MCPServer, 0, len(app)+len(project))
	for _, s := range app {
		s = h.withStatus(s, keyOf("", s.ID), names)
		s.Overridden = inProject[s.ID]
		s.SigningIn = h.signIns.waiting(keyOf("", s.ID))
		out = append(out, s)
	}
	for _, ps := range project {
		s := ps.API(p.ID)
		if p.ID != "" && ps.Problem == nil && ps.Trusted {
			s = h.withStatus(s, keyOf(p.Path, ps.Server.ID), names)
			s.SigningIn = h.signIns.waiting(keyOf(p.Path, ps.Server.ID))
		}
		out = append(out, s)
	}
	return out, nil
}

// catalogNames is the model-facing name of every tool a session with
// statuses offers, by server key and the tool's own name.
func catalogNames(statuses []mcp.Status) map[mcp.Key]map[string]string {
	names := map[mcp.Key]map[string]string{}
	for _, t := range catalogOf(statuses) {
		if names[t.st.Key] == nil {
			names[t.st.Key] = map[string]string{}
		}
		names[t.st.Key][t.tool.Tool.Name] = t.name
	}
	return names
}

// withStatus fills s's live fields from the manager, each tool with the
// name the model sees it by (names, by server key and tool; "" for a tool
// the session does not offer).
func (h *mcpHost) withStatus(s api.MCPServer, k mcp.Key, names map[mcp.Key]map[string]string) api.MCPServer {
	st, ok := h.status(k)
	if !ok {
		if err := h.appError(s.ID); k.Scope == "" && err != nil {
			p := errs.ToPayload(err)
			s.State, s.ErrorCode, s.Error = api.MCPStateFailed, string(p.Code), p.Message
			return s
		}
		if s.State == "" {
			s.State = api.MCPStateDisabled
			if s.Enabled {
				s.State = api.MCPStateConnecting
			}
		}
		return s
	}
	s.State, s.ErrorCode, s.Error = string(st.State), string(st.ErrorCode), st.Error
	s.LogTail, s.Restarts = st.LogTail, st.Restarts // never nil (mcp keeps it so)
	s.OmittedTools, s.SchemaTokens = len(st.Omitted), st.SchemaTokens
	s.Tools = make([]api.MCPTool, 0, len(st.Tools))
	for _, t := range st.Tools {
		s.Tools = append(s.Tools, api.MCPTool{Name: t.Tool.Name, Title: t.Tool.Title, Description: t.Tool.Description,
			Enabled: t.Enabled, SchemaTokens: t.SchemaTokens, ModelName: names[k][t.Tool.Name]})
	}
	return s
}
