package hostcore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// ModelSettings is the model configuration the UI edits. The API key is
// never part of it: HasKey and KeyStorage say whether one is saved and
// where (the OS keychain is not used yet: a 0600 file in the data folder).
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
	// FromEnvironment: no model is saved and PI_DESKTOP_PROVIDER is set, so
	// the environment's model is used.
	FromEnvironment bool `json:"fromEnvironment"`
}

const modelSettingsKey = "model"

// ModelSettings returns the saved model configuration (without the key).
func (c *Core) ModelSettings(ctx context.Context) (ModelSettings, error) {
	cfg, saved, err := c.savedModel(ctx)
	if err != nil {
		return ModelSettings{}, err
	}
	out := ModelSettings{API: cfg.API, BaseURL: cfg.BaseURL, Model: cfg.Model, ContextWindow: cfg.ContextWindow,
		MaxOutputTokens: cfg.MaxOutputTokens, Temperature: cfg.Temperature, Thinking: cfg.Thinking, KeyStorage: c.keys.Where()}
	if !saved {
		_, out.FromEnvironment = provider.ConfigFromEnv(os.Getenv)
	}
	if cfg.API != "" {
		key, err := c.keys.Get(cfg.API)
		out.HasKey = err == nil && key != ""
	}
	return out, nil
}

// SetModelSettings validates and saves the model configuration; apiKey ""
// keeps the saved key. The key goes to the key store, never to the
// database, the log or back to the UI.
func (c *Core) SetModelSettings(ctx context.Context, in ModelSettings, apiKey string) (ModelSettings, error) {
	cfg := provider.Config{API: in.API, BaseURL: in.BaseURL, Model: in.Model, ContextWindow: in.ContextWindow,
		MaxOutputTokens: in.MaxOutputTokens, Temperature: in.Temperature, Thinking: in.Thinking}
	if apiKey != "" {
		if err := c.keys.Set(cfg.API, apiKey); err != nil {
			return ModelSettings{}, err
		}
	}
	probe, err := cfg.WithStoredKey(c.keys)
	if err != nil {
		return ModelSettings{}, err
	}
	if _, err := provider.New(probe); err != nil {
		return ModelSettings{}, err // MODEL_NOT_CONFIGURED naming what is missing
	}
	raw, _ := json.Marshal(cfg) // APIKey is json:"-"
	if _, err := c.store.DB().ExecContext(ctx,
		"INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		modelSettingsKey, string(raw)); err != nil {
		return ModelSettings{}, errs.Wrap(err, errs.StorageUnavailable, "could not save the model settings; check free disk space")
	}
	return c.ModelSettings(ctx)
}

func (c *Core) savedModel(ctx context.Context) (provider.Config, bool, error) {
	var raw string
	err := c.store.DB().QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", modelSettingsKey).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return provider.Config{}, false, nil
	}
	if err != nil {
		return provider.Config{}, false, errs.Wrap(err, errs.StorageUnavailable, "could not read the model settings")
	}
	var cfg provider.Config
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return provider.Config{}, false, nil
	}
	return cfg, true, nil
}
