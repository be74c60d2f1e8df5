package desktop

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"maps"
	"path/filepath"
	"slices"
	"sync"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
)

// Plugins is Settings → Plugins (issue 22): the installed plugins, what
// each contributes, and install or update from a .piplug or a folder
// through a consent card shown before anything is installed or runs.
type Plugins struct {
	h Handle

	mu     sync.Mutex
	staged map[string]*plugin.Staged // token → a plugin checked and staged, awaiting the card's answer
}

// List returns the installed plugins by id.
func (p *Plugins) List() ([]api.Plugin, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) ([]api.Plugin, error) {
		list, err := c.Plugins(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]api.Plugin, 0, len(list))
		for _, x := range list {
			out = append(out, api.Plugin{Summary: apiPluginSummary(x.Summary), Path: x.Path, Enabled: x.Enabled,
				Consented: x.Consented, Changed: x.Changed, Running: x.Running, Projects: apiPluginProjects(x.Projects)})
		}
		return out, nil
	})
}

// Stage asks for a .piplug file (kind "file") or a plugin folder (kind
// "folder"), checks it and stages it: the result is the consent card,
// nothing is installed yet. Cancelled when the user closed the dialog.
func (p *Plugins) Stage(kind string) (api.PluginStaged, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (api.PluginStaged, error) {
		src, err := p.choose(kind)
		if err != nil || src == "" {
			return api.PluginStaged{Cancelled: src == ""}, err
		}
		return p.stage(ctx, c, src)
	})
}

// StageFile checks and stages the .piplug at path, as Stage does for a
// chosen file: what a file manager (or a second start) handed the app to
// open. Only an absolute path to a regular .piplug file is taken.
func (p *Plugins) StageFile(path string) (api.PluginStaged, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (api.PluginStaged, error) {
		if r := ClassifyOpen(path, "/"); !filepath.IsAbs(path) || r.Kind != api.OpenPlugin {
			return api.PluginStaged{}, errs.New(errs.InvalidArgument, "%q is not a .piplug file; choose one in Settings → Plugins", path).With("field", "path")
		}
		return p.stage(ctx, c, path)
	})
}

// stage checks src and keeps it staged under a new token: the consent card.
func (p *Plugins) stage(ctx context.Context, c *hostcore.Core, src string) (api.PluginStaged, error) {
	s, err := c.StagePlugin(ctx, src)
	if err != nil {
		return api.PluginStaged{}, err
	}
	out := api.PluginStaged{Summary: apiPluginSummary(s.Summary())}
	if list, err := c.Plugins(ctx); err == nil {
		for _, x := range list {
			if x.ID == s.Manifest.ID {
				out.InstalledVersion = x.Version
				out.Unchanged = x.Consented && x.Hash == s.Hash
			}
		}
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	out.Token = hex.EncodeToString(b[:])
	p.mu.Lock()
	if p.staged == nil {
		p.staged = map[string]*plugin.Staged{}
	}
	p.staged[out.Token] = s
	p.mu.Unlock()
	return out, nil
}

func (p *Plugins) choose(kind string) (string, error) {
	if path := pluginSource(); path != "" {
		return path, nil
	}
	win := p.h.Window()
	if win == nil {
		return "", errs.New(errs.Internal, "the window is not ready yet; try again")
	}
	switch kind {
	case "folder":
		return wruntime.OpenDirectoryDialog(win, wruntime.OpenDialogOptions{Title: "Install a plugin folder"})
	case "file":
		return wruntime.OpenFileDialog(win, wruntime.OpenDialogOptions{Title: "Install a plugin",
			Filters: []wruntime.FileFilter{{DisplayName: "PI-Desktop plugin (*" + plugin.ArchiveExt + ")", Pattern: "*" + plugin.ArchiveExt}}})
	}
	return "", errs.New(errs.InvalidArgument, "kind %q is neither \"file\" nor \"folder\"", kind).With("field", "kind")
}

func (p *Plugins) take(token string) (*plugin.Staged, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.staged[token]
	if s == nil {
		return nil, errs.New(errs.NotFound, "that plugin is no longer staged; choose the file or folder again")
	}
	delete(p.staged, token)
	return s, nil
}

// InstallStaged installs a staged plugin; consent records the user's
// consent to exactly what the card showed (without it an earlier consent
// counts only if nothing changed, and the plugin runs nothing).
func (p *Plugins) InstallStaged(token string, consent bool) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error {
		s, err := p.take(token)
		if err != nil {
			return err
		}
		_, err = c.InstallPlugin(ctx, s, consent)
		return err
	})
}

// DiscardStaged drops a staged plugin the user declined.
func (p *Plugins) DiscardStaged(token string) error {
	s, err := p.take(token)
	if err != nil {
		return nil // already gone: nothing to discard
	}
	s.Discard()
	return nil
}

// Consent consents to an installed plugin as the card showed it (hash).
func (p *Plugins) Consent(id, hash string) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error { return c.ConsentPlugin(ctx, id, hash) })
}

// SetEnabled turns a plugin on or off app-wide; off removes every
// contribution and stops its processes.
func (p *Plugins) SetEnabled(id string, enabled bool) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error { return c.SetPluginEnabled(ctx, id, "", enabled) })
}

// SetProjectEnabled sets a plugin's state in one project: "on" or "off"
// there whatever the app-wide switch says, or "app" to drop the project's
// own choice and follow the app-wide switch again. It applies at once to
// the project's sessions; off stops the plugin's processes.
func (p *Plugins) SetProjectEnabled(id, projectID, state string) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error {
		if projectID == "" {
			return errs.New(errs.InvalidArgument, "no project given; to switch plugin %q for every project use its \"Enabled app-wide\" switch in Settings → Plugins", id).
				With("field", "projectId")
		}
		switch state {
		case api.PluginProjectOn, api.PluginProjectOff:
			return c.SetPluginEnabled(ctx, id, projectID, state == api.PluginProjectOn)
		case api.PluginProjectApp:
			return c.ClearPluginProject(ctx, id, projectID)
		}
		return errs.New(errs.InvalidArgument, "state %q is none of %q, %q or %q (follow the app-wide switch); choose one of those",
			state, api.PluginProjectOn, api.PluginProjectOff, api.PluginProjectApp).With("field", "state")
	})
}

// Remove uninstalls a plugin.
func (p *Plugins) Remove(id string) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error { return c.RemovePlugin(ctx, id) })
}

// Log is the kept stderr of a plugin's process (bounded).
func (p *Plugins) Log(id string) (string, error) {
	return with(p.h, func(_ context.Context, c *hostcore.Core) (string, error) { return c.PluginLog(id), nil })
}

func apiPluginSummary(s plugin.Summary) api.PluginSummary {
	out := api.PluginSummary{ID: s.ID, Name: s.Name, Version: s.Version, Description: s.Description, Author: s.Author,
		Permissions: nonNil(s.Permissions), Command: s.Command, Args: nonNil(s.Args), Tools: []api.PluginTool{},
		Skills: nonNil(s.Skills), Subagents: nonNil(s.Subagents), Commands: nonNil(s.Commands), MCPServers: []api.PluginServer{},
		Warnings: nonNil(s.Warnings), Files: s.Files, Hash: s.Hash}
	for _, t := range s.Tools {
		out.Tools = append(out.Tools, api.PluginTool{Name: t.Name, ModelName: t.ModelName, Risk: t.Risk,
			PlanSafeActions: nonNil(t.PlanSafeActions), Description: t.Description})
	}
	for _, sv := range s.MCPServers {
		out.MCPServers = append(out.MCPServers, api.PluginServer{ID: sv.ID, Transport: sv.Transport, Command: sv.Command,
			Args: nonNil(sv.Args), URL: sv.URL})
	}
	return out
}

// apiPluginProjects are the projects' own choices, by project id.
func apiPluginProjects(m map[string]bool) []api.PluginProject {
	out := make([]api.PluginProject, 0, len(m))
	for _, id := range slices.Sorted(maps.Keys(m)) {
		out = append(out, api.PluginProject{ProjectID: id, Enabled: m[id]})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
