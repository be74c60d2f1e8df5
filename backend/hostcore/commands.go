package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/slashcmd"
)

// Custom slash commands (issue 18). Like subagent definitions they are read
// afresh on every call: a few small files, and an edit shows at once.

// SlashCommandCatalog loads the commands a session rooted at projectRoot
// sees ("" = the user's only).
func (c *Core) SlashCommandCatalog(ctx context.Context, projectRoot string) (slashcmd.Catalog, error) {
	return slashcmd.Load(ctx, slashcmd.Sources{Home: c.home(), DataDir: c.cfg.DataDir, ProjectRoot: projectRoot,
		Plugins: c.pluginFolders(ctx, projectRoot)})
}

// sessionProjectRoot is the folder a session's project commands come from:
// its project's path, never an isolated session's worktree ("" for a
// temporary session).
func (c *Core) sessionProjectRoot(ctx context.Context, sessionID string) (string, error) {
	s, err := c.sessions.Get(ctx, sessionID)
	if err != nil {
		return "", err
	}
	if s.ProjectID == "" {
		return "", nil
	}
	p, err := c.sessions.Project(ctx, s.ProjectID)
	if err != nil {
		return "", err
	}
	return p.Path, nil
}

// ListSlashCommands lists every command file sessionID's composer sees:
// in effect, replaced and unusable.
func (c *Core) ListSlashCommands(ctx context.Context, sessionID string) (api.SlashCommandList, error) {
	root, err := c.sessionProjectRoot(ctx, sessionID)
	if err != nil {
		return api.SlashCommandList{}, err
	}
	return c.ListSlashCommandsIn(ctx, root)
}

// ListSlashCommandsIn is ListSlashCommands for a folder that need not be a
// registered project (the CLI's --workspace, which registers nothing).
func (c *Core) ListSlashCommandsIn(ctx context.Context, projectRoot string) (api.SlashCommandList, error) {
	cat, err := c.SlashCommandCatalog(ctx, projectRoot)
	if err != nil {
		return api.SlashCommandList{}, err
	}
	out := api.SlashCommandList{Commands: make([]api.SlashCommand, 0, len(cat.Rows))}
	for _, r := range cat.Rows {
		out.Commands = append(out.Commands, api.SlashCommand{Name: r.Name, Source: string(r.Source), State: string(r.State),
			Path: r.Path, Description: r.Description, ArgumentHint: r.ArgumentHint, Problems: append([]string{}, r.Problems...)})
	}
	return out, nil
}

// ExpandSlashCommand fills sessionID's command name with args: the prompt
// the composer then sends as typed text, so the transcript shows it
// expanded. An unknown or unusable name fails with SLASH_COMMAND_NOT_FOUND.
func (c *Core) ExpandSlashCommand(ctx context.Context, sessionID, name, args string) (api.SlashCommandExpansion, error) {
	root, err := c.sessionProjectRoot(ctx, sessionID)
	if err != nil {
		return api.SlashCommandExpansion{}, err
	}
	cat, err := c.SlashCommandCatalog(ctx, root)
	if err != nil {
		return api.SlashCommandExpansion{}, err
	}
	cmd, ok := cat.Lookup(name)
	if !ok {
		return api.SlashCommandExpansion{}, errs.New(errs.SlashCommandNotFound,
			"no usable custom command /%s for this session; run pi-desktop commands list --workspace <project> to see the commands and why a file is not used", name).
			With("name", name)
	}
	return api.SlashCommandExpansion{Name: cmd.Name, Prompt: slashcmd.Expand(cmd.Template, args)}, nil
}

// RequestCompaction asks for sessionID's context to be compacted at its
// next request boundary, as the new_context tool does (the composer's
// /compact).
func (c *Core) RequestCompaction(ctx context.Context, sessionID string) error {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return err
	}
	c.agent.RequestCompaction(sessionID)
	return nil
}
