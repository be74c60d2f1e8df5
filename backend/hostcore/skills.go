package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/skills"
)

// Skills (issue 18). They are looked up on each use (a turn's start, a
// Skill call, a path outside the session's folders) through the host's
// skills.Cache: an unchanged catalog costs a few stats, and an edit shows
// on the next use. Workspace paths never pay for them.

// skillSources are where a session rooted at project finds its skills:
// always the project path, never an isolated session's worktree (§4e).
func (c *Core) skillSources(ctx context.Context, project string, visualize bool) skills.Sources {
	return skills.Sources{DataDir: c.cfg.DataDir, Home: c.home(), ProjectRoot: project, Visualize: visualize,
		Plugins: skills.PluginList(c.pluginFolders(ctx, project))}
}

// SessionSkills loads the skills sessionID sees.
func (c *Core) SessionSkills(ctx context.Context, sessionID string) (skills.Set, error) {
	b, _, err := c.bind(ctx, sessionID)
	if err != nil {
		return skills.Set{}, err
	}
	settings, err := c.settings.Get(ctx)
	if err != nil {
		return skills.Set{}, err
	}
	return c.skillCache.Load(ctx, c.skillSources(ctx, b.Project, settings.InlineVisualizations))
}

// SkillsIn loads the skills of a folder that need not be a registered
// project (the CLI's --workspace, the composer's menu); "" = the builtin
// and user ones only.
func (c *Core) SkillsIn(ctx context.Context, projectRoot string) (skills.Set, error) {
	settings, err := c.settings.Get(ctx)
	if err != nil {
		return skills.Set{}, err
	}
	return c.skillCache.Load(ctx, c.skillSources(ctx, projectRoot, settings.InlineVisualizations))
}

// withSkillRoots re-resolves spelling, which landed outside the session's
// folders (or in the protected data folder), against a resolver that also
// knows the session's skill folders. It returns that resolver and result
// only when the path is in (or spelled into) a skill folder; otherwise
// ok is false and the first classification stands. A failure to load the
// skills leaves the path outside (it then needs a card): fail closed.
func (c *Core) withSkillRoots(ctx context.Context, b session.Binding, viz bool, spelling string) (*pathguard.Resolver, pathguard.Resolved, bool) {
	set, err := c.skillCache.Load(ctx, c.skillSources(ctx, b.Project, viz))
	if err != nil || len(set.Folders()) == 0 {
		return nil, pathguard.Resolved{}, false
	}
	roots := pathguard.Roots{Workspace: b.Workspace, Scratch: b.Scratch, Data: c.protectedData(), Skills: set.Folders()}
	if viz {
		roots.Visualization = b.Visualization
	}
	r, err := pathguard.New(roots, pathguard.Options{Roots: &c.roots})
	if err != nil {
		return nil, pathguard.Resolved{}, false
	}
	res, err := r.Resolve(spelling)
	if err != nil || (res.Root != pathguard.Skill && res.Lexical != pathguard.Skill) {
		return nil, pathguard.Resolved{}, false
	}
	return r, res, true
}

// skillRetry reports whether a resolution may be a skill folder's: outside
// every root, or refused as the data folder (<data dir>/skills/<name>).
func skillRetry(res pathguard.Resolved, err error) bool {
	if err != nil {
		return errs.CodeOf(err) == errs.PathProtected
	}
	return res.Root == pathguard.External
}

// Skills gives the agent the session's skills (agent.SkillSource).
func (h agentHost) Skills(ctx context.Context, sessionID string) (skills.Set, error) {
	return h.c.SessionSkills(ctx, sessionID)
}

// ListSkillsIn lists the skills a session in workspace sees ("" = the
// builtin and user ones only), with every problem, for the CLI and the
// composer's menu. The folder need not be a registered project.
func (c *Core) ListSkillsIn(ctx context.Context, workspace string) (api.SkillList, error) {
	set, err := c.SkillsIn(ctx, workspace)
	if err != nil {
		return api.SkillList{}, err
	}
	return skillList(set), nil
}

// ListSkills is ListSkillsIn for a project's path ("" = no project).
func (c *Core) ListSkills(ctx context.Context, projectID string) (api.SkillList, error) {
	root := ""
	if projectID != "" {
		p, err := c.sessions.Project(ctx, projectID)
		if err != nil {
			return api.SkillList{}, err
		}
		root = p.Path
	}
	return c.ListSkillsIn(ctx, root)
}

func skillList(set skills.Set) api.SkillList {
	out := api.SkillList{Skills: make([]api.SkillEntry, 0, len(set.Skills)), Problems: make([]api.SkillProblem, 0, len(set.Problems))}
	for _, k := range set.Skills {
		out.Skills = append(out.Skills, api.SkillEntry{Name: k.Name, Description: k.Description, Source: string(k.Source),
			Path: k.Path, UserOnly: k.DisableModelInvocation})
	}
	for _, p := range set.Problems {
		out.Problems = append(out.Problems, api.SkillProblem{Path: p.Path, Name: p.Name, Source: string(p.Source),
			Reason: string(p.Reason), Message: p.Message})
	}
	cat := skills.BuildCatalog(set.Skills, skills.CatalogBudget(provider.DefaultContextWindow))
	out.Listed, out.LeftOut = cat.Listed, cat.LeftOut
	return out
}
