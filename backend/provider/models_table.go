package provider

// knownModel is what the model's maker publishes for a model family: the
// context window (input and output together) and the most output tokens
// one response may have. Prefixes are model ids as the APIs spell them,
// with dots written as dashes (see modelKey), so claude-sonnet-4.5 (as
// gateways write it) and claude-sonnet-4-5 find the same row.
type knownModel struct {
	prefix        string
	contextWindow int
	maxOutput     int
}

// knownModels is data, not logic: LimitsFor picks the longest prefix that
// ends where the id ends or at a separator (claude-sonnet-4-5-20250929 is
// claude-sonnet-4-5; gpt-4-1106-preview is gpt-4, not gpt-4-1). A family
// row (claude-opus-4) holds the smallest figures of its members, so an
// unlisted newer member is never given more than its family is known for.
var knownModels = []knownModel{
	// Anthropic Claude (docs.anthropic.com, "Models overview").
	{"claude-opus-4-5", 200_000, 64_000},
	{"claude-opus-4-1", 200_000, 32_000},
	{"claude-opus-4-0", 200_000, 32_000},
	{"claude-opus-4-20250514", 200_000, 32_000},
	{"claude-opus-4", 200_000, 32_000},
	{"claude-sonnet-4-5", 200_000, 64_000},
	{"claude-sonnet-4", 200_000, 64_000},
	{"claude-haiku-4-5", 200_000, 64_000},
	{"claude-haiku-4", 200_000, 64_000},
	{"claude-3-7-sonnet", 200_000, 64_000},
	{"claude-3-5-sonnet", 200_000, 8_192},
	{"claude-3-5-haiku", 200_000, 8_192},
	{"claude-3-opus", 200_000, 4_096},
	{"claude-3-sonnet", 200_000, 4_096},
	{"claude-3-haiku", 200_000, 4_096},

	// OpenAI (platform.openai.com, "Models"). A window is input and
	// output together: gpt-5's 400k is 272k of input and 128k of output.
	{"gpt-5", 400_000, 128_000},
	{"gpt-5-mini", 400_000, 128_000},
	{"gpt-5-nano", 400_000, 128_000},
	{"gpt-5-codex", 400_000, 128_000},
	{"gpt-5-chat", 128_000, 16_384},
	{"gpt-4-1", 1_047_576, 32_768},
	{"gpt-4-1-mini", 1_047_576, 32_768},
	{"gpt-4-1-nano", 1_047_576, 32_768},
	{"gpt-4o", 128_000, 16_384},
	{"gpt-4o-2024-05-13", 128_000, 4_096},
	{"gpt-4o-mini", 128_000, 16_384},
	{"chatgpt-4o", 128_000, 16_384},
	{"gpt-4-turbo", 128_000, 4_096},
	{"gpt-4", 8_192, 8_192},
	{"gpt-3-5-turbo", 16_385, 4_096},
	{"o1", 200_000, 100_000},
	{"o1-pro", 200_000, 100_000},
	{"o1-mini", 128_000, 65_536},
	{"o1-preview", 128_000, 32_768},
	{"o3", 200_000, 100_000},
	{"o3-pro", 200_000, 100_000},
	{"o3-mini", 200_000, 100_000},
	{"o4-mini", 200_000, 100_000},
	{"codex-mini", 200_000, 100_000},
}
