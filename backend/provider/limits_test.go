package provider_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

func TestLimitsFor(t *testing.T) {
	known := func(window, out int) provider.Limits {
		return provider.Limits{ContextWindow: window, MaxOutput: out, Known: true}
	}
	tests := []struct {
		name string
		cfg  provider.Config
		want provider.Limits
	}{
		// Claude: the output asked for is at most 32k (the window is shared).
		{"opus 4.5 alias", provider.Config{API: "anthropic", Model: "claude-opus-4-5"}, known(200_000, 32_000)},
		{"opus 4.5 dated", provider.Config{API: "anthropic", Model: "claude-opus-4-5-20251101"}, known(200_000, 32_000)},
		{"opus 4.1 dated", provider.Config{API: "anthropic", Model: "claude-opus-4-1-20250805"}, known(200_000, 32_000)},
		{"opus 4 dated", provider.Config{API: "anthropic", Model: "claude-opus-4-20250514"}, known(200_000, 32_000)},
		{"a newer opus 4 takes its family's row", provider.Config{API: "anthropic", Model: "claude-opus-4-6"}, known(200_000, 32_000)},
		{"sonnet 4.5 dated", provider.Config{API: "anthropic", Model: "claude-sonnet-4-5-20250929"}, known(200_000, 32_000)},
		{"sonnet 4 dated", provider.Config{API: "anthropic", Model: "claude-sonnet-4-20250514"}, known(200_000, 32_000)},
		{"haiku 4.5", provider.Config{API: "anthropic", Model: "claude-haiku-4-5"}, known(200_000, 32_000)},
		{"sonnet 3.7 latest", provider.Config{API: "anthropic", Model: "claude-3-7-sonnet-latest"}, known(200_000, 32_000)},
		{"sonnet 3.5 dated", provider.Config{API: "anthropic", Model: "claude-3-5-sonnet-20241022"}, known(200_000, 8_192)},
		{"haiku 3.5", provider.Config{API: "anthropic", Model: "claude-3-5-haiku-20241022"}, known(200_000, 8_192)},
		{"opus 3 refuses more than 4096", provider.Config{API: "anthropic", Model: "claude-3-opus-20240229"}, known(200_000, 4_096)},
		{"haiku 3", provider.Config{API: "anthropic", Model: "claude-3-haiku-20240307"}, known(200_000, 4_096)},
		{"vertex spelling", provider.Config{API: "anthropic", Model: "claude-sonnet-4-5@20250929"}, known(200_000, 32_000)},
		{"gateway spelling, full 64k", provider.Config{API: "openai-compatible", Model: "anthropic/claude-sonnet-4.5"}, known(200_000, 64_000)},

		{"gpt-5", provider.Config{API: "openai", Model: "gpt-5"}, known(400_000, 128_000)},
		{"gpt-5 dated", provider.Config{API: "openai", Model: "gpt-5-2025-08-07"}, known(400_000, 128_000)},
		{"gpt-5 mini dated", provider.Config{API: "openai", Model: "gpt-5-mini-2025-08-07"}, known(400_000, 128_000)},
		{"gpt-5.1 takes the family's row", provider.Config{API: "openai", Model: "gpt-5.1"}, known(400_000, 128_000)},
		{"gpt-5 chat", provider.Config{API: "openai", Model: "gpt-5-chat-latest"}, known(128_000, 16_384)},
		{"gpt-4.1", provider.Config{API: "openai", Model: "gpt-4.1"}, known(1_047_576, 32_768)},
		{"gpt-4.1 mini dated", provider.Config{API: "openai", Model: "gpt-4.1-mini-2025-04-14"}, known(1_047_576, 32_768)},
		{"gpt-4o", provider.Config{API: "openai", Model: "gpt-4o"}, known(128_000, 16_384)},
		{"gpt-4o dated", provider.Config{API: "openai", Model: "gpt-4o-2024-08-06"}, known(128_000, 16_384)},
		{"the first gpt-4o snapshot", provider.Config{API: "openai", Model: "gpt-4o-2024-05-13"}, known(128_000, 4_096)},
		{"gpt-4o mini", provider.Config{API: "openai", Model: "gpt-4o-mini-2024-07-18"}, known(128_000, 16_384)},
		{"vendor prefix", provider.Config{API: "openai-compatible", Model: "openai/gpt-4o"}, known(128_000, 16_384)},
		{"gpt-4-1106 is gpt-4, not gpt-4.1", provider.Config{API: "openai", Model: "gpt-4-1106-preview"}, known(8_192, 4_096)},
		{"gpt-4 keeps half its window for the conversation", provider.Config{API: "openai", Model: "gpt-4"}, known(8_192, 4_096)},
		{"o3", provider.Config{API: "openai", Model: "o3"}, known(200_000, 100_000)},
		{"o3 dated", provider.Config{API: "openai", Model: "o3-2025-04-16"}, known(200_000, 100_000)},
		{"o3-mini", provider.Config{API: "openai", Model: "o3-mini"}, known(200_000, 100_000)},
		{"o4-mini dated", provider.Config{API: "openai", Model: "o4-mini-2025-04-16"}, known(200_000, 100_000)},
		{"o1-mini", provider.Config{API: "openai", Model: "o1-mini-2024-09-12"}, known(128_000, 64_000)},
		{"case and spaces", provider.Config{API: "openai", Model: "  GPT-4o  "}, known(128_000, 16_384)},

		// Unknown: the API's defaults.
		{"unknown anthropic", provider.Config{API: "anthropic", Model: "claude-next"}, provider.Limits{ContextWindow: 200_000, MaxOutput: 8_192}},
		{"unknown openai", provider.Config{API: "openai", Model: "gpt-6-preview"}, provider.Limits{ContextWindow: 128_000}},
		{"o-series lookalike", provider.Config{API: "openai", Model: "o3x"}, provider.Limits{ContextWindow: 128_000}},
		{"gpt-4 lookalike", provider.Config{API: "openai", Model: "gpt-4x"}, provider.Limits{ContextWindow: 128_000}},
		{"local model", provider.Config{API: "openai-compatible", Model: "llama3.1:8b"}, provider.Limits{ContextWindow: 32_768}},
		{"empty", provider.Config{API: "openai-compatible"}, provider.Limits{ContextWindow: 32_768}},

		// The profile's values win, each on its own.
		{"profile window on a known model", provider.Config{API: "anthropic", Model: "claude-sonnet-4-5", ContextWindow: 1_000_000}, known(1_000_000, 32_000)},
		{"profile output on a known model", provider.Config{API: "anthropic", Model: "claude-sonnet-4-5", MaxOutputTokens: 64_000}, known(200_000, 64_000)},
		{"profile values on an unknown model", provider.Config{API: "openai-compatible", Model: "qwen3:32b", ContextWindow: 40_960, MaxOutputTokens: 8_000}, provider.Limits{ContextWindow: 40_960, MaxOutput: 8_000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := provider.LimitsFor(tt.cfg); got != tt.want {
				t.Errorf("LimitsFor(%q, %q) = %+v, want %+v", tt.cfg.API, tt.cfg.Model, got, tt.want)
			}
		})
	}
}

// The limits reach the provider: its Info (read by compaction) and the
// output limit of its requests.
func TestNewAppliesTheModelsLimits(t *testing.T) {
	tests := []struct {
		name, model   string
		window, out   int
		wantMaxTokens float64
	}{
		{"known", "claude-3-opus-20240229", 200_000, 4_096, 4_096},
		{"unknown", "claude-next", 200_000, 8_192, 8_192},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "hi"})
			cfg := srv.Config()
			cfg.Model = tt.model
			p, err := provider.New(cfg, provider.WithSleeper(providertest.NoSleep))
			if err != nil {
				t.Fatal(err)
			}
			if info := p.Info(); info.ContextWindow != tt.window || info.MaxOutputTokens != tt.out {
				t.Errorf("Info = %+v, want window %d, output %d", info, tt.window, tt.out)
			}
			if _, err := p.Stream(t.Context(), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser,
				Content: []provider.Block{{Type: provider.BlockText, Text: "hello"}}}}}, func(provider.Event) error { return nil }); err != nil {
				t.Fatal(err)
			}
			if got := srv.Requests()[0].JSON()["max_tokens"]; got != tt.wantMaxTokens {
				t.Errorf("max_tokens = %v, want %v", got, tt.wantMaxTokens)
			}
		})
	}
}
