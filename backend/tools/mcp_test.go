package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

var weatherInfo = tools.MCPToolInfo{Server: "weather", Tool: "get_forecast", Title: "Forecast", ModelName: "mcp_weather_get_forecast",
	Description: "Get the forecast\nfor a city.", Schema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
	Timeout: 100 * time.Second}

// mcpCall is a call whose spill files go to a temporary scratch folder.
func mcpCall(t *testing.T, args string) (*tools.Call, string) {
	scratch := t.TempDir()
	var seq atomic.Int64
	return &tools.Call{SessionID: "s", Args: json.RawMessage(args), Outcome: &tools.Outcome{},
		Env: tools.CallEnv{ToolCallID: "c1", SpillSeq: &seq, EnsureScratch: func() (string, error) { return scratch, nil }}}, scratch
}

// The spec of an MCP tool: medium risk and on demand whatever the server
// says, its schema and timeout; the model-facing description and summary.
func TestMCPToolSpec(t *testing.T) {
	s := tools.NewMCPTool(weatherInfo, nil).Spec()
	if s.Name != "mcp_weather_get_forecast" || s.Class != permission.ClassMCP || s.Risk != permission.Medium || !s.Deferred ||
		s.Timeout != 100*time.Second || string(s.Schema) != string(weatherInfo.Schema) {
		t.Errorf("spec = %+v", s)
	}
	long := weatherInfo
	long.Description = strings.Repeat("very long words ", 500)
	got := "description:\n" + s.Description + "\n\nsummary:\n" + s.Summary +
		"\n\nlong description bytes: " + strconv.Itoa(len(tools.MCPDescription(long))) + "\nlong summary:\n" + tools.MCPSummary(long) + "\n"
	golden.Assert(t, filepath.Join("testdata", "mcp_spec.golden"), got)
}

// Every kind of content a server can answer, as the model reads it.
func TestMCPResultConversion(t *testing.T) {
	res := &sdk.CallToolResult{Content: []sdk.Content{
		&sdk.TextContent{Text: "Oslo: 21.5 °C, clear."},
		&sdk.ImageContent{MIMEType: "image/png", Data: make([]byte, 1234)},
		&sdk.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 99)},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///forecast.md", MIMEType: "text/markdown", Text: "# Tomorrow\nRain."}},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///radar.bin", MIMEType: "application/octet-stream", Blob: make([]byte, 2048)}},
		&sdk.ResourceLink{URI: "https://met.example/oslo", Name: "oslo", MIMEType: "text/html", Description: "Full\nforecast."},
	}}
	c, _ := mcpCall(t, `{}`)
	got := tools.MCPResult(weatherInfo, res, c)
	structured := tools.MCPResult(weatherInfo, &sdk.CallToolResult{StructuredContent: map[string]any{"celsius": 21.5, "city": "Oslo"}}, c)
	failed := tools.MCPResult(weatherInfo, &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "unknown city: Atlantis"}}}, c)
	empty := tools.MCPResult(weatherInfo, &sdk.CallToolResult{}, c)
	if !got.OK || !structured.OK || failed.OK || failed.Code != errs.ToolFailed || failed.Details["server"] != "weather" {
		t.Fatalf("results: %+v / %+v / %+v", got, structured, failed)
	}
	// The image leaves the text and travels as bytes for the host to store.
	if len(got.RawImages) != 1 || got.RawImages[0].MediaType != "image/png" || len(got.RawImages[0].Data) != 1234 || len(got.Images) != 0 {
		t.Errorf("raw images = %+v, images = %+v", got.RawImages, got.Images)
	}
	onlyImages := tools.MCPResult(weatherInfo, &sdk.CallToolResult{Content: []sdk.Content{
		&sdk.ImageContent{MIMEType: "image/png", Data: []byte("a")}, &sdk.ImageContent{MIMEType: "image/jpeg", Data: []byte("b")}}}, c)
	if !onlyImages.OK || len(onlyImages.RawImages) != 2 || string(onlyImages.RawImages[1].Data) != "b" {
		t.Errorf("only images = %+v", onlyImages)
	}
	out := "content:\n" + got.Content + "\n\nstructured only:\n" + structured.Content + "\n\nisError:\n" + string(failed.Code) + ": " + failed.Message +
		"\n\nempty:\n" + empty.Content + "\n\nonly images:\n" + onlyImages.Content + "\n"
	golden.Assert(t, filepath.Join("testdata", "mcp_result.golden"), out)
}

// A long result keeps its head within the limits; the marker names the
// spill file and what it holds; one long line is cut on a rune boundary.
func TestMCPResultBounded(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		whole      bool // the spill file holds all of it
	}{
		{"many lines", strings.Repeat("a line of text\n", 10_000), true},
		{"one long line", strings.Repeat("é", 200_000), true},
		{"over the spill limit", strings.Repeat("0123456789abcdef\n", 64_000), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, scratch := mcpCall(t, `{}`)
			res := tools.MCPResult(weatherInfo, &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: tc.text}}}, c)
			if !res.Truncated || len(res.Content) > tools.ResultMaxBytes || strings.Count(res.Content, "\n") >= tools.ResultMaxLines || !utf8.ValidString(res.Content) {
				t.Fatalf("bounded: truncated=%v %d bytes %d lines", res.Truncated, len(res.Content), strings.Count(res.Content, "\n"))
			}
			if b := tools.Bound(res); b.Content != res.Content {
				t.Error("the pipeline's backstop cut the result again (the marker would be lost)")
			}
			path, _ := res.Fields["spillPath"].(string)
			if filepath.Dir(path) != filepath.Join(scratch, "tool-output") || !strings.HasPrefix(filepath.Base(path), "mcp_weather_get_forecast-") {
				t.Fatalf("spill path %q", path)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.whole != (string(data) == tc.text) || (!tc.whole && !strings.Contains(res.Content, "were not kept (spill limit 512 KB)")) {
				t.Errorf("spill file %d bytes of %d; marker %q", len(data), len(tc.text), res.Content[strings.LastIndex(res.Content, "[truncated"):])
			}
		})
	}
}

// The call's own failures: the timeout, a Stop, the server's code.
func TestMCPToolCallFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		err  error
		code errs.Code
	}{
		{"timeout", func() (context.Context, context.CancelFunc) { return context.WithTimeout(context.Background(), 0) }, context.DeadlineExceeded, errs.ToolTimeout},
		{"stop", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled, errs.ToolAborted},
		{"server gone", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
			errs.New(errs.MCPServerUnavailable, "the MCP server is no longer running"), errs.MCPServerUnavailable},
		{"other", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, errors.New("boom"), errs.MCPProtocolError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			tool := tools.NewMCPTool(weatherInfo, func(context.Context, json.RawMessage, func(mcp.Progress)) (*sdk.CallToolResult, error) {
				return nil, tc.err
			})
			c, _ := mcpCall(t, `{"city":"Oslo"}`)
			if res := tool.Run(ctx, c); res.Code != tc.code || res.Details["server"] != "weather" {
				t.Errorf("result = %+v", res)
			}
		})
	}
}

// Progress lines as the tool row shows them.
func TestFormatProgress(t *testing.T) {
	for _, tc := range []struct {
		p    mcp.Progress
		want string
	}{
		{mcp.Progress{Progress: 3, Total: 10}, "progress 3/10"},
		{mcp.Progress{Progress: 0.5, Message: "half\nway"}, "progress 0.50: half way"},
		{mcp.Progress{Progress: 7}, "progress 7"},
	} {
		if got := tools.FormatProgress(tc.p); got != tc.want {
			t.Errorf("%+v = %q, want %q", tc.p, got, tc.want)
		}
	}
}

// The bound keeps valid UTF-8 within the limits, whatever the text.
func FuzzMCPResultBound(f *testing.F) {
	f.Add(strings.Repeat("x", 60_000))
	f.Add(strings.Repeat("日本\n", 30_000))
	f.Add("short")
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		c, _ := mcpCall(t, `{}`)
		res := tools.MCPResult(weatherInfo, &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, c)
		if !utf8.ValidString(res.Content) || len(res.Content) > tools.ResultMaxBytes || strings.Count(res.Content, "\n") >= tools.ResultMaxLines {
			t.Fatalf("%d bytes, %d lines, valid %v", len(res.Content), strings.Count(res.Content, "\n"), utf8.ValidString(res.Content))
		}
	})
}
