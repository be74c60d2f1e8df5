package hostcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/internal/mcpservers"
)

// connSource is the MCP side of the tests' sessions over real connections:
// what the MCP manager will give the host, minus its lifecycle.
type connSource struct {
	conns   map[string]*mcp.Conn
	entries []hostcore.MCPToolEntry
}

func (s *connSource) Tools(context.Context, string) ([]hostcore.MCPToolEntry, error) {
	return s.entries, nil
}

func (s *connSource) Call(ctx context.Context, e hostcore.MCPToolEntry, args json.RawMessage, onProgress func(mcp.Progress)) (*sdk.CallToolResult, error) {
	return s.conns[e.ServerID].CallTool(ctx, e.Tool, args, onProgress)
}

// newConnSource lists every server's tools and names them over the whole
// catalog, as the manager does.
func newConnSource(t testing.TB, conns map[string]*mcp.Conn) *connSource {
	t.Helper()
	src := &connSource{conns: conns}
	var refs []mcp.ToolRef
	listed := map[mcp.ToolRef]*sdk.Tool{}
	for id, c := range conns {
		list, err := c.Tools(t.Context())
		if err != nil {
			t.Fatalf("tools of %s: %v", id, err)
		}
		for _, tool := range list {
			r := mcp.ToolRef{Server: id, Tool: tool.Name}
			refs = append(refs, r)
			listed[r] = tool
		}
	}
	names := mcp.Names(refs)
	slices.SortFunc(refs, func(a, b mcp.ToolRef) int { return strings.Compare(names[a], names[b]) })
	for _, r := range refs {
		tool := listed[r]
		schema, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		src.entries = append(src.entries, hostcore.MCPToolEntry{ServerID: r.Server, Tool: r.Tool,
			ModelName: names[r], Title: tool.Title, Description: tool.Description, InputSchema: schema})
	}
	return src
}

// everything connects the reference server over stdio (an owned process
// tree, as the app runs it).
func everything(t *testing.T) *mcp.Conn {
	t.Helper()
	command, args := mcpservers.Everything(t)
	s := mcp.Server{ID: "everything", Transport: mcp.TransportStdio, Command: command, Args: args, Enabled: true,
		ConnectTimeout: 60 * time.Second}
	c, err := mcp.ConnectStdio(t.Context(), s, mcp.StdioOptions{BaseEnv: os.Environ(), Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("connect everything: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// lab is an in-process SDK server with the edge cases the reference
// server lacks; cancelled receives the progress token of each call of
// "slow" that saw its cancellation.
type lab struct {
	conn      *mcp.Conn
	cancelled chan string
}

const bigLines = 100_000 // × 52 bytes: a 5 MB result

var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\b\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x10IDATx\x9cb\xfa\xcf\xc0\x00\b\x00\x00\xff\xff\x03\t\x01\x02X\xb6\xd5P\x00\x00\x00\x00IEND\xaeB`\x82") // a red pixel

func newLab(t testing.TB) *lab {
	t.Helper()
	l := &lab{cancelled: make(chan string, 4)}
	s := sdk.NewServer(&sdk.Implementation{Name: "lab", Version: "1"}, nil)
	type echoIn struct {
		Text string `json:"text" jsonschema:"the text to echo"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Title: "Echo", Description: "Echo the text back.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	text := func(name, desc string, res func(ctx context.Context, req *sdk.CallToolRequest) *sdk.CallToolResult) {
		s.AddTool(&sdk.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return res(ctx, req), nil
			})
	}
	text("big", "Return 5 MB of text.", func(context.Context, *sdk.CallToolRequest) *sdk.CallToolResult {
		var b strings.Builder
		for i := range bigLines {
			fmt.Fprintf(&b, "line %06d of the big result, padded to 52 bytes.\n", i)
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}
	})
	text("broken", "Always fails.", func(context.Context, *sdk.CallToolRequest) *sdk.CallToolResult {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "disk on fire: /var is full"}}}
	})
	text("picture", "Return a picture.", func(context.Context, *sdk.CallToolRequest) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "A one-pixel picture:"},
			&sdk.ImageContent{MIMEType: "image/png", Data: tinyPNG}}}
	})
	text("structured", "Return structured content only.", func(context.Context, *sdk.CallToolRequest) *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"city": "Oslo", "celsius": 21.5}}
	})
	text("resource", "Return a resource and a link.", func(context.Context, *sdk.CallToolRequest) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{
			&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "remember the milk"}},
			&sdk.ResourceLink{URI: "https://example.com/spec", Name: "spec", Title: "The spec", MIMEType: "text/html", Description: "What to build."},
		}}
	})
	text("slow", "Report progress until cancelled.", func(ctx context.Context, req *sdk.CallToolRequest) *sdk.CallToolResult {
		token := req.Params.GetProgressToken()
		for i := 1; ; i++ {
			if token != nil {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: 100, Message: "working"})
			}
			select {
			case <-ctx.Done():
				l.cancelled <- fmt.Sprint(token)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "cancelled"}}}
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	s.AddTool(&sdk.Tool{Name: "badschema", Description: "A tool whose schema does not compile.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ran"}}}, nil
		})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	c, err := mcp.ConnectTransport(t.Context(), mcp.Server{ID: "lab", Transport: mcp.TransportHTTP, URL: "http://lab.invalid", Enabled: true}, ct, mcp.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	l.conn = c
	return l
}

// events records what a host emits: approval cards (answerable), live tool
// output and tool-call events.
type events struct {
	cards
	mu     sync.Mutex
	output []map[string]any
	calls  []map[string]any
}

func (e *events) Emit(event string, payload any) {
	switch event {
	case "tool:output":
		e.mu.Lock()
		e.output = append(e.output, payload.(map[string]any))
		e.mu.Unlock()
	case "agent:tool_call":
		b, _ := json.Marshal(payload)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		e.mu.Lock()
		e.calls = append(e.calls, m)
		e.mu.Unlock()
	}
	e.cards.Emit(event, payload)
}

func (e *events) progress() []map[string]any {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.output)
}

func (e *events) toolCalls() []map[string]any {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.calls)
}

// newMCPEnv is newEnv with src as the sessions' MCP side and, when srv is
// set, a scripted model speaking the Anthropic wire.
func newMCPEnv(t *testing.T, src hostcore.MCPSource, srv *providertest.Server) (*env, *events) {
	t.Helper()
	root := t.TempDir()
	ev := &events{cards: cards{reqs: make(chan permission.Request, 64)}}
	e := &env{t: t, cards: &ev.cards, project: filepath.Join(root, "proj"), outside: filepath.Join(root, "outside")}
	if err := os.MkdirAll(e.project, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := hostcore.Config{DataDir: filepath.Join(root, "data"), Sink: ev, RgPath: "-", MCP: src}
	if srv != nil {
		cfg.Provider = func(string) (provider.Provider, error) {
			return provider.New(srv.Config(), provider.WithSleeper(providertest.NoSleep))
		}
	}
	core, err := hostcore.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	e.core = core
	p, err := core.AddProject(t.Context(), e.project)
	if err != nil {
		t.Fatal(err)
	}
	if e.session, err = core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID}); err != nil {
		t.Fatal(err)
	}
	return e, ev
}
