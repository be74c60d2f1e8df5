package hostcore

import (
	"context"
	"os"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// ModelSettings is the default provider in the shape of the single model
// setting that came before saved providers (kept for the bridge and
// headless use). The API key is never part of it: HasKey and KeyStorage say
// whether one is saved and where ("keychain" or the key file's path).
type ModelSettings struct {
	API             string   `json:"api"` // anthropic | openai | openai-compatible
	BaseURL         string   `json:"baseUrl"`
	Model           string   `json:"model"`
	ContextWindow   int      `json:"contextWindow"`
	MaxOutputTokens int      `json:"maxOutputTokens"`
	Temperature     *float64 `json:"temperature,omitempty"`
	Thinking        bool     `json:"thinking"`
	HasKey          bool     `json:"hasKey"`
	KeyStorage      string   `json:"keyStorage"`
	// FromEnvironment: no provider is saved and PI_DESKTOP_PROVIDER is set,
	// so the environment's model is used.
	FromEnvironment bool `json:"fromEnvironment"`
}

// ModelSettings returns the default provider's settings (without the key).
func (c *Core) ModelSettings(ctx context.Context) (ModelSettings, error) {
	p, ok, err := c.Providers.Default(ctx)
	if err != nil {
		return ModelSettings{}, err
	}
	if !ok {
		_, env := provider.ConfigFromEnv(os.Getenv)
		return ModelSettings{KeyStorage: c.keys.Where(), FromEnvironment: env}, nil
	}
	out := ModelSettings{API: p.API, BaseURL: p.BaseURL, Model: p.Model, ContextWindow: p.ContextWindow,
		MaxOutputTokens: p.MaxOutputTokens, Temperature: p.Temperature, Thinking: p.Thinking, HasKey: p.HasKey, KeyStorage: p.KeyStorage}
	if !p.HasKey {
		out.KeyStorage = c.keys.Where()
	}
	return out, nil
}

// SetModelSettings validates and saves the default provider (creating it
// when none is saved); apiKey "" keeps the saved key. The key goes to the
// key store, never to the database, the log or back to the UI.
func (c *Core) SetModelSettings(ctx context.Context, in ModelSettings, apiKey string) (ModelSettings, error) {
	p, ok, err := c.Providers.Default(ctx)
	if err != nil {
		return ModelSettings{}, err
	}
	switch {
	case !ok || p.API != in.API:
		// Another API style is another provider with its own key (the old
		// one stays in the list); it is named after its model.
		p = providers.Profile{}
	case p.Name == p.Model:
		p.Name = "" // a name that was the model id follows the model
	}
	p.API, p.BaseURL, p.Model, p.ContextWindow = in.API, in.BaseURL, in.Model, in.ContextWindow
	p.MaxOutputTokens, p.Temperature, p.Thinking, p.IsDefault = in.MaxOutputTokens, in.Temperature, in.Thinking, true
	if _, err := c.Providers.Save(ctx, p, apiKey); err != nil {
		return ModelSettings{}, err
	}
	return c.ModelSettings(ctx)
}
