package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/internal/mcpservers"
)

// bodyLog is a base HTTP transport that keeps what the client sent, so a
// test can see the messages on the wire (notifications/cancelled).
type bodyLog struct {
	mu     sync.Mutex
	bodies []string
}

func (l *bodyLog) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		l.bodies = append(l.bodies, string(b))
		l.mu.Unlock()
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	return http.DefaultTransport.RoundTrip(req)
}

func (l *bodyLog) sent(substr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.ContainsFunc(l.bodies, func(b string) bool { return strings.Contains(b, substr) })
}

func text(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// The reference server over streamable HTTP, through Connect: the calls a
// user makes, progress, Stop, an image, a resource and an error result.
func TestHTTPEverything(t *testing.T) {
	t.Parallel()
	wire := &bodyLog{}
	s := mcp.Server{ID: "everything", Transport: mcp.TransportHTTP, URL: mcpservers.EverythingHTTP(t), Enabled: true}
	c, err := mcp.Connect(t.Context(), s, mcp.ConnectOptions{HTTPClient: &http.Client{Transport: wire}})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	if c.Pid() != 0 {
		t.Errorf("Pid = %d for a remote server", c.Pid())
	}

	t.Run("tools", func(t *testing.T) {
		tools, err := c.Tools(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tools {
			names = append(names, tool.Name)
		}
		for _, want := range []string{"echo", "get-sum", "trigger-long-running-operation", "get-tiny-image"} {
			if !slices.Contains(names, want) {
				t.Errorf("tools %v lack %q", names, want)
			}
		}
	})
	t.Run("echo and get-sum", func(t *testing.T) {
		res, err := c.CallTool(t.Context(), "echo", map[string]any{"message": "hi"}, nil)
		if err != nil || res.IsError || text(t, res) != "Echo: hi" {
			t.Fatalf("echo = %+v, %v", res, err)
		}
		res, err = c.CallTool(t.Context(), "get-sum", map[string]any{"a": 2, "b": 3}, nil)
		if err != nil || res.IsError || !strings.Contains(text(t, res), "is 5") {
			t.Fatalf("get-sum = %+v, %v", res, err)
		}
	})
	t.Run("error result", func(t *testing.T) {
		res, err := c.CallTool(t.Context(), "get-sum", map[string]any{"a": "two", "b": 3}, nil)
		if err != nil || !res.IsError || text(t, res) == "" {
			t.Fatalf("get-sum with a string = %+v, %v; want an IsError result with the server's message", res, err)
		}
	})
	t.Run("image", func(t *testing.T) {
		res, err := c.CallTool(t.Context(), "get-tiny-image", nil, nil)
		if err != nil || res.IsError {
			t.Fatalf("get-tiny-image = %+v, %v", res, err)
		}
		i := slices.IndexFunc(res.Content, func(c sdk.Content) bool { _, ok := c.(*sdk.ImageContent); return ok })
		if i < 0 {
			t.Fatalf("no image block in %+v", res.Content)
		}
		if img := res.Content[i].(*sdk.ImageContent); img.MIMEType != "image/png" || len(img.Data) == 0 {
			t.Errorf("image = %s, %d bytes", img.MIMEType, len(img.Data))
		}
	})
	t.Run("resource", func(t *testing.T) {
		res, err := c.Session().ReadResource(t.Context(), &sdk.ReadResourceParams{URI: "demo://resource/dynamic/text/1"})
		if err != nil || len(res.Contents) == 0 || res.Contents[0].Text == "" {
			t.Fatalf("ReadResource = %+v, %v", res, err)
		}
	})
	t.Run("progress then stop", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		progress := make(chan mcp.Progress, 100)
		done := make(chan error, 1)
		go func() {
			_, err := c.CallTool(ctx, "trigger-long-running-operation", map[string]any{"duration": 60, "steps": 120},
				func(p mcp.Progress) { progress <- p })
			done <- err
		}()
		select {
		case p := <-progress:
			if p.Progress != 1 || p.Total != 120 {
				t.Errorf("first progress = %+v, want 1 of 120", p)
			}
		case err := <-done:
			t.Fatalf("call ended before any progress: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("no progress notification within 10 s")
		}
		cancel()
		stopped := time.Now()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("stopped call: %v, want context.Canceled", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the stopped call did not return")
		}
		if d := time.Since(stopped); d > time.Second {
			t.Errorf("the stopped call took %s to return", d)
		}
		// The SDK sends the cancellation on its own; wait for it on the wire.
		for deadline := time.Now().Add(5 * time.Second); !wire.sent(`"notifications/cancelled"`); {
			if time.Now().After(deadline) {
				t.Fatal("no notifications/cancelled reached the server")
			}
			time.Sleep(20 * time.Millisecond)
		}
		// The session outlives a stopped call.
		if res, err := c.CallTool(t.Context(), "echo", map[string]any{"message": "again"}, nil); err != nil || text(t, res) != "Echo: again" {
			t.Fatalf("echo after stop = %+v, %v", res, err)
		}
	})

	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-c.Exited():
	case <-time.After(5 * time.Second):
		t.Error("Exited not closed after Close")
	}
}

// echoServer is an in-process SDK server with an echo tool and a tool that
// blocks until its call is cancelled (reported on cancelled).
func echoServer(cancelled chan<- struct{}) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "pi-remote-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "block", Description: "Wait until cancelled."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			<-ctx.Done()
			if cancelled != nil {
				cancelled <- struct{}{}
			}
			return nil, nil, ctx.Err()
		})
	return s
}

// The legacy SSE transport: list and call, a session that outlives the
// connect timeout (the SDK ties the stream to the connect context), and a
// stopped call cancelled on the server.
func TestSSEConnect(t *testing.T) {
	t.Parallel()
	cancelled := make(chan struct{}, 1)
	srv := echoServer(cancelled)
	hs := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer hs.Close()

	s := mcp.Server{ID: "legacy", Transport: mcp.TransportSSE, URL: hs.URL, ConnectTimeout: 300 * time.Millisecond}
	c, err := mcp.Connect(t.Context(), s, mcp.ConnectOptions{})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	tools, err := c.Tools(t.Context())
	if err != nil || len(tools) != 2 {
		t.Fatalf("Tools = %v, %v", tools, err)
	}
	time.Sleep(2 * s.ConnectTimeout)
	res, err := c.CallTool(t.Context(), "echo", map[string]any{"text": "hi"}, nil)
	if err != nil || text(t, res) != "echo: hi" {
		t.Fatalf("echo after the connect timeout = %+v, %v", res, err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := c.CallTool(ctx, "block", nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped call: %v, want context.Canceled", err)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Error("the server's handler was not cancelled")
	}

	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-c.Exited():
	case <-time.After(5 * time.Second):
		t.Error("Exited not closed after Close")
	}
}

// The configured headers reach the server on every request; without them
// the server's 401 is MCP_AUTH_REQUIRED pointing at the headers.
func TestRemoteHeaders(t *testing.T) {
	t.Parallel()
	for _, transport := range []mcp.Transport{mcp.TransportHTTP, mcp.TransportSSE} {
		t.Run(string(transport), func(t *testing.T) {
			t.Parallel()
			srv := echoServer(nil)
			var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
			if transport == mcp.TransportSSE {
				h = sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)
			}
			var mu sync.Mutex
			checked := 0
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Authorization") != "Bearer static-token" || r.Header.Get("X-Api-Key") != "k-123" {
					http.Error(w, "missing credentials", http.StatusUnauthorized)
					return
				}
				mu.Lock()
				checked++
				mu.Unlock()
				h.ServeHTTP(w, r)
			}))
			defer hs.Close()

			s := mcp.Server{ID: "keyed", Transport: transport, URL: hs.URL,
				Headers: map[string]string{"Authorization": "Bearer static-token", "X-Api-Key": "k-123"}}
			c, err := mcp.Connect(t.Context(), s, mcp.ConnectOptions{})
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer c.Close()
			if res, err := c.CallTool(t.Context(), "echo", map[string]any{"text": "x"}, nil); err != nil || res.IsError {
				t.Fatalf("echo = %+v, %v", res, err)
			}
			mu.Lock()
			if checked < 3 { // the handshake, its notification or stream, the call
				t.Errorf("%d requests carried the headers, want every one (at least 3)", checked)
			}
			mu.Unlock()

			s.Headers = map[string]string{"X-Api-Key": "k-123"}
			_, err = mcp.Connect(t.Context(), s, mcp.ConnectOptions{})
			if !errs.Is(err, errs.MCPAuthRequired) {
				t.Fatalf("Connect without Authorization: %v, want MCP_AUTH_REQUIRED", err)
			}
			e := errs.As(err)
			if !strings.Contains(e.Message, "headers") || e.Details["signIn"] != nil || e.Details["status"] != 401 {
				t.Errorf("error = %q %v; want the headers named, no sign-in, status 401", e.Message, e.Details)
			}
		})
	}
}

// Each way a remote server can fail to connect has its stable code.
func TestRemoteConnectErrors(t *testing.T) {
	t.Parallel()
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr + "/mcp"
	}()
	quit := make(chan struct{}) // a slow handler still waiting when the test ends
	t.Cleanup(func() { close(quit) })
	handlers := map[string]http.HandlerFunc{
		"404": http.NotFound,
		"500": func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "boom", http.StatusInternalServerError)
		},
		"not MCP": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<!doctype html><title>Welcome</title><p>This is a web page.</p>\n")
		},
		"slow": func(w http.ResponseWriter, r *http.Request) {
			// Reading the body lets the server notice the client leaving.
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-quit:
			}
		},
	}
	tests := []struct {
		name string
		code errs.Code
		says string
	}{
		{"refused", errs.MCPServerUnavailable, "connection refused"},
		{"404", errs.MCPServerUnavailable, "404"},
		{"500", errs.MCPServerUnavailable, "500"},
		{"not MCP", errs.MCPProtocolError, "MCP"},
		{"slow", errs.MCPConnectTimeout, "connect timeout"},
	}
	for _, transport := range []mcp.Transport{mcp.TransportHTTP, mcp.TransportSSE} {
		for _, tt := range tests {
			t.Run(string(transport)+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				url := refused
				if h := handlers[tt.name]; h != nil {
					hs := httptest.NewServer(h)
					defer hs.Close()
					url = hs.URL + "/mcp"
				}
				s := mcp.Server{ID: "broken", Transport: transport, URL: url, ConnectTimeout: 500 * time.Millisecond}
				start := time.Now()
				c, err := mcp.Connect(t.Context(), s, mcp.ConnectOptions{})
				if err == nil {
					c.Close()
					t.Fatal("Connect succeeded")
				}
				if got := errs.CodeOf(err); got != tt.code {
					t.Fatalf("code = %s (%v), want %s", got, err, tt.code)
				}
				e := errs.As(err)
				if !strings.Contains(e.Message, tt.says) || e.Details["server"] != "broken" {
					t.Errorf("error = %q %v; want it to say %q and name the server", e.Message, e.Details, tt.says)
				}
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("failing took %s", d)
				}
			})
		}
	}
}

// Giving up on a connect (the app quits) returns at once with the
// context's error, whatever the connect timeout.
func TestRemoteConnectCancelled(t *testing.T) {
	t.Parallel()
	quit := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-quit:
		}
	}))
	defer hs.Close()
	defer close(quit)
	for _, transport := range []mcp.Transport{mcp.TransportHTTP, mcp.TransportSSE} {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(200*time.Millisecond, cancel)
		start := time.Now()
		_, err := mcp.Connect(ctx, mcp.Server{ID: "slow", Transport: transport, URL: hs.URL, ConnectTimeout: time.Minute}, mcp.ConnectOptions{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", transport, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: the cancelled connect took %s", transport, d)
		}
	}
}

// A remote session that the server ends closes Exited, so the host can
// show the server as failed and reconnect.
func TestSSEServerGone(t *testing.T) {
	t.Parallel()
	srv := echoServer(nil)
	hs := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer hs.Close()
	c, err := mcp.Connect(t.Context(), mcp.Server{ID: "legacy", Transport: mcp.TransportSSE, URL: hs.URL}, mcp.ConnectOptions{})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	hs.CloseClientConnections()
	select {
	case <-c.Exited():
	case <-time.After(5 * time.Second):
		t.Fatal("Exited not closed after the server dropped the session")
	}
	if _, err := c.CallTool(t.Context(), "echo", map[string]any{"text": "x"}, nil); !errs.Is(err, errs.MCPServerUnavailable) {
		t.Errorf("call after the server left: %v, want MCP_SERVER_UNAVAILABLE", err)
	}
}
