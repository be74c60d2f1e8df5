package mcp

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/envpolicy"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

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
	Hooks  Hooks
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
	c := &Conn{proc: p, exited: make(chan struct{}),
		// A pump blocked on a stdout nobody reads would hold Wait forever.
		closers: []func(){func() { _ = stdoutR.Close() }}}
	go func() {
		_, _ = p.Wait()
		// The SDK reads until EOF: give it one once nothing can write.
		_ = stdoutW.Close()
		close(c.exited)
	}()

	connectCtx, cancel := context.WithTimeout(ctx, s.EffectiveConnectTimeout())
	defer cancel()
	session, err := c.newClient(o.Hooks).Connect(connectCtx, &sdk.IOTransport{Reader: stdoutR, Writer: p.Stdin()}, nil)
	if err != nil {
		cerr := c.handshakeError(ctx, connectCtx, s, err)
		_ = c.Close()
		return nil, cerr
	}
	c.session = session
	return c, nil
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
