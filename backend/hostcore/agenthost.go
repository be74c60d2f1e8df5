package hostcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
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
		Turn:  call.Turn, BatchSize: call.BatchSize,
		Delegate: call.Delegate, DelegationID: call.DelegationID, PermissionOverride: call.PermissionOverride,
		AllowedTools: call.AllowedTools,
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
	settings, err := h.c.settings.Get(ctx)
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

// Tools are the registered tools mode offers up front, in registration
// order: those the policy does not refuse in mode, without the on-demand
// ones, and ToolSearch only where the mode has on-demand tools to load.
func (h agentHost) Tools(mode string) []agent.OfferedTool {
	// Tools knows no session, so the builtins decide alone: every mode that
	// allows MCP tools (Agent) has BashOutput and BashStop on demand too.
	onDemand := len(h.builtinDeferred(mode)) > 0
	var out []agent.OfferedTool
	for _, name := range h.c.registry.Names() {
		t, _ := h.c.registry.Lookup(name)
		s := t.Spec()
		if s.Deferred || (s.Loader && !onDemand) || !permission.Offered(specInput(s, mode)) {
			continue
		}
		out = append(out, agent.OfferedTool{Def: toolDef(s), Parallel: s.Parallel, Exclusive: s.Exclusive})
	}
	return out
}

func toolDef(s tools.Spec) provider.ToolDef {
	return provider.ToolDef{Name: s.Name, Description: s.Description, Schema: s.Schema}
}

// Deferred is the session's on-demand catalog in mode: the builtin ones,
// then the session's MCP tools (mcpDeferred), then its plugins' tools
// (pluginDeferred).
func (h agentHost) Deferred(ctx context.Context, sessionID, mode string) []agent.DeferredTool {
	return append(append(h.builtinDeferred(mode), h.c.mcpDeferred(ctx, sessionID, mode)...), h.c.pluginDeferred(ctx, sessionID, mode)...)
}

// builtinDeferred is mode's on-demand catalog of registered tools: those
// marked deferred (the builtin BashOutput and BashStop, and the seam for
// plugin tools), in registration order, without those the policy
// hard-denies in mode (a plugin tool without plan-safe actions in Plan).
func (h agentHost) builtinDeferred(mode string) []agent.DeferredTool {
	var out []agent.DeferredTool
	for _, name := range h.c.registry.Names() {
		t, _ := h.c.registry.Lookup(name)
		s := t.Spec()
		if !s.Deferred {
			continue
		}
		if !permission.Offered(specInput(s, mode)) {
			continue
		}
		summary := s.Summary
		if summary == "" {
			summary = s.Description
		}
		out = append(out, agent.DeferredTool{Name: s.Name, Summary: summary, Def: toolDef(s), Parallel: s.Parallel})
	}
	return out
}

// WriteArtifact stores a Plan/Goal document byte for byte in a new file
// .pi/<kind>/<slug>-<n>.md of the session's workspace. It goes through an
// os.Root (nothing leaves the workspace), refuses a .pi or .pi/<kind> that
// is a link, and creates the file with O_EXCL, so an existing file or link
// is never written through: the next free n is taken instead.
func (h agentHost) WriteArtifact(ctx context.Context, sessionID, kind, title string, markdown []byte) (agent.Artifact, error) {
	if kind != api.ModePlan && kind != api.ModeGoal {
		return agent.Artifact{}, errs.New(errs.InvalidArgument, "artifact kind must be plan or goal, not %q", kind)
	}
	b, err := h.c.sessions.Bind(ctx, sessionID)
	if err != nil {
		return agent.Artifact{}, err
	}
	if b.Temporary {
		return agent.Artifact{}, errs.New(errs.WorkspaceRequired, "a %s is saved in the project's .pi/%s folder, and this temporary session has no project", kind, kind)
	}
	root, err := os.OpenRoot(b.Workspace)
	if err != nil {
		return agent.Artifact{}, errs.Wrap(err, errs.ToolFailed, "cannot open the workspace %s to save the %s", b.Workspace, kind)
	}
	defer root.Close()
	dir := filepath.Join(".pi", kind)
	for _, d := range []string{".pi", dir} {
		fi, err := root.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := root.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return agent.Artifact{}, errs.Wrap(err, errs.ToolFailed, "cannot create the folder %s in the workspace", filepath.ToSlash(d))
			}
			if fi, err = root.Lstat(d); err != nil {
				return agent.Artifact{}, errs.Wrap(err, errs.ToolFailed, "cannot inspect the folder %s in the workspace", filepath.ToSlash(d))
			}
		case err != nil:
			return agent.Artifact{}, errs.Wrap(err, errs.ToolFailed, "cannot inspect the folder %s in the workspace", filepath.ToSlash(d))
		}
		if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
			return agent.Artifact{}, errs.New(errs.PathOutsideWorkspace, "%s in the workspace is not a plain folder (a file or a link); move it away so the %s can be saved there", filepath.ToSlash(d), kind).
				With("path", filepath.ToSlash(d))
		}
	}
	sum := sha256.Sum256(markdown)
	slug := artifactSlug(title, kind)
	for n := 1; n <= 10000; n++ {
		name := filepath.Join(dir, fmt.Sprintf("%s-%d.md", slug, n))
		f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return agent.Artifact{}, errs.Wrap(err, errs.ToolFailed, "cannot create %s in the workspace", filepath.ToSlash(name))
		}
		_, werr := f.Write(markdown)
		if werr == nil {
			werr = f.Sync()
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = root.Remove(name)
			return agent.Artifact{}, errs.Wrap(werr, errs.ToolFailed, "cannot write %s in the workspace; check free disk space", filepath.ToSlash(name))
		}
		return agent.Artifact{Path: filepath.ToSlash(name), AbsPath: filepath.Join(b.Workspace, name),
			SHA256: hex.EncodeToString(sum[:]), Size: int64(len(markdown))}, nil
	}
	return agent.Artifact{}, errs.New(errs.Conflict, "no free file name for %q in .pi/%s; remove old files there", slug, kind)
}

// artifactSlug is a file-name-safe form of a title: lower-case ASCII
// letters and digits joined by dashes, at most 48 characters.
func artifactSlug(title, kind string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= 48 {
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return kind
	}
	return b.String()
}

// Configure switches the session's operating mode for a runtime tool (Enter*
// or an approved proposal), refusing with CONFLICT when the durable mode is
// no longer change.From, and announces the change (sessions:changed).
func (h agentHost) Configure(ctx context.Context, sessionID string, change agent.ModeChange) error {
	s, err := h.c.sessions.Get(ctx, sessionID)
	if err != nil {
		return err
	}
	if s.OperatingMode != change.From {
		return errs.New(errs.Conflict, "the session is in %s mode, not %s; nothing was changed", s.OperatingMode, change.From).
			With("operatingMode", s.OperatingMode)
	}
	// ConfigureSession announces it: the UI's mode selector and permission
	// chip read the session.
	_, err = h.c.ConfigureSession(ctx, sessionID, api.SessionConfig{OperatingMode: change.To, PermissionMode: change.PermissionMode})
	return err
}

// providerFor returns the model provider of a session: the host's injected
// one (tests), else the session's chosen provider, else the default one,
// else the environment's (PI_DESKTOP_PROVIDER, … : headless use and tests).
func (c *Core) providerFor(sessionID string) (provider.Provider, error) {
	if c.cfg.Provider != nil {
		return c.cfg.Provider(sessionID)
	}
	ctx := context.Background()
	p, ok, err := c.providers.ForSession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	if ok {
		cfg, err := c.providers.Config(ctx, p)
		if err != nil {
			return nil, err
		}
		return provider.New(cfg)
	}
	cfg, set := provider.ConfigFromEnv(os.Getenv)
	if set && cfg.API != "" {
		// A key saved by an older version under the API style's name.
		if cfg, err = cfg.WithStoredKey(c.keys); err != nil {
			return nil, err
		}
	}
	return provider.New(cfg) // MODEL_NOT_CONFIGURED when nothing is set
}

// StartTurn checks that a turn can start (no turn running, a model
// configured) and runs it in the background: its progress and outcome
// arrive as agent:* events. Errors that prevent the turn are returned at
// once, so the composer keeps the text.
func (c *Core) StartTurn(ctx context.Context, sessionID, prompt string) error {
	return c.startTurnWithTools(ctx, sessionID, prompt, nil)
}

// startTurnWithTools is StartTurn with on-demand tools loaded for this
// prompt (names from resolveMCPSelection).
func (c *Core) startTurnWithTools(ctx context.Context, sessionID, prompt string, names []string) error {
	return c.startTurn(ctx, sessionID, prompt, agent.RunOptions{Preload: names})
}

// startTurn opens a turn with the prompt's options (tools to preload,
// attachments already verified) and runs it in the background.
func (c *Core) startTurn(ctx context.Context, sessionID, prompt string, opts agent.RunOptions) error {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return err
	}
	if c.agent.Running(sessionID) {
		return errs.New(errs.AgentBusy, "a turn is already running in this session; wait for it or press Stop")
	}
	if _, err := c.providerFor(sessionID); err != nil {
		return err
	}
	if !c.enter() {
		return errs.New(errs.ToolAborted, "PI-Desktop is shutting down")
	}
	c.titleFromPrompt(ctx, sessionID, prompt)
	go func() {
		defer c.life.calls.Done()
		// The turn belongs to the host, not to the call that started it.
		if _, err := c.agent.RunWith(context.WithoutCancel(ctx), sessionID, prompt, opts); err != nil {
			c.log.Info("turn ended", "session", sessionID, "code", errs.CodeOf(err))
		}
		c.EndTurn(ctx, sessionID, "")
	}()
	return nil
}
