package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// fakeServers are in-process SDK servers the manager dials by id through
// real in-memory transports: the seam is only the dial function.
type fakeServers struct {
	t *testing.T

	mu      sync.Mutex
	servers map[string]*sdk.Server
	// before, when set for an id, runs at the start of each dial: it may
	// block, fail or return a connection of its own.
	before map[string]func(ctx context.Context) error
	dials  map[string]int
	// deaf ids' dials ignore their context (a broken transport).
	deaf  map[string]bool
	conns map[string][]*mcp.Conn

	// cancelled receives the name of a tool whose handler saw its context
	// end (a notifications/cancelled or a closed session).
	cancelled chan string
}

func newFakeServers(t *testing.T) *fakeServers {
	return &fakeServers{t: t, servers: map[string]*sdk.Server{}, before: map[string]func(context.Context) error{},
		dials: map[string]int{}, deaf: map[string]bool{}, conns: map[string][]*mcp.Conn{}, cancelled: make(chan string, 16)}
}

// add creates server id offering the named tools (see handler).
func (f *fakeServers) add(id string, tools ...string) *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: id, Version: "1"}, nil)
	for _, name := range tools {
		addTool(srv, name, f.cancelled)
	}
	f.mu.Lock()
	f.servers[id] = srv
	f.mu.Unlock()
	return srv
}

// addTool adds a tool whose behaviour its name picks: "slow" runs until
// cancelled, "progress" reports progress twice then runs until cancelled,
// any other tool echoes its "text" argument.
func addTool(srv *sdk.Server, name string, cancelled chan<- string) {
	srv.AddTool(&sdk.Tool{Name: name, Description: "The " + name + " tool.", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			switch name {
			case "progress":
				for i := range 2 {
					_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
						ProgressToken: req.Params.GetProgressToken(), Progress: float64(i + 1), Total: 3, Message: fmt.Sprint("step ", i+1)})
				}
				fallthrough
			case "slow":
				<-ctx.Done()
				cancelled <- name
				return nil, ctx.Err()
			}
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: name + ": " + args.Text}}}, nil
		})
}

// def is an enabled definition of a fake server (the URL is never used).
func def(id string) mcp.Server {
	return mcp.Server{ID: id, Transport: mcp.TransportHTTP, URL: "http://" + id + ".invalid/mcp", Enabled: true}
}

func (f *fakeServers) dial(ctx context.Context, s mcp.Server, env mcp.DialEnv) (*mcp.Conn, error) {
	f.mu.Lock()
	f.dials[s.ID]++
	srv, before := f.servers[s.ID], f.before[s.ID]
	if f.deaf[s.ID] {
		ctx = context.WithoutCancel(ctx)
	}
	f.mu.Unlock()
	if before != nil {
		if err := before(ctx); err != nil {
			return nil, err
		}
	}
	if srv == nil {
		return nil, fmt.Errorf("no fake server %q", s.ID)
	}
	if env.Stderr != nil {
		fmt.Fprintf(env.Stderr, "%s: starting\n", s.ID)
	}
	ct, st := sdk.NewInMemoryTransports()
	if _, err := srv.Connect(context.Background(), st, nil); err != nil {
		return nil, err
	}
	c, err := mcp.ConnectTransport(ctx, s, ct, env.Hooks)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.conns[s.ID] = append(f.conns[s.ID], c)
	f.mu.Unlock()
	return c, nil
}

func (f *fakeServers) dialCount(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dials[id]
}

// lastConn is the newest connection the manager made to id.
func (f *fakeServers) lastConn(id string) *mcp.Conn {
	f.mu.Lock()
	defer f.mu.Unlock()
	cs := f.conns[id]
	if len(cs) == 0 {
		f.t.Fatalf("no connection to %q", id)
	}
	return cs[len(cs)-1]
}

// crash ends every session of server id from the server's side, as a
// server process that exits would.
func (f *fakeServers) crash(id string) {
	f.mu.Lock()
	srv := f.servers[id]
	f.mu.Unlock()
	for ss := range srv.Sessions() {
		_ = ss.Close()
	}
}

func (f *fakeServers) setBefore(id string, fn func(ctx context.Context) error) {
	f.mu.Lock()
	f.before[id] = fn
	f.mu.Unlock()
}

// changes counts OnChange calls per key.
type changes struct {
	mu sync.Mutex
	n  map[mcp.Key]int
}

func (c *changes) record(k mcp.Key) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[mcp.Key]int{}
	}
	c.n[k]++
}

func (c *changes) count(k mcp.Key) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[k]
}

// newFakeManager is a manager over f; Close runs at cleanup (it must run
// inside a synctest bubble before the bubble ends, so tests there close it
// themselves too: Close is idempotent).
func newFakeManager(t *testing.T, f *fakeServers, o mcp.ManagerOptions) (*mcp.Manager, *changes) {
	ch := &changes{}
	o.Dial = f.dial
	o.OnChange = ch.record
	m := mcp.NewManager(o)
	t.Cleanup(m.Close)
	return m, ch
}

func exited(c *mcp.Conn) bool {
	select {
	case <-c.Exited():
		return true
	default:
		return false
	}
}
