package hostcore

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// instructionsMax bounds AGENTS.md / CLAUDE.md in the system prompt.
const instructionsMax = 32 << 10

// agentHost is host-core as the agent loop sees it: every tool call goes
// through Execute, so the loop never touches files, shells or git itself.
type agentHost struct{ c *Core }

func (h agentHost) Execute(ctx context.Context, call agent.ToolCall) tools.Result {
	return h.c.Execute(ctx, ToolRequest{
		SessionID: call.SessionID, TurnID: call.TurnID, ToolCallID: call.ToolCallID, MessageID: call.MessageID,
		PromptID: call.PromptID, Tool: call.Tool, Args: call.Args,
		Shell: tools.ShellPin{ID: call.ShellID, Dialect: call.ShellDialect},
	})
}

func (h agentHost) Abort(sessionID, toolCallID, tool string) bool {
	return h.c.Abort(sessionID, toolCallID, tool)
}

func (h agentHost) Binding(ctx context.Context, sessionID string) (agent.SessionInfo, error) {
	b, _, err := h.c.bind(ctx, sessionID)
	if err != nil {
		return agent.SessionInfo{}, err
	}
	settings, err := h.c.Settings.Get(ctx)
	if err != nil {
		return agent.SessionInfo{}, err
	}
	info := agent.SessionInfo{Workspace: b.Workspace, Scratch: b.Scratch, OperatingMode: b.Session.OperatingMode,
		Temporary: b.Temporary, Platform: h.c.cfg.GOOS}
	if settings.InlineVisualizations {
		info.Visualization = b.Visualization
	}
	entry := shells.Effective(settings.DefaultCommandShell, h.c.cfg.Shells)
	if sh, err := shells.Resolve(entry.ID, h.c.cfg.Shells); err == nil {
		info.ShellID, info.ShellDialect = sh.ID, sh.Dialect
	}
	return info, nil
}

// Instructions reads the workspace's AGENTS.md, else CLAUDE.md, through an
// os.Root so a link cannot lead it out of the workspace; bounded.
func (h agentHost) Instructions(ctx context.Context, sessionID string) (string, error) {
	b, _, err := h.c.bind(ctx, sessionID) // AGENTS.md comes from the worktree of an isolated session
	if err != nil {
		return "", err
	}
	root, err := os.OpenRoot(b.Workspace)
	if err != nil {
		return "", nil // no workspace folder yet (a fresh temporary session)
	}
	defer root.Close()
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		f, err := root.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", nil
		}
		data, err := io.ReadAll(io.LimitReader(f, instructionsMax+1))
		f.Close()
		if err != nil {
			return "", nil
		}
		text := string(data)
		if len(data) > instructionsMax {
			text = string(data[:instructionsMax]) + "\n[" + name + " truncated at 32 KB]"
		}
		return text, nil
	}
	return "", nil
}

func (h agentHost) Tools(mode string) []provider.ToolDef {
	var out []provider.ToolDef
	for _, name := range agent.ToolNames(mode) {
		if t, ok := h.c.registry.Lookup(name); ok {
			s := t.Spec()
			out = append(out, provider.ToolDef{Name: s.Name, Description: s.Description, Schema: s.Schema})
		}
	}
	return out
}

// providerFor returns the model provider of a session: the one configured
// for the host (tests inject one), else the environment's.
func (c *Core) providerFor(sessionID string) (provider.Provider, error) {
	if c.cfg.Provider != nil {
		return c.cfg.Provider(sessionID)
	}
	cfg, _ := provider.ConfigFromEnv(os.Getenv)
	return provider.New(cfg)
}

// StartTurn checks that a turn can start (no turn running, a model
// configured) and runs it in the background: its progress and outcome
// arrive as agent:* events. Errors that prevent the turn are returned at
// once, so the composer keeps the text.
func (c *Core) StartTurn(ctx context.Context, sessionID, prompt string) error {
	if _, err := c.Sessions.Get(ctx, sessionID); err != nil {
		return err
	}
	if c.Agent.Running(sessionID) {
		return errs.New(errs.AgentBusy, "a turn is already running in this session; wait for it or press Stop")
	}
	if _, err := c.providerFor(sessionID); err != nil {
		return err
	}
	if !c.enter() {
		return errs.New(errs.ToolAborted, "PI-Desktop is shutting down")
	}
	go func() {
		defer c.life.calls.Done()
		// The turn belongs to the host, not to the call that started it.
		if _, err := c.Agent.Run(context.WithoutCancel(ctx), sessionID, prompt); err != nil {
			c.log.Info("turn ended", "session", sessionID, "code", errs.CodeOf(err))
		}
	}()
	return nil
}
