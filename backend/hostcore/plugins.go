package hostcore

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/envpolicy"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// pluginHost is the installed plugins (issue 22): their records and
// consent (plugin.Store), their processes (plugin.Runtime) and the tools
// each session sees. A plugin tool is a tools.Tool that Execute runs like
// any other; nothing of a plugin runs before the user consented to the
// exact files installed.
type pluginHost struct {
	c     *Core
	store *plugin.Store
	rt    *plugin.Runtime
	dir   string // <data dir>/plugins

	mu    sync.Mutex
	built map[string]builtPlugin // plugin id → its tools, for one record state
	// checked is whether a plugin's folder matched its consent, by path
	// and consent hash (verified).
	checked map[string]bool
}

// builtPlugin is a plugin's tools made for one installed and consented
// state; a change of any of key builds them again.
type builtPlugin struct {
	key   string
	tools []pluginEntry
}

// pluginEntry is a plugin tool with its compiled schema (nil when it does
// not compile: the tool is then left out, never a crash).
type pluginEntry struct {
	tool   *plugin.Tool
	schema *tools.Schema
	bad    error
}

func newPluginHost(c *Core) *pluginHost {
	h := &pluginHost{c: c, store: plugin.NewStore(c.store.DB(), c.cfg.Now), dir: filepath.Join(c.cfg.DataDir, "plugins"),
		built: map[string]builtPlugin{}, checked: map[string]bool{}}
	h.rt = plugin.NewRuntime(plugin.RuntimeOptions{Environ: h.environ, RunnerExe: c.cfg.RunnerExe, OnStart: func(id string, pid int) {
		c.log.Info("plugin started", "plugin", id, "pid", pid)
	}})
	return h
}

// pluginAuthoringTools are PluginScaffold, PluginCheck and PluginPack.
// PluginCheck starts the folder's process as the runtime would: the same
// environment (read at call time, once the plugin host exists) and the
// same process-tree owner.
func (c *Core) pluginAuthoringTools() []tools.Tool {
	return plugin.AuthoringTools(plugin.RuntimeOptions{RunnerExe: c.cfg.RunnerExe,
		Environ: func(ctx context.Context) ([]string, error) { return c.plugins.environ(ctx) }})
}

// environ is a plugin process's environment: the Bash tool's policy with
// the login-shell PATH, and never a model provider's key, even one the
// user passes through to commands.
func (h *pluginHost) environ(ctx context.Context) ([]string, error) {
	settings, err := h.c.settings.Get(ctx)
	if err != nil {
		return nil, err
	}
	env := envpolicy.WithPATH(h.c.commandEnviron(settings), h.c.probe.PATH())
	return slices.DeleteFunc(env, func(kv string) bool { return slices.Contains(providerKeyEnvs, envpolicy.Name(kv)) }), nil
}

// active is the tools of the plugins enabled in projectID ("" = none) and
// consented to as installed.
func (h *pluginHost) active(ctx context.Context, projectID string) ([]pluginEntry, error) {
	recs, err := h.store.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []pluginEntry
	for _, r := range recs {
		if !r.Consented() || !r.EnabledIn(projectID) {
			continue
		}
		out = append(out, h.toolsOf(r)...)
	}
	return out, nil
}

// toolsOf builds r's tools once per installed and consented state.
func (h *pluginHost) toolsOf(r plugin.Record) []pluginEntry {
	key := r.Version + "\x00" + r.Path + "\x00" + r.ContentHash + "\x00" + r.ConsentHash
	h.mu.Lock()
	got, ok := h.built[r.ID]
	h.mu.Unlock()
	if ok && got.key == key {
		return got.tools
	}
	m, err := r.Manifest()
	if err != nil {
		h.c.log.Warn("plugin manifest", "plugin", r.ID, "code", errs.CodeOf(err))
		return nil
	}
	rt, rec := h.rt, r
	call := func(ctx context.Context, tool string, args json.RawMessage) (*sdk.CallToolResult, error) {
		return rt.Call(ctx, rec, tool, args)
	}
	var list []pluginEntry
	for _, t := range m.Tools {
		pt := plugin.NewTool(m.ID, m.Name, t, call)
		schema, bad := h.c.mcpSchemas.compile(pt.Spec())
		list = append(list, pluginEntry{tool: pt, schema: schema, bad: bad})
	}
	h.mu.Lock()
	h.built[r.ID] = builtPlugin{key: key, tools: list}
	h.mu.Unlock()
	return list
}

// lookup finds a plugin tool by its model-facing name in projectID's
// active plugins.
func (h *pluginHost) lookup(ctx context.Context, projectID, name string) (pluginEntry, bool, error) {
	list, err := h.active(ctx, projectID)
	if err != nil {
		return pluginEntry{}, false, err
	}
	for _, e := range list {
		if e.tool.Spec().Name == name {
			return e, true, nil
		}
	}
	return pluginEntry{}, false, nil
}

// validate checks a call's arguments against the manifest's schema.
func (e pluginEntry) validate(raw json.RawMessage) (json.RawMessage, map[string]any, error) {
	if e.schema == nil {
		id, _, tool := e.tool.Plugin()
		return nil, nil, errs.Wrap(e.bad, errs.PluginInvalid,
			"%s cannot be called: the inputSchema plugin %q declares for %q is not valid JSON Schema; ask the plugin's author to fix it", e.tool.Spec().Name, id, tool).
			With("plugin", id)
	}
	return e.schema.Validate(e.tool, raw)
}

// pluginDeferred is the session's plugin tools in its on-demand catalog
// for mode: the policy hides those without planSafeActions in Plan and
// Goal.
func (c *Core) pluginDeferred(ctx context.Context, sessionID, mode string) []agent.DeferredTool {
	b, _, err := c.workspace(ctx, sessionID)
	if err != nil {
		return nil
	}
	list, err := c.plugins.active(ctx, b.Session.ProjectID)
	if err != nil {
		c.log.Warn("plugin catalog", "session", sessionID, "code", errs.CodeOf(err))
		return nil
	}
	var out []agent.DeferredTool
	for _, e := range list {
		s := e.tool.Spec()
		if e.schema == nil || !permission.Offered(specInput(s, mode)) {
			continue
		}
		out = append(out, agent.DeferredTool{Name: s.Name, Summary: s.Summary, Def: toolDef(s)})
	}
	return out
}

// planActionChecker is a tool whose calls the host checks against their
// plan-safe actions in Plan and Goal (a plugin tool).
type planActionChecker interface {
	CheckPlanAction(args json.RawMessage, mode string) error
}

// pluginOrigin names a plugin tool's plugin for its approval card.
type pluginOrigin interface {
	Plugin() (id, name, tool string)
}

// StagePlugin checks a plugin folder or .piplug file and stages it: what
// it contributes, and which of its files the app would not use, is shown
// from the result before anything is installed or run. Discard it, or
// pass it to InstallPlugin.
func (c *Core) StagePlugin(ctx context.Context, src string) (*plugin.Staged, error) {
	s, err := plugin.Stage(src, c.plugins.dir)
	if err != nil {
		return nil, err
	}
	if err := s.CheckContent(ctx); err != nil {
		s.Discard()
		return nil, err
	}
	return s, nil
}

// InstallPlugin installs a staged plugin into <data dir>/plugins/<id>/<version>,
// replacing the plugin's earlier version (its process is stopped first).
// consent records the user's consent to exactly what was staged; without
// it an earlier consent counts only if nothing changed.
func (c *Core) InstallPlugin(ctx context.Context, s *plugin.Staged, consent bool) (plugin.Summary, error) {
	defer s.Discard()
	// Model-facing names keep only [A-Za-z0-9]: dev.acme and dev-acme
	// would offer the same tool names, and a call could reach the other.
	installed, err := c.plugins.store.List(ctx)
	if err != nil {
		return plugin.Summary{}, err
	}
	for _, r := range installed {
		if r.ID != s.Manifest.ID && plugin.SafeID(r.ID) == plugin.SafeID(s.Manifest.ID) {
			return plugin.Summary{}, errs.New(errs.Conflict, "plugin %q would give its tools the same names as the installed plugin %q; remove that one first or change the id", s.Manifest.ID, r.ID).With("plugin", r.ID)
		}
	}
	c.plugins.rt.Stop(s.Manifest.ID)
	dir, err := s.Commit()
	if err != nil {
		return plugin.Summary{}, err
	}
	if err := c.plugins.store.Put(ctx, s, dir, consent); err != nil {
		return plugin.Summary{}, err
	}
	c.mcp.pluginsChanged(ctx)
	c.log.Info("plugin installed", "plugin", s.Manifest.ID, "version", s.Manifest.Version, "consent", consent)
	return s.Summary(), nil
}

// ConsentPlugin records the user's consent to an installed plugin as they
// saw it (its hash); a plugin changed since is refused with CONFLICT.
func (c *Core) ConsentPlugin(ctx context.Context, id, hash string) error {
	r, err := c.plugins.store.Get(ctx, id)
	if err != nil {
		return err
	}
	if now, err := plugin.Verify(r.Path); err != nil || now != hash {
		return errs.New(errs.Conflict, "plugin %q changed on disk since it was shown; review it again before consenting", id).With("plugin", id)
	}
	if err := c.plugins.store.Consent(ctx, id, hash); err != nil {
		return err
	}
	c.mcp.pluginsChanged(ctx)
	return nil
}

// PluginInfo is an installed plugin: what it contributes, and its state.
type PluginInfo struct {
	plugin.Summary
	Path      string `json:"path"`
	Enabled   bool   `json:"enabled"`
	Consented bool   `json:"consented"`
	// Changed: the files on disk are not what was installed (or cannot be
	// read); the plugin runs nothing until consented to again.
	Changed bool `json:"changed"`
	Running bool `json:"running"`
	// Projects are the projects' own choices (project id → enabled).
	Projects map[string]bool `json:"projects"`
}

// Plugins lists the installed plugins by id.
func (c *Core) Plugins(ctx context.Context) ([]PluginInfo, error) {
	recs, err := c.plugins.store.List(ctx)
	if err != nil {
		return nil, err
	}
	out := []PluginInfo{}
	for _, r := range recs {
		m, err := r.Manifest()
		if err != nil {
			return nil, err
		}
		files, now, serr := plugin.Scan(r.Path)
		info := PluginInfo{Summary: plugin.Describe(m, files, r.ContentHash), Path: r.Path, Enabled: r.Enabled,
			Consented: r.Consented(), Changed: serr != nil || now != r.ContentHash, Running: c.plugins.rt.Pid(r.ID) != 0,
			Projects: r.Projects}
		out = append(out, info)
	}
	return out, nil
}

// SetPluginEnabled turns a plugin on or off app-wide (projectID "") or in
// one project; off stops its process.
func (c *Core) SetPluginEnabled(ctx context.Context, id, projectID string, on bool) error {
	if projectID != "" {
		if _, err := c.sessions.Project(ctx, projectID); err != nil {
			return err
		}
	}
	if err := c.plugins.store.SetEnabled(ctx, id, projectID, on); err != nil {
		return err
	}
	if !on {
		c.plugins.rt.Stop(id)
	}
	c.mcp.pluginsChanged(ctx)
	return nil
}

// ClearPluginProject drops a project's own choice for a plugin: the
// project follows the app-wide switch again, at once. When that is off the
// plugin's process stops, as a switch to off does.
func (c *Core) ClearPluginProject(ctx context.Context, id, projectID string) error {
	if _, err := c.sessions.Project(ctx, projectID); err != nil {
		return err
	}
	if err := c.plugins.store.ClearProject(ctx, id, projectID); err != nil {
		return err
	}
	if r, err := c.plugins.store.Get(ctx, id); err == nil && !r.Enabled {
		c.plugins.rt.Stop(id)
	}
	c.mcp.pluginsChanged(ctx)
	return nil
}

// RemovePlugin uninstalls a plugin: its process stops, its tools leave
// every catalog at once and its folder is deleted.
func (c *Core) RemovePlugin(ctx context.Context, id string) error {
	r, err := c.plugins.store.Get(ctx, id)
	if err != nil {
		return err
	}
	c.plugins.rt.Stop(r.ID)
	if err := c.plugins.store.Remove(ctx, r.ID); err != nil {
		return err
	}
	c.plugins.mu.Lock()
	delete(c.plugins.built, r.ID)
	c.plugins.mu.Unlock()
	c.mcp.pluginsChanged(ctx)
	dir := filepath.Join(c.plugins.dir, r.ID)
	if filepath.Dir(dir) != c.plugins.dir || strings.ContainsAny(r.ID, `/\`) {
		return errs.New(errs.Internal, "plugin %q has an id that is not a folder name; its files were left in %s", r.ID, c.plugins.dir)
	}
	if err := os.RemoveAll(dir); err != nil {
		c.log.Warn("remove plugin folder", "plugin", r.ID, "err", err)
	}
	c.log.Info("plugin removed", "plugin", r.ID)
	return nil
}

// PluginLog is the kept stderr of a plugin's process.
func (c *Core) PluginLog(id string) string { return c.plugins.rt.Log(id) }

// PluginPid is the process id of a plugin's running process (0 = none).
func (c *Core) PluginPid(id string) int { return c.plugins.rt.Pid(id) }
