package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// clientInfo is how PI-Desktop introduces itself in the MCP handshake (a
// fresh value each time: the SDK keeps the pointer).
func clientInfo() *sdk.Implementation { return &sdk.Implementation{Name: "pi-desktop", Version: "0"} }

// Hooks are what a connection reports of the server's own initiative. Each
// is called from the SDK's reading goroutine and must not block.
type Hooks struct {
	// ToolsChanged is called when the server sends tools/list_changed.
	ToolsChanged func()
}

// Progress is one progress notification of a running call.
type Progress struct {
	Progress float64
	Total    float64 // 0 = unknown
	Message  string
}

// Conn is a live MCP session with a server, over any transport. For a
// stdio server the host owns the server's whole process tree: Close ends
// it.
type Conn struct {
	session *sdk.ClientSession
	proc    *proc.Process // nil unless stdio
	closers []func()      // run by Close after the session and the tree end
	exited  chan struct{} // closed once the server is gone (process tree or session)

	progressSeq atomic.Int64
	progress    sync.Map // progress token (string) → func(Progress)

	closeOnce sync.Once
	closeErr  error
}

// newClient builds the SDK client of c, routing its notifications.
func (c *Conn) newClient(h Hooks) *sdk.Client {
	opts := &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			token := fmt.Sprint(req.Params.ProgressToken)
			if f, ok := c.progress.Load(token); ok {
				f.(func(Progress))(Progress{Progress: req.Params.Progress, Total: req.Params.Total, Message: req.Params.Message})
			}
		},
	}
	if h.ToolsChanged != nil {
		opts.ToolListChangedHandler = func(context.Context, *sdk.ToolListChangedRequest) { h.ToolsChanged() }
	}
	return sdk.NewClient(clientInfo(), opts)
}

// ConnectTransport completes the MCP handshake with s over t within s's
// connect timeout: the way in for any transport the SDK has, and for
// servers in this process (tests). The connection ends when the session
// does.
func ConnectTransport(ctx context.Context, s Server, t sdk.Transport, h Hooks) (*Conn, error) {
	return connectSession(ctx, s, t, h, &Conn{exited: make(chan struct{})}, nil)
}

// connectSession is ConnectTransport for a c that may hold closers already;
// explain (may be nil, or return nil) names a failed handshake from what
// the transport saw (an HTTP status, a refused connection) before the
// generic reasons.
func connectSession(ctx context.Context, s Server, t sdk.Transport, h Hooks, c *Conn, explain func() error) (*Conn, error) {
	connectCtx, cancel := context.WithTimeout(ctx, s.EffectiveConnectTimeout())
	defer cancel()
	session, err := c.newClient(h).Connect(connectCtx, t, nil)
	if err != nil {
		close(c.exited)
		for _, f := range c.closers {
			f()
		}
		if ctx.Err() == nil && explain != nil {
			if e := explain(); e != nil {
				return nil, e
			}
		}
		return nil, c.handshakeError(ctx, connectCtx, s, err)
	}
	c.session = session
	go func() {
		_ = session.Wait()
		close(c.exited)
	}()
	return c, nil
}

// handshakeError names why the handshake failed, in the order a user can
// act on: the caller gave up, the server died, it was too slow, or it is
// not an MCP server.
func (c *Conn) handshakeError(ctx, connectCtx context.Context, s Server, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if c.proc != nil {
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
	}
	if errors.Is(connectCtx.Err(), context.DeadlineExceeded) {
		return errs.Wrap(err, errs.MCPConnectTimeout,
			"MCP server %q did not complete the MCP handshake within %s; check its log, or raise its connect timeout", s.ID, s.EffectiveConnectTimeout()).With("server", s.ID)
	}
	return errs.Wrap(err, errs.MCPProtocolError,
		"MCP server %q did not answer the MCP handshake correctly; check that it is an MCP server speaking the %s transport", s.ID, s.Transport).With("server", s.ID)
}

// Session is the SDK session, for what this package does not wrap
// (resources, prompts).
func (c *Conn) Session() *sdk.ClientSession { return c.session }

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

// CallTool calls one tool by the server's own name; onProgress (may be nil)
// receives the call's progress notifications. A result with IsError set is
// a result, not an error: the caller reports it as the tool's failure with
// the server's message. Cancelling ctx sends notifications/cancelled.
// args is a map or the JSON object's bytes (json.RawMessage, sent as they
// are: the host holds validated bytes and need not decode them to encode
// them again); nil sends {}.
func (c *Conn) CallTool(ctx context.Context, name string, args any, onProgress func(Progress)) (*sdk.CallToolResult, error) {
	if noArguments(args) {
		// "arguments": null is refused by servers that validate it.
		args = json.RawMessage("{}")
	}
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	if onProgress != nil {
		token := "pi-" + strconv.FormatInt(c.progressSeq.Add(1), 10)
		c.progress.Store(token, onProgress)
		defer c.progress.Delete(token)
		params.SetProgressToken(token)
	}
	res, err := c.session.CallTool(ctx, params)
	if err != nil {
		return nil, c.callError(err, fmt.Sprintf("call %q", name))
	}
	return res, nil
}

func (c *Conn) callError(err error, what string) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	// The transport's own verdict (a sign-in that expired mid-session).
	if e := errs.As(err); e != nil && e.Code == errs.MCPAuthRequired {
		return e
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

// Pid is the process id of a stdio server's command; 0 for other transports.
func (c *Conn) Pid() int {
	if c.proc == nil {
		return 0
	}
	return c.proc.Pid()
}

// Exited is closed once the server is gone: a stdio server's process tree
// (whether it exited by itself or Close ended it), another transport's
// session.
func (c *Conn) Exited() <-chan struct{} { return c.exited }

// Close ends the session and, for stdio, the server's whole process tree,
// and returns once no process of it is left. It is idempotent.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		if c.session != nil {
			// Closing stdin is the MCP way to ask a stdio server to stop;
			// the tree is killed right after whatever it does. Over HTTP
			// it ends the server's session.
			_ = c.session.Close()
		}
		if c.proc != nil {
			_ = c.proc.Kill()
		}
		for _, f := range c.closers {
			f()
		}
		<-c.exited
		if c.proc != nil {
			_, err := c.proc.Wait()
			c.closeErr = closeProblem(err)
		}
	})
	return c.closeErr
}

// noArguments reports whether args would be sent as null.
func noArguments(args any) bool {
	switch v := args.(type) {
	case nil:
		return true
	case map[string]any:
		return v == nil
	case json.RawMessage:
		return len(v) == 0
	}
	return false
}
