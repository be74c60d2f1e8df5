package provider

import (
	"encoding/base64"
	"strings"
)

// ImagesByDefault reports whether a model accepts images when the user
// has not said, from its family's name. Unknown models answer no: a
// request with an image to a text-only model fails, while a note costs
// nothing (the user can switch images on for the profile).
func ImagesByDefault(api, model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	// Hosted names sometimes carry a vendor prefix (openai/gpt-4o,
	// anthropic/claude-…); the family is the last part.
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	switch api {
	case APIAnthropic:
		return claudeVision(m)
	case APIOpenAI, APIOpenAICompatible:
		if openAIVision(m) {
			return true
		}
		return api == APIOpenAICompatible && (claudeVision(m) || openVision(m))
	}
	return false
}

// claudeVision: every Claude from version 3 on sees images; the 2.x and
// instant models did not.
func claudeVision(m string) bool {
	return strings.HasPrefix(m, "claude-") && !strings.HasPrefix(m, "claude-2") && !strings.HasPrefix(m, "claude-instant")
}

// openAIVision: OpenAI's own families that take image input.
func openAIVision(m string) bool {
	switch {
	case strings.HasPrefix(m, "gpt-3.5"), strings.HasPrefix(m, "o1-mini"), strings.HasPrefix(m, "o3-mini"):
		return false
	case strings.HasPrefix(m, "gpt-4o"), strings.HasPrefix(m, "gpt-4.1"), strings.HasPrefix(m, "gpt-4.5"), strings.HasPrefix(m, "gpt-5"),
		strings.HasPrefix(m, "gpt-4-turbo"), strings.HasPrefix(m, "chatgpt-4o"), strings.HasPrefix(m, "o4-mini"):
		return true
	case m == "o1" || strings.HasPrefix(m, "o1-2") || m == "o3" || strings.HasPrefix(m, "o3-2") || strings.HasPrefix(m, "o3-pro"):
		return true
	}
	return false
}

// openVision: open model families served by Ollama, LM Studio, vLLM and
// OpenAI-compatible gateways that accept images.
func openVision(m string) bool {
	// Gemma 3's smallest sizes are text-only.
	gemma3 := strings.HasPrefix(m, "gemma3") || strings.HasPrefix(m, "gemma-3")
	if gemma3 && (strings.Contains(m, "1b") || strings.Contains(m, "270m")) {
		return false
	}
	for _, p := range []string{"llava", "bakllava", "qwen2.5vl", "qwen2.5-vl", "qwen2-vl", "qwen-vl", "qwen3-vl", "gemma3", "gemma-3", "llama3.2-vision",
		"llama-3.2-11b-vision", "llama-3.2-90b-vision", "llama4", "pixtral", "gemini", "minicpm-v", "moondream", "granite3.2-vision", "mistral-small3.1"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return strings.Contains(m, "-vl") || strings.Contains(m, "vision")
}

// dataURL is an image inline, as OpenAI's image_url parts take it.
func dataURL(img Image) string {
	return "data:" + img.MediaType + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}
