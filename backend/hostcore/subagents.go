package hostcore

import (
	"context"
	"os"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

// The subagent definitions Settings, the CLI and (next) the delegate
// runtime read (issue 16). Definitions are read afresh on every call:
// they are a few small files, and an edit in an editor shows at once.

// SubagentCatalog loads the definitions a session rooted at projectRoot
// sees ("" = the builtin and user ones only).
func (c *Core) SubagentCatalog(ctx context.Context, projectRoot string) (subagent.Catalog, error) {
	profiles, err := c.profileRefs(ctx)
	if err != nil {
		return subagent.Catalog{}, err
	}
	return subagent.Load(ctx, subagent.Sources{DataDir: c.cfg.DataDir, Home: c.home(), ProjectRoot: projectRoot, Profiles: profiles,
		Plugins: c.pluginFolders(ctx, projectRoot)})
}

// ListSubagents lists every definition projectID's sessions see ("" = no
// project): in effect, overridden, over the limit and unusable.
func (c *Core) ListSubagents(ctx context.Context, projectID string) (api.SubagentList, error) {
	root := ""
	if projectID != "" {
		p, err := c.sessions.Project(ctx, projectID)
		if err != nil {
			return api.SubagentList{}, err
		}
		root = p.Path
	}
	return c.ListSubagentsIn(ctx, root)
}

// ListSubagentsIn is ListSubagents for a folder that need not be a
// registered project (the CLI's --workspace, which registers nothing).
func (c *Core) ListSubagentsIn(ctx context.Context, projectRoot string) (api.SubagentList, error) {
	cat, err := c.SubagentCatalog(ctx, projectRoot)
	if err != nil {
		return api.SubagentList{}, err
	}
	names, err := c.profileNames(ctx)
	if err != nil {
		return api.SubagentList{}, err
	}
	out := api.SubagentList{Subagents: make([]api.Subagent, 0, len(cat.Rows)), UserDir: subagent.UserDir(c.cfg.DataDir),
		ProjectRoot: projectRoot, Limit: subagent.MaxInEffect, WorkingTools: subagent.WorkingTools()}
	for _, r := range cat.Rows {
		out.Subagents = append(out.Subagents, apiSubagent(r, names))
	}
	return out, nil
}

// SaveSubagent validates in and saves it as one of the app's own
// definitions; an invalid one fails with SUBAGENT_INVALID and the reason.
func (c *Core) SaveSubagent(ctx context.Context, in api.SubagentInput) (api.Subagent, error) {
	profiles, err := c.profileRefs(ctx)
	if err != nil {
		return api.Subagent{}, err
	}
	d := subagent.Draft{Name: in.Name, Description: in.Description, Tools: in.Tools, Model: in.Model,
		Permission: subagent.Permission(in.Permission), MaxTurns: in.MaxTurns, Prompt: in.Prompt}
	if d.Permission == "" {
		d.Permission = subagent.PermissionInherit
	}
	def, err := subagent.Save(ctx, c.cfg.DataDir, d, in.Replaces, profiles)
	if err != nil {
		return api.Subagent{}, err
	}
	names, err := c.profileNames(ctx)
	if err != nil {
		return api.Subagent{}, err
	}
	return apiSubagent(subagent.Row{Definition: def, State: subagent.StateEffective, Editable: true}, names), nil
}

// DeleteSubagent removes one of the app's own definitions.
func (c *Core) DeleteSubagent(ctx context.Context, name string) error {
	return subagent.Delete(c.cfg.DataDir, name)
}

// home is the user's home folder for ~/.agents/subagents ("" = none).
func (c *Core) home() string {
	if c.cfg.Home != "" {
		return c.cfg.Home
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return ""
	}
	return home
}

// profileRefs are the saved providers in the order the user sees them.
func (c *Core) profileRefs(ctx context.Context) ([]subagent.ProfileRef, error) {
	list, err := c.providers.List(ctx)
	if err != nil {
		return nil, err
	}
	refs := make([]subagent.ProfileRef, 0, len(list))
	for _, p := range list {
		refs = append(refs, subagent.ProfileRef{ID: p.ID, Name: p.Name, API: p.API, Model: p.Model})
	}
	return refs, nil
}

func (c *Core) profileNames(ctx context.Context) (map[string]string, error) {
	refs, err := c.profileRefs(ctx)
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(refs))
	for _, r := range refs {
		names[r.ID] = r.Name
	}
	return names, nil
}

// apiSubagent copies the lists, so an empty one is [] on the wire, never null.
func apiSubagent(r subagent.Row, profileNames map[string]string) api.Subagent {
	return api.Subagent{
		Name: r.Name, Source: string(r.Source), State: string(r.State), Path: r.Path, Editable: r.Editable, Error: r.Error,
		Description: r.Description, Tools: append([]string{}, r.Tools.Names...), Inherit: r.Tools.Inherit, ExcludedTools: append([]string{}, r.Tools.Exclude...),
		ToolsWritten: append([]string{}, r.Tools.Written...), Model: r.ModelSpec, ModelProfileID: r.Model, ModelProfileName: profileNames[r.Model],
		Permission: string(r.Permission), MaxTurns: r.MaxTurns, Prompt: r.Prompt, Warnings: append([]string{}, r.Warnings...),
		Overrides: r.Overrides, OverriddenBy: r.OverriddenBy,
	}
}
