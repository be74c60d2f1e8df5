package provider_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

func TestImagesByDefault(t *testing.T) {
	for _, tt := range []struct {
		api, model string
		want       bool
	}{
		{provider.APIAnthropic, "claude-sonnet-4-5", true},
		{provider.APIAnthropic, "claude-3-haiku-20240307", true},
		{provider.APIAnthropic, "claude-opus-4-6", true},
		{provider.APIAnthropic, "claude-2.1", false},
		{provider.APIAnthropic, "claude-instant-1.2", false},
		{provider.APIAnthropic, "my-proxy-model", false},
		{provider.APIOpenAI, "gpt-4o", true},
		{provider.APIOpenAI, "gpt-4o-mini", true},
		{provider.APIOpenAI, "gpt-4.1-nano", true},
		{provider.APIOpenAI, "gpt-5", true},
		{provider.APIOpenAI, "gpt-5-mini", true},
		{provider.APIOpenAI, "gpt-4-turbo", true},
		{provider.APIOpenAI, "o1", true},
		{provider.APIOpenAI, "o1-2024-12-17", true},
		{provider.APIOpenAI, "o3", true},
		{provider.APIOpenAI, "o4-mini", true},
		{provider.APIOpenAI, "o1-mini", false},
		{provider.APIOpenAI, "o3-mini", false},
		{provider.APIOpenAI, "gpt-3.5-turbo", false},
		{provider.APIOpenAI, "gpt-4", false},
		{provider.APIOpenAI, "llava", false}, // open families only behind a compatible server
		{provider.APIOpenAICompatible, "llava:13b", true},
		{provider.APIOpenAICompatible, "qwen2.5vl:7b", true},
		{provider.APIOpenAICompatible, "Qwen/Qwen2.5-VL-7B-Instruct", true},
		{provider.APIOpenAICompatible, "gemma3:12b", true},
		{provider.APIOpenAICompatible, "gemma3:1b", false},
		{provider.APIOpenAICompatible, "gemma3:270m", false},
		{provider.APIOpenAICompatible, "google/gemma-3-1b-it", false},
		{provider.APIOpenAICompatible, "google/gemma-3-27b-it", true},
		{provider.APIOpenAICompatible, "llama3.2-vision", true},
		{provider.APIOpenAICompatible, "pixtral-12b", true},
		{provider.APIOpenAICompatible, "google/gemini-2.5-pro", true},
		{provider.APIOpenAICompatible, "openai/gpt-4o", true},
		{provider.APIOpenAICompatible, "anthropic/claude-3.5-sonnet", true},
		{provider.APIOpenAICompatible, "qwen2.5-coder:7b", false},
		{provider.APIOpenAICompatible, "llama3.1:8b", false},
		{provider.APIOpenAICompatible, "deepseek-r1", false},
		{provider.APIOpenAICompatible, "", false},
		{"other", "gpt-4o", false},
	} {
		if got := provider.ImagesByDefault(tt.api, tt.model); got != tt.want {
			t.Errorf("ImagesByDefault(%s, %q) = %v, want %v", tt.api, tt.model, got, tt.want)
		}
	}
}

func boolp(b bool) *bool { return &b }

func TestInfoSupportsImages(t *testing.T) {
	for _, tt := range []struct {
		model    string
		explicit *bool
		want     bool
	}{
		{"claude-sonnet-4-5", nil, true},
		{"claude-sonnet-4-5", boolp(false), false},
		{"my-local-model", nil, false},
		{"my-local-model", boolp(true), true},
	} {
		p, err := provider.New(provider.Config{API: provider.APIAnthropic, Model: tt.model, APIKey: "k", SupportsImages: tt.explicit})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Info().SupportsImages; got != tt.want {
			t.Errorf("%s %v: SupportsImages = %v, want %v", tt.model, tt.explicit, got, tt.want)
		}
	}
}

// A conversation whose tool results carry images, and a user message with
// one (the composer's attachments will use that).
func imageHistory() []provider.Message {
	png := provider.Image{MediaType: "image/png", Data: []byte("\x89PNG fake one")}
	jpg := provider.Image{MediaType: "image/jpeg", Data: []byte("\xff\xd8\xff fake two")}
	return []provider.Message{
		{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "take screenshots"}}},
		{Role: provider.RoleAssistant, Content: []provider.Block{
			{Type: provider.BlockToolUse, ToolUseID: "call_a", ToolName: "Shot", Input: json.RawMessage(`{}`)},
			{Type: provider.BlockToolUse, ToolUseID: "call_b", ToolName: "Read", Input: json.RawMessage(`{"path":"a.go"}`)},
			{Type: provider.BlockToolUse, ToolUseID: "call_c", ToolName: "Shot", Input: json.RawMessage(`{}`)},
		}},
		{Role: provider.RoleUser, Content: []provider.Block{
			{Type: provider.BlockToolResult, ToolUseID: "call_a", Text: "two screenshots", Images: []provider.Image{png, jpg}},
			{Type: provider.BlockToolResult, ToolUseID: "call_b", Text: "package a"},
			{Type: provider.BlockToolResult, ToolUseID: "call_c", Text: "", Images: []provider.Image{png}},
			{Type: provider.BlockText, Text: "and this one of mine", Images: []provider.Image{jpg}},
		}},
	}
}

// The request's messages as each wire protocol carries images: goldens of
// the bytes the SDKs sent to the fake server. Without image support the
// same history sends no image bytes at all.
func TestImageRequestLayout(t *testing.T) {
	for _, proto := range protocols {
		for _, on := range []bool{true, false} {
			name := proto + map[bool]string{true: "_images", false: "_no_images"}[on]
			t.Run(name, func(t *testing.T) {
				srv := newServer(t, proto, providertest.Turn{Text: "I see them."})
				cfg := srv.Config()
				cfg.SupportsImages = boolp(on)
				p := newProvider(t, cfg)
				if r := stream(t, p, provider.Request{System: "sys", Messages: imageHistory()}); r.err != nil {
					t.Fatal(r.err)
				}
				body := srv.Requests()[0].JSON()
				msgs, err := json.MarshalIndent(body["messages"], "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				golden.Assert(t, filepath.Join("testdata", "images_"+name+".golden"), string(msgs)+"\n")
				raw := srv.Requests()[0].Body
				for _, frag := range []string{"iVBORyBmYWtlIG9uZQ", "/9j/IGZha2UgdHdv", "base64", "image_url"} {
					if has := bytes.Contains(raw, []byte(frag)); has && !on {
						t.Errorf("image bytes (%s) sent to a model without image support", frag)
					}
				}
				if on && !strings.Contains(string(raw), "iVBORyBmYWtlIG9uZQ") { // base64 of the fake PNG bytes
					t.Error("the image was not sent")
				}
			})
		}
	}
}
