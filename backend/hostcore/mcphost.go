package hostcore

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/envpolicy"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
)

// rediscover is how often a session's catalog re-reads its project's
// server files: an edit shows within it, and a burst of calls does not read
// the files once per call. (Trust is unaffected: a running server keeps
// the definition it was trusted with, and Settings always reads the files.)
const rediscover = 2 * time.Second

// catalogWait bounds how long a session's catalog waits for its servers
// that are still connecting, so the first turn after start-up (or after
// trusting a server) sees their tools without holding a turn for long.
const catalogWait = 5 * time.Second

// mcpHost is the app's MCP servers: their definitions and trust (mcpstore),
// the live set (mcp.Manager), and the catalog each session sees. It is the
// MCPSource of the sessions unless Config.MCP replaces it (tests).
type mcpHost struct {
	c     *Core
	store *mcpstore.Service
	mgr   *mcp.Manager

	// gen counts changes that can alter a catalog: a server's state or
	// tools (the manager's OnChange) and the user's edits.
	gen atomic.Uint64

	// syncMu holds a read of the definitions and its Sync together, so a
	// read from before a change never syncs after it.
	syncMu sync.Mutex

	signIns signIns

	mu       sync.Mutex
	started  bool                     // the app's servers were handed to the manager once
	appSig   string                   // mcpstore's Signature when the app's servers were last synced
	appErrs  map[string]error         // app servers that could not be started (a secret unreadable)
	projects map[string]string        // project root → id, for the servers it started
	catalogs map[string]cachedCatalog // project root ("" = none) → its last catalog
	synced   map[string]string        // scope → what it was last synced with
	// pluginIDs are the plugin scopes handed to the manager → their
	// plugin's id (syncPluginServers).
	pluginIDs map[string]string
}

// cachedCatalog is a session catalog as of gen, its project's files read
// at read.
type cachedCatalog struct {
	gen     uint64
	read    time.Time
	entries []MCPToolEntry
}

func newMCPHost(c *Core) *mcpHost {
	h := &mcpHost{c: c, store: mcpstore.New(c.store.DB(), c.keys, c.cfg.Now), projects: map[string]string{}, appErrs: map[string]error{}, catalogs: map[string]cachedCatalog{}, synced: map[string]string{}}
	h.mgr = mcp.NewManager(mcp.ManagerOptions{Dial: h.dial, OnChange: h.changed})
	return h
}

// changed announces a server's new state or tools to the window.
func (h *mcpHost) changed(k mcp.Key) {
	h.gen.Add(1)
	h.c.emit(api.EventMCPServersChanged, api.MCPServersChanged{ProjectID: h.projectOf(k.Scope), ServerID: k.ID})
}

func (h *mcpHost) projectOf(root string) string {
	if root == "" {
		return ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.projects[root]
}

// tokens keeps OAuth sign-ins where mcpstore keeps them (the keychain).
type tokens struct{ s *mcpstore.Service }

func (t tokens) Load(key string) ([]byte, error)       { return t.s.LoadToken(key) }
func (t tokens) Save(key string, blob []byte) error    { return t.s.SaveToken(key, blob) }
func (h *mcpHost) tokenStore() mcp.TokenStore          { return tokens{h.store} }
func keyOf(projectRoot, id string) mcp.Key             { return mcp.Key{Scope: projectRoot, ID: id} }
func (h *mcpHost) close()                              { h.signIns.closeAll(); h.mgr.Close() }
func (h *mcpHost) log(projectRoot, id string) string   { return h.mgr.Log(keyOf(projectRoot, id)) }
func (h *mcpHost) status(k mcp.Key) (mcp.Status, bool) { return h.mgr.Status(k) }

// dial connects one server the way the host runs commands: a stdio server
// gets the Bash tool's environment policy with the login-shell PATH (so
// npx, uvx and docker resolve after a Finder or Dock launch) plus its own
// env, and starts in its project (or the user's home for an app server);
// a project's ${VAR} references are expanded from that environment.
func (h *mcpHost) dial(ctx context.Context, s mcp.Server, env mcp.DialEnv) (*mcp.Conn, error) {
	settings, err := h.c.settings.Get(ctx)
	if err != nil {
		return nil, err
	}
	base := h.loginEnviron(settings)
	if _, ok := pluginDirOf(env.Key.Scope); ok {
		return h.dialPlugin(ctx, s, env)
	}
	tokenKey, err := h.tokenKey(env.Key)
	if err != nil {
		return nil, err
	}
	if s, err = h.runnable(env.Key, s); err != nil {
		return nil, err
	}
	dir := s.Cwd
	switch {
	case env.Key.Scope != "" && !filepath.IsAbs(dir):
		dir = filepath.Join(env.Key.Scope, dir)
	case dir == "":
		dir, _ = os.UserHomeDir()
	}
	return mcp.Connect(ctx, s, mcp.ConnectOptions{
		Hooks:    env.Hooks,
		Stdio:    mcp.StdioOptions{BaseEnv: base, Dir: dir, RunnerExe: h.c.cfg.RunnerExe, Stderr: env.Stderr},
		Tokens:   h.tokenStore(),
		TokenKey: tokenKey,
	})
}

// dialPlugin connects a plugin's MCP server: in the plugin folder, with
// the plugin process's environment (the Bash policy, never a provider's
// key), its values taken literally as the consent card showed them.
func (h *mcpHost) dialPlugin(ctx context.Context, s mcp.Server, env mcp.DialEnv) (*mcp.Conn, error) {
	s, dir, tokenKey, err := h.pluginPlacement(env.Key, s)
	if err != nil {
		return nil, err
	}
	base, err := h.c.plugins.environ(ctx)
	if err != nil {
		return nil, err
	}
	return mcp.Connect(ctx, s, mcp.ConnectOptions{
		Hooks:    env.Hooks,
		Stdio:    mcp.StdioOptions{BaseEnv: base, Dir: dir, RunnerExe: h.c.cfg.RunnerExe, Stderr: env.Stderr},
		Tokens:   h.tokenStore(),
		TokenKey: tokenKey,
	})
}

// tokenKey is where k's sign-in is kept; a project server's slot is its
// project's, never the app server's of the same id.
func (h *mcpHost) tokenKey(k mcp.Key) (string, error) {
	projectID := h.projectOf(k.Scope)
	if k.Scope != "" && projectID == "" {
		return "", errs.New(errs.ProjectNotFound, "MCP server %q belongs to a project that is no longer open; reopen the project", k.ID).With("server", k.ID)
	}
	return mcpstore.TokenKey(projectID, k.ID), nil
}

// runnable is a definition as it runs: a project file's ${VAR} references
// expanded from the app's own environment (the trust card showed them by
// name; the Bash policy, which drops *_TOKEN and the like from commands,
// is for what the server inherits, not for what its definition names).
func (h *mcpHost) runnable(k mcp.Key, s mcp.Server) (mcp.Server, error) {
	if k.Scope == "" {
		return s, nil
	}
	return mcpstore.Expand(s, lookupIn(h.c.hostEnviron()))
}

// loginEnviron is commandEnviron with the login shell's PATH.
func (h *mcpHost) loginEnviron(s api.Settings) []string {
	return envpolicy.WithPATH(h.c.commandEnviron(s), h.c.probe.PATH())
}

func lookupIn(env []string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
				return v, true
			}
		}
		return "", false
	}
}

// syncApp hands the saved app servers to the manager. A server whose
// secret cannot be read is failed with that reason, not skipped.
func (h *mcpHost) syncApp(ctx context.Context) error {
	h.syncMu.Lock()
	defer h.syncMu.Unlock()
	sig, err := h.store.Signature(ctx)
	if err != nil {
		return err
	}
	list, err := h.store.List(ctx)
	if err != nil {
		return err
	}
	servers := make([]mcp.Server, 0, len(list))
	failed := map[string]error{}
	for _, s := range list {
		srv, err := h.store.Resolve(ctx, s.ID)
		if err != nil {
			h.c.log.Warn("MCP server not started", "server", s.ID, "code", errs.CodeOf(err))
			failed[s.ID] = err
			continue
		}
		servers = append(servers, srv)
	}
	h.mu.Lock()
	h.appSig, h.appErrs, h.started = sig, failed, true
	h.mu.Unlock()
	h.sync("", servers)
	return nil
}

// resyncApp follows an edit of the app's servers; with Config.DeferMCP
// (the mcp CLI) nothing starts before something needs the live set.
func (h *mcpHost) resyncApp(ctx context.Context) error {
	h.mu.Lock()
	idle := h.c.cfg.DeferMCP && !h.started
	h.mu.Unlock()
	if idle {
		return nil
	}
	return h.syncApp(ctx)
}

// refreshApp syncs the app's servers again when they changed since (in
// another process too: `pi-desktop mcp add` while the app runs).
func (h *mcpHost) refreshApp(ctx context.Context) error {
	sig, err := h.store.Signature(ctx)
	if err != nil {
		return err
	}
	h.mu.Lock()
	same := sig == h.appSig
	h.mu.Unlock()
	if same {
		return nil
	}
	return h.syncApp(ctx)
}

// appError is why a saved app server could not be handed to the manager.
func (h *mcpHost) appError(id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.appErrs[id]
}

// sync hands a scope's servers to the manager; a set that differs from the
// last one handed (a definition, a switch) makes every cached catalog old.
func (h *mcpHost) sync(scope string, servers []mcp.Server) {
	var b strings.Builder
	for _, s := range servers {
		b.WriteString(s.DefinitionHash())
		b.WriteString(strconv.FormatBool(s.Enabled))
		b.WriteString(strings.Join(slices.Sorted(maps.Keys(s.DisabledTools)), "\x00"))
		b.WriteByte(0)
	}
	h.mgr.Sync(scope, servers)
	h.mu.Lock()
	changed := h.synced[scope] != b.String()
	h.synced[scope] = b.String()
	h.mu.Unlock()
	if changed {
		h.gen.Add(1)
	}
}

// projectServers reads a project's servers with the user's trust and
// switches, and starts the trusted ones (only those: reading a repository
// never runs it).
func (h *mcpHost) projectServers(ctx context.Context, p api.Project) ([]mcpstore.ProjectServer, error) {
	h.syncMu.Lock()
	defer h.syncMu.Unlock()
	list, err := h.store.ProjectCatalog(ctx, p.ID, p.Path)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.projects[p.Path] = p.ID
	h.mu.Unlock()
	var run []mcp.Server
	for _, ps := range list {
		if ps.Problem == nil && ps.Trusted {
			run = append(run, ps.Server)
		}
	}
	h.sync(p.Path, run)
	return list, nil
}

// forgetProject ends a removed project's servers and its saved sign-ins.
func (h *mcpHost) forgetProject(ctx context.Context, p api.Project) error {
	h.syncMu.Lock()
	h.sync(p.Path, nil)
	h.syncMu.Unlock()
	h.mu.Lock()
	delete(h.projects, p.Path)
	h.mu.Unlock()
	return h.store.ForgetProject(ctx, p.ID)
}

// Tools is the catalog of a session in projectRoot: the app's ready servers
// and the project's trusted ready ones, a project server hiding an app
// server of its id. It waits (at most catalogWait) for servers still
// connecting.
func (h *mcpHost) Tools(ctx context.Context, projectRoot string) ([]MCPToolEntry, error) {
	h.mu.Lock()
	cached, ok := h.catalogs[projectRoot]
	h.mu.Unlock()
	if ok && cached.gen == h.gen.Load() && time.Since(cached.read) < rediscover {
		return cached.entries, nil
	}
	if err := h.refreshApp(ctx); err != nil {
		return nil, err
	}
	read, gen := time.Now(), h.gen.Load()
	// Only a first catalog waits for servers still connecting (the first
	// turn after start-up or a trust); later, a server restarting must not
	// hold the calls of the others.
	entries, err := h.tools(ctx, projectRoot, !ok)
	if err != nil {
		return nil, err
	}
	// Kept only if nothing changed while it was built (the files read, a
	// server connecting): otherwise the next call builds it again.
	if h.gen.Load() == gen {
		h.mu.Lock()
		h.catalogs[projectRoot] = cachedCatalog{gen: gen, read: read, entries: entries}
		h.mu.Unlock()
	}
	return entries, nil
}

func (h *mcpHost) tools(ctx context.Context, projectRoot string, wait bool) ([]MCPToolEntry, error) {
	h.syncPluginServers(ctx)
	scopes := append(h.pluginScopes(ctx, projectRoot), "")
	if projectRoot != "" {
		p, err := h.c.sessions.ProjectByPath(ctx, projectRoot)
		if err != nil {
			return nil, err
		}
		// A project folder that cannot be read (deleted, unmounted) leaves
		// the app's own servers usable.
		if _, err := h.projectServers(ctx, p); err != nil {
			h.c.log.Warn("read the project's MCP servers", "code", errs.CodeOf(err))
		} else {
			scopes = append(scopes, projectRoot)
		}
	}
	statuses := h.settled(ctx, scopes, wait)
	catalog := catalogOf(statuses)
	out := make([]MCPToolEntry, 0, len(catalog))
	for _, t := range catalog {
		out = append(out, entryOf(t.st, t.tool, t.name))
	}
	return out, nil
}

// catalogTool is one tool of a session's catalog: its server, the tool,
// and the name the model calls it by.
type catalogTool struct {
	st   mcp.Status
	tool mcp.ToolInfo
	name string
}

// catalogOf is the session catalog over statuses (settled's): the enabled
// tools of the ready servers, named by mcp.Names over the whole catalog.
// Settings names the tools it lists with it too, so both say the same.
func catalogOf(statuses []mcp.Status) []catalogTool {
	var refs []mcp.ToolRef
	var out []catalogTool
	for _, st := range statuses {
		if st.State != mcp.StateReady {
			continue
		}
		for _, t := range st.Tools {
			if t.Enabled {
				refs = append(refs, mcp.ToolRef{Server: st.Key.ID, Tool: t.Tool.Name})
				out = append(out, catalogTool{st: st, tool: t})
			}
		}
	}
	names := mcp.Names(refs)
	for i := range out {
		out[i].name = names[refs[i]]
	}
	return out
}

// settled is the statuses of scopes, a project server hiding the app
// server of its id, once none is connecting (or catalogWait passed).
func (h *mcpHost) settled(ctx context.Context, scopes []string, wait bool) []mcp.Status {
	var deadline time.Time
	if wait {
		deadline = time.Now().Add(catalogWait)
	}
	return h.settledBy(ctx, scopes, deadline)
}

// settledBy is settled waiting until deadline (a zero one: no wait).
func (h *mcpHost) settledBy(ctx context.Context, scopes []string, deadline time.Time) []mcp.Status {
	for {
		var all []mcp.Status
		connecting := false
		hidden := map[string]bool{}
		for i := len(scopes) - 1; i >= 0; i-- {
			for _, st := range h.mgr.Statuses(scopes[i]) {
				if hidden[st.Key.ID] {
					continue
				}
				hidden[st.Key.ID] = true
				all = append(all, st)
				connecting = connecting || st.State == mcp.StateConnecting
			}
		}
		if !connecting || time.Now().After(deadline) || ctx.Err() != nil {
			return all
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func entryOf(st mcp.Status, t mcp.ToolInfo, modelName string) MCPToolEntry {
	// The SDK decodes a listed schema into a map; a schema that does not
	// marshal back is left empty, and the pipeline reports the tool as
	// unusable.
	schema, _ := json.Marshal(t.Tool.InputSchema)
	return MCPToolEntry{Scope: st.Key.Scope, ServerID: st.Key.ID, Tool: t.Tool.Name, ModelName: modelName,
		Title: t.Tool.Title, Description: t.Tool.Description, InputSchema: schema, CallTimeout: st.CallTimeout}
}

// Call calls e on its live server.
func (h *mcpHost) Call(ctx context.Context, e MCPToolEntry, args json.RawMessage, onProgress func(mcp.Progress)) (*sdk.CallToolResult, error) {
	return h.mgr.Call(ctx, keyOf(e.Scope, e.ServerID), e.Tool, args, onProgress)
}
