package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// Settings are the app's settings (Settings window).
type Settings struct{ h Handle }

// GetSettings returns the settings.
func (s *Settings) GetSettings() (api.Settings, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Settings, error) { return c.Settings(ctx) })
}

// UpdateSettings validates and stores the whole settings set.
func (s *Settings) UpdateSettings(in api.Settings) (api.Settings, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Settings, error) { return c.UpdateSettings(ctx, in) })
}

// Providers are the saved model providers (Settings → Models) and each
// session's choice. No method here ever returns an API key: a provider says
// only whether one is saved and where ("keychain" or the key file's path).
type Providers struct{ h Handle }

// ListProviders returns the saved providers and where a new key would go.
func (p *Providers) ListProviders() (hostcore.ProviderList, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (hostcore.ProviderList, error) {
		return c.ListProviders(ctx)
	})
}

// SaveProvider adds (empty id) or updates a provider; apiKey "" keeps the
// saved key.
func (p *Providers) SaveProvider(in providers.Profile, apiKey string) (providers.Profile, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (providers.Profile, error) {
		return c.SaveProvider(ctx, in, apiKey)
	})
}

// RemoveProvider deletes a provider and its key; its sessions use the
// default again.
func (p *Providers) RemoveProvider(id string) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error { return c.RemoveProvider(ctx, id) })
}

// SetDefaultProvider makes id the provider of new sessions.
func (p *Providers) SetDefaultProvider(id string) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error { return c.SetDefaultProvider(ctx, id) })
}

// TestProvider sends one minimal request with the form's settings (apiKey
// "" uses the key saved for in.id) and reports the outcome with a stable
// code.
func (p *Providers) TestProvider(in providers.Profile, apiKey string) (hostcore.ProviderTestResult, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (hostcore.ProviderTestResult, error) {
		return c.TestProvider(ctx, in, apiKey, 0), nil
	})
}

// ListProviderModels asks the server of the form's settings (apiKey "" uses
// the saved key) which models it lists; a failure is a result with a code.
func (p *Providers) ListProviderModels(in providers.Profile, apiKey string) (hostcore.ProviderModelList, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (hostcore.ProviderModelList, error) {
		return c.ListProviderModels(ctx, in, apiKey, 0), nil
	})
}

// GetSessionProvider returns the provider a session chose ("" = the default).
func (p *Providers) GetSessionProvider(sessionID string) (string, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (string, error) { return c.SessionProvider(ctx, sessionID) })
}

// SetSessionProvider chooses the provider of a session's next turns; ""
// follows the default.
func (p *Providers) SetSessionProvider(sessionID, providerID string) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error {
		return c.SetSessionProvider(ctx, sessionID, providerID)
	})
}

// SpendPerDay returns the model responses of the last 30 days summed by
// local day and provider, newest first (Settings → Models).
func (p *Providers) SpendPerDay() ([]agent.DaySpend, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) ([]agent.DaySpend, error) { return c.SpendPerDay(ctx) })
}
