package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/envpolicy"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// clientInfo is how PI-Desktop introduces itself in the MCP handshake (a
// fresh value each time: the SDK keeps the pointer).
func clientInfo() *sdk.Implementation { return &sdk.Implementation{Name: "pi-desktop", Version: "0"} }

// exitGrace is how long a failed handshake waits for the process to show
// that it exited, so "the server died" is told apart from "it spoke garbage".
const exitGrace = 200 * time.Millisecond

// StdioOptions is what the host decides about a stdio server's process: the
// definition says what to run, the host with which environment and where.
type StdioOptions struct {
	// BaseEnv is the environment after the Bash tool's policy, with the
	// login-shell PATH; the server's own Env is laid over it.
	BaseEnv []string
	// Dir is the working directory, the server's Cwd resolved against the
	// project by the caller ("" = the host's).
	Dir string
	// RunnerExe is the binary that dispatches proc.RunnerArg ("" = this one).
	RunnerExe string
	// Stderr receives the server's stderr (a bounded per-server log); nil
	// discards it. It must be safe for use from another goroutine.
	Stderr io.Writer
}

// Conn is a live MCP session with a server. For a stdio server the host
// owns the server's whole process tree: Close ends it.
type Conn struct {
	session *sdk.ClientSession
	proc    *proc.Process
	stdout  *io.PipeReader
	exited  chan struct{} // closed once the process tree is gone

	closeOnce sync.Once
	closeErr  error
}

// ConnectStdio starts s's command in an owned process tree and completes
// the MCP handshake over its stdin and stdout within s's connect timeout.
// Errors: INVALID_ARGUMENT for a bad definition, MCP_SERVER_UNAVAILABLE when
// the command cannot start or exits, MCP_CONNECT_TIMEOUT, and
// MCP_PROTOCOL_ERROR when it answers with something other than MCP.
func ConnectStdio(ctx context.Context, s Server, o StdioOptions) (*Conn, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Transport != TransportStdio {
		return nil, errs.New(errs.InvalidArgument, "MCP server %q uses the %s transport, not stdio", s.ID, s.Transport).With("server", s.ID)
	}
	stdoutR, stdoutW := io.Pipe()
	// The tree outlives the connect context: only Close (or the host's
	// death, which the runner notices) ends it.
	p, err := proc.Start(context.Background(), proc.Spec{
		Path: s.Command, Args: s.Args, Dir: o.Dir, Env: mergeEnv(o.BaseEnv, s.Env),
		Stdout: stdoutW, Stderr: o.Stderr, RunnerExe: o.RunnerExe, StdinPipe: true,
	})
	if errors.Is(err, proc.ErrResourceExhausted) {
		return nil, errs.Wrap(err, errs.ProcessResourceExhausted,
			"the OS is out of process resources; MCP server %q could not start, retry once other commands have ended", s.ID).With("server", s.ID).With("retriable", true)
	} else if err != nil {
		return nil, errs.Wrap(err, errs.MCPServerUnavailable,
			"MCP server %q could not start %q; check that the command is installed and on the PATH", s.ID, s.Command).With("server", s.ID)
	}
	c := &Conn{proc: p, stdout: stdoutR, exited: make(chan struct{})}
	go func() {
		_, _ = p.Wait()
		// The SDK reads until EOF: give it one once nothing can write.
		_ = stdoutW.Close()
		close(c.exited)
	}()

	connectCtx, cancel := context.WithTimeout(ctx, s.EffectiveConnectTimeout())
	defer cancel()
	client := sdk.NewClient(clientInfo(), nil)
	session, err := client.Connect(connectCtx, &sdk.IOTransport{Reader: stdoutR, Writer: p.Stdin()}, nil)
	if err != nil {
		cerr := c.handshakeError(ctx, connectCtx, s, err)
		_ = c.Close()
		return nil, cerr
	}
	c.session = session
	return c, nil
}

// handshakeError names why the handshake failed, in the order a user can
// act on: the caller gave up, the server died, it was too slow, or it is
// not an MCP server.
func (c *Conn) handshakeError(ctx, connectCtx context.Context, s Server, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	select {
	case <-c.exited:
	case <-time.After(exitGrace):
	}
	select {
	case <-c.exited:
		code, _ := c.proc.Wait()
		return errs.Wrap(err, errs.MCPServerUnavailable,
			"MCP server %q exited (status %d) before the MCP handshake; see its log for the reason", s.ID, code).With("server", s.ID)
	default:
	}
	if errors.Is(connectCtx.Err(), context.DeadlineExceeded) {
		return errs.Wrap(err, errs.MCPConnectTimeout,
			"MCP server %q did not complete the MCP handshake within %s; check its log, or raise its connect timeout", s.ID, s.EffectiveConnectTimeout()).With("server", s.ID)
	}
	return errs.Wrap(err, errs.MCPProtocolError,
		"MCP server %q did not answer the MCP handshake correctly; check that the command starts an MCP server speaking on stdio", s.ID).With("server", s.ID)
}

// Tools lists every tool the server offers, following pagination.
func (c *Conn) Tools(ctx context.Context) ([]*sdk.Tool, error) {
	var tools []*sdk.Tool
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, c.callError(err, "list its tools")
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// CallTool calls one tool by the server's own name. A result with IsError
// set is a result, not an error: the caller reports it as the tool's
// failure with the server's message.
func (c *Conn) CallTool(ctx context.Context, name string, args map[string]any) (*sdk.CallToolResult, error) {
	res, err := c.session.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, c.callError(err, fmt.Sprintf("call %q", name))
	}
	return res, nil
}

func (c *Conn) callError(err error, what string) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	select {
	case <-c.exited:
		return errs.Wrap(err, errs.MCPServerUnavailable, "the MCP server is no longer running; it could not %s", what)
	default:
	}
	if errors.Is(err, sdk.ErrConnectionClosed) {
		return errs.Wrap(err, errs.MCPServerUnavailable, "the connection to the MCP server is closed; it could not %s", what)
	}
	return errs.Wrap(err, errs.MCPProtocolError, "the MCP server failed to %s: %v", what, err)
}

// Pid is the process id of the server's command.
func (c *Conn) Pid() int { return c.proc.Pid() }

// Exited is closed once the server's process tree is gone, whether it
// exited by itself or Close ended it.
func (c *Conn) Exited() <-chan struct{} { return c.exited }

// Close ends the session and the server's whole process tree, and returns
// once no process of it is left. It is idempotent.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		if c.session != nil {
			// Closing stdin is the MCP way to ask a stdio server to stop;
			// the tree is killed right after whatever it does.
			_ = c.session.Close()
		}
		_ = c.proc.Kill()
		// A pump blocked on a stdout nobody reads would hold Wait forever.
		_ = c.stdout.Close()
		<-c.exited
		_, err := c.proc.Wait()
		c.closeErr = closeProblem(err)
	})
	return c.closeErr
}

// closeProblem keeps what Close should report of the tree's end: neither
// the kill Close asked for nor output lost because Close stopped reading,
// only processes of the tree that outlived the kill.
func closeProblem(err error) error {
	if errors.Is(err, proc.ErrSurvivors) {
		return err
	}
	return nil
}

// mergeEnv lays the server's env over base: a server variable replaces a
// base entry of the same name (compared as the OS compares them), since the
// runner hands the list to exec as it is and duplicates resolve differently
// per platform.
func mergeEnv(base []string, over map[string]string) []string {
	same := func(a, b string) bool { return a == b }
	if runtime.GOOS == "windows" {
		same = strings.EqualFold
	}
	out := make([]string, 0, len(base)+len(over))
	for _, kv := range base {
		name := envpolicy.Name(kv)
		replaced := false
		for k := range over {
			if same(k, name) {
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, kv)
		}
	}
	for _, k := range sortedKeys(over) {
		out = append(out, k+"="+over[k])
	}
	return out
}
