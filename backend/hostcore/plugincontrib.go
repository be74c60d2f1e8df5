package hostcore

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
)

// A plugin's skills/, subagents/ and commands/ folders and its mcpServers
// join the engines that already read those (issue 22): the skills loader,
// the subagent catalog, the slash commands and the MCP manager each get
// the plugin folders as their last source, so a plugin never replaces the
// user's or the project's entry of the same name. Only a plugin the user
// consented to as installed, and enabled for the project, contributes;
// disabling or removing it takes every contribution away at once.

// pluginFolders are the install folders of the plugins enabled in the
// project at projectRoot ("" = none, or not a registered project: the
// app-wide choice) and consented to as installed, by id. A failure to read
// them contributes nothing (fail closed), logged.
func (c *Core) pluginFolders(ctx context.Context, projectRoot string) []string {
	recs, err := c.plugins.store.List(ctx)
	if err != nil {
		c.log.Warn("plugin contributions", "code", errs.CodeOf(err))
		return nil
	}
	projectID := c.projectIDOf(ctx, projectRoot)
	var out []string
	for _, r := range recs {
		if r.Consented() && r.EnabledIn(projectID) {
			out = append(out, r.Path)
		}
	}
	return out
}

// projectIDOf is the id of the registered project at root ("" when none).
func (c *Core) projectIDOf(ctx context.Context, root string) string {
	if root == "" {
		return ""
	}
	p, err := c.sessions.ProjectByPath(ctx, root)
	if err != nil {
		return ""
	}
	return p.ID
}

// pluginScopePrefix marks a plugin's MCP servers in the manager: their
// scope is "plugin:" + the plugin's install folder, where they start.
const pluginScopePrefix = "plugin:"

func pluginScope(dir string) string { return pluginScopePrefix + dir }

// pluginDirOf is the install folder of a plugin scope.
func pluginDirOf(scope string) (string, bool) { return strings.CutPrefix(scope, pluginScopePrefix) }

// syncPluginServers hands the manager the MCP servers of every plugin the
// user consented to as installed and enabled somewhere (app-wide or in a
// project), and ends those of every other: a disabled, changed or removed
// plugin's servers stop here. Each plugin's folder is read again before
// its servers are handed over, so a file edited since the consent runs
// nothing.
func (h *mcpHost) syncPluginServers(ctx context.Context) {
	// Read and apply under one lock: a sync that read the store before a
	// disable must not apply its older view after the disable's sync.
	h.syncMu.Lock()
	defer h.syncMu.Unlock()
	recs, err := h.c.plugins.store.List(ctx)
	if err != nil {
		h.c.log.Warn("plugin MCP servers", "code", errs.CodeOf(err))
		recs = nil // fail closed: every plugin server stops
	}
	want := map[string][]mcp.Server{}
	ids := map[string]string{}
	for _, r := range recs {
		if !r.Consented() || !(r.Enabled || slices.Contains(mapValues(r.Projects), true)) {
			continue
		}
		m, err := r.Manifest()
		if err != nil || len(m.MCPServers) == 0 {
			continue
		}
		if !h.c.plugins.verified(r) {
			continue
		}
		scope := pluginScope(r.Path)
		want[scope], ids[scope] = slices.Clone(m.MCPServers), r.ID
	}
	h.mu.Lock()
	old := h.pluginIDs
	h.pluginIDs = ids
	h.mu.Unlock()
	for scope := range old {
		if _, ok := want[scope]; !ok {
			h.sync(scope, nil)
		}
	}
	for scope, servers := range want {
		h.sync(scope, servers)
	}
}

// pluginsChanged follows a plugin's install, consent, switch or removal:
// its servers start or stop, and every cached session catalog is old (a
// project's own switch changes what its sessions see without changing the
// servers that run).
func (h *mcpHost) pluginsChanged(ctx context.Context) {
	h.syncPluginServers(ctx)
	h.gen.Add(1)
}

func mapValues(m map[string]bool) []bool {
	out := make([]bool, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// pluginScopes are the scopes of the plugin servers a session in the
// project at projectRoot sees: its enabled plugins', in reverse id order
// so that, as settled hides earlier scopes by later ones, the first
// plugin's server wins over a later plugin's and every plugin server
// comes before (under) the app's and the project's own.
func (h *mcpHost) pluginScopes(ctx context.Context, projectRoot string) []string {
	h.mu.Lock()
	running := h.pluginIDs
	h.mu.Unlock()
	var out []string
	for _, dir := range h.c.pluginFolders(ctx, projectRoot) {
		if _, ok := running[pluginScope(dir)]; ok {
			out = append(out, pluginScope(dir))
		}
	}
	slices.Reverse(out)
	return out
}

// pluginPlacement is where a plugin's MCP server starts and keeps its
// sign-in: in the plugin folder (a relative command or cwd is inside it),
// its sign-in slot apart from every app and project server's.
func (h *mcpHost) pluginPlacement(k mcp.Key, s mcp.Server) (mcp.Server, string, string, error) {
	dir, _ := pluginDirOf(k.Scope)
	h.mu.Lock()
	id, ok := h.pluginIDs[k.Scope]
	h.mu.Unlock()
	if !ok {
		return mcp.Server{}, "", "", errs.New(errs.PluginNotFound, "MCP server %q belongs to a plugin that is no longer enabled; enable it in Settings → Plugins", k.ID).With("server", k.ID)
	}
	if s.Cwd != "" && (filepath.IsAbs(s.Cwd) || isEscaping(s.Cwd)) {
		return mcp.Server{}, "", "", errs.New(errs.PluginInvalid, "MCP server %q of plugin %q has a cwd outside the plugin folder; a plugin's servers run inside it", k.ID, id).With("plugin", id)
	}
	if strings.ContainsAny(s.Command, `/\`) && !filepath.IsAbs(s.Command) {
		s.Command = filepath.Join(dir, filepath.FromSlash(s.Command))
	}
	return s, filepath.Join(dir, s.Cwd), mcpstore.TokenKey("plugin."+id, k.ID), nil
}

func isEscaping(p string) bool {
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return true
		}
	}
	return false
}

// verified reports whether r's folder is still what the user consented
// to. Its answer is kept for r's installed state, so a catalog does not
// hash a plugin's files each time; the runtime checks again before its
// process starts.
func (h *pluginHost) verified(r plugin.Record) bool {
	key := r.Path + "\x00" + r.ConsentHash
	h.mu.Lock()
	ok, seen := h.checked[key]
	h.mu.Unlock()
	if seen {
		return ok
	}
	now, err := plugin.Verify(r.Path)
	ok = err == nil && now == r.ConsentHash
	if !ok {
		h.c.log.Warn("plugin changed since its consent; its MCP servers do not start", "plugin", r.ID)
	}
	h.mu.Lock()
	h.checked[key] = ok
	h.mu.Unlock()
	return ok
}
