package hostcore

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// ProviderList is what Settings → Models and the composer's model picker
// show. No API key is ever part of it.
type ProviderList struct {
	Providers []providers.Profile `json:"providers"`
	// KeyStorage is where a key saved now goes: "keychain" or the key file.
	KeyStorage string `json:"keyStorage"`
	// Environment is the model from PI_DESKTOP_PROVIDER, set only while no
	// provider is saved (then it is the one in use).
	Environment *EnvironmentModel `json:"environment,omitempty"`
}

// EnvironmentModel describes the environment's model without its key.
type EnvironmentModel struct {
	API     string `json:"api"`
	Model   string `json:"model"`
	BaseURL string `json:"baseUrl"`
	HasKey  bool   `json:"hasKey"`
}

// ProviderTestResult is the outcome of a connection test: a failure is a
// result with the turn's stable code, not an error of the call.
type ProviderTestResult struct {
	OK         bool   `json:"ok"`
	Code       string `json:"code,omitempty"`
	Message    string `json:"message"`
	DurationMs int64  `json:"durationMs"`
	// Models is what the server lists (ListProviderModels), asked beside
	// the test; ModelsCode says why there is no list (MODEL_LIST_UNAVAILABLE:
	// the server has none, the model id is typed).
	Models        []provider.ListedModel `json:"models"`
	ModelsCode    string                 `json:"modelsCode,omitempty"`
	ModelsMessage string                 `json:"modelsMessage,omitempty"`
}

// ProviderModelList is the outcome of listing a server's models: a failure
// is a result with a stable code, as for a connection test.
type ProviderModelList struct {
	OK      bool                   `json:"ok"`
	Code    string                 `json:"code,omitempty"`
	Message string                 `json:"message"`
	Models  []provider.ListedModel `json:"models"`
}

// ListProviders returns the saved providers, oldest first.
func (c *Core) ListProviders(ctx context.Context) (ProviderList, error) {
	list, err := c.providers.List(ctx)
	if err != nil {
		return ProviderList{}, err
	}
	out := ProviderList{Providers: list, KeyStorage: c.keys.Where()}
	if out.Providers == nil {
		out.Providers = []providers.Profile{}
	}
	if len(list) == 0 {
		if cfg, ok := provider.ConfigFromEnv(os.Getenv); ok {
			out.Environment = &EnvironmentModel{API: cfg.API, Model: cfg.Model, BaseURL: cfg.BaseURL, HasKey: cfg.APIKey != ""}
		}
	}
	return out, nil
}

// SaveProvider adds (empty id) or updates a provider; apiKey "" keeps the
// saved key. It and the two below announce the change (providers:changed).
func (c *Core) SaveProvider(ctx context.Context, in providers.Profile, apiKey string) (providers.Profile, error) {
	p, err := c.providers.Save(ctx, in, apiKey)
	if err != nil {
		return providers.Profile{}, err
	}
	c.log.Info("provider saved", "id", p.ID, "api", p.API, "model", p.Model, "keyStorage", p.KeyStorage, "default", p.IsDefault)
	c.emit(api.EventProvidersChanged, nil)
	return p, nil
}

// RemoveProvider deletes a provider and its key.
func (c *Core) RemoveProvider(ctx context.Context, id string) error {
	if err := c.providers.Remove(ctx, id); err != nil {
		return err
	}
	c.log.Info("provider removed", "id", id)
	c.emit(api.EventProvidersChanged, nil)
	return nil
}

// SetDefaultProvider makes id the default provider.
func (c *Core) SetDefaultProvider(ctx context.Context, id string) error {
	if err := c.providers.SetDefault(ctx, id); err != nil {
		return err
	}
	c.emit(api.EventProvidersChanged, nil)
	return nil
}

// TestProvider sends one minimal real request with in's settings (apiKey ""
// uses the key saved for in.ID) and reports how it went.
func (c *Core) TestProvider(ctx context.Context, in providers.Profile, apiKey string, timeout time.Duration) ProviderTestResult {
	start := time.Now()
	err := c.providers.Test(ctx, in, apiKey, timeout)
	res := ProviderTestResult{OK: err == nil, DurationMs: time.Since(start).Milliseconds()}
	if err != nil {
		pl := errs.ToPayload(err)
		res.Code, res.Message = string(pl.Code), pl.Message
	} else {
		res.Message = "The model answered."
	}
	list := c.ListProviderModels(ctx, in, apiKey, timeout)
	res.Models, res.ModelsCode = list.Models, list.Code
	if !list.OK {
		res.ModelsMessage = list.Message
	}
	c.log.Info("provider test", "api", in.API, "model", in.Model, "ok", res.OK, "code", res.Code, "ms", res.DurationMs, "models", len(res.Models), "modelsCode", res.ModelsCode)
	return res
}

// ListProviderModels asks the server of in (apiKey "" uses the key saved
// for in.ID) which models it lists, for the model picker.
func (c *Core) ListProviderModels(ctx context.Context, in providers.Profile, apiKey string, timeout time.Duration) ProviderModelList {
	models, err := c.providers.ListModels(ctx, in, apiKey, timeout)
	if err != nil {
		pl := errs.ToPayload(err)
		return ProviderModelList{Code: string(pl.Code), Message: pl.Message, Models: []provider.ListedModel{}}
	}
	if models == nil {
		models = []provider.ListedModel{}
	}
	return ProviderModelList{OK: true, Message: fmt.Sprintf("The server lists %d models.", len(models)), Models: models}
}

// SessionProvider is the provider a session chose ("" = the default).
func (c *Core) SessionProvider(ctx context.Context, sessionID string) (string, error) {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return "", err
	}
	return c.providers.SessionChoice(ctx, sessionID)
}

// SetSessionProvider chooses the provider of a session's next turns; ""
// follows the default.
func (c *Core) SetSessionProvider(ctx context.Context, sessionID, providerID string) error {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return err
	}
	return c.providers.SetSessionChoice(ctx, sessionID, providerID)
}
