package main

import (
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// Saved model providers (Settings → Models) and each session's choice. No
// method here ever returns an API key: a provider says only whether one is
// saved and where ("keychain" or the key file's path).

// ListProviders returns the saved providers and where a new key would go.
func (a *App) ListProviders() (hostcore.ProviderList, error) {
	c, err := a.ready()
	if err != nil {
		return hostcore.ProviderList{}, err
	}
	return c.ListProviders(a.bg())
}

// SaveProvider adds (empty id) or updates a provider; apiKey "" keeps the
// saved key.
func (a *App) SaveProvider(in providers.Profile, apiKey string) (providers.Profile, error) {
	c, err := a.ready()
	if err != nil {
		return providers.Profile{}, err
	}
	p, err := c.SaveProvider(a.bg(), in, apiKey)
	if err == nil {
		c.Emit(api.EventProvidersChanged, nil)
	}
	return p, err
}

// RemoveProvider deletes a provider and its key; its sessions use the
// default again.
func (a *App) RemoveProvider(id string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	err = c.RemoveProvider(a.bg(), id)
	if err == nil {
		c.Emit(api.EventProvidersChanged, nil)
	}
	return err
}

// SetDefaultProvider makes id the provider of new sessions.
func (a *App) SetDefaultProvider(id string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	err = c.SetDefaultProvider(a.bg(), id)
	if err == nil {
		c.Emit(api.EventProvidersChanged, nil)
	}
	return err
}

// TestProvider sends one minimal request with the form's settings (apiKey
// "" uses the key saved for in.id) and reports the outcome with a stable
// code.
func (a *App) TestProvider(in providers.Profile, apiKey string) (hostcore.ProviderTestResult, error) {
	c, err := a.ready()
	if err != nil {
		return hostcore.ProviderTestResult{}, err
	}
	return c.TestProvider(a.bg(), in, apiKey, 0), nil
}

// GetSessionProvider returns the provider a session chose ("" = the default).
func (a *App) GetSessionProvider(sessionID string) (string, error) {
	c, err := a.ready()
	if err != nil {
		return "", err
	}
	return c.SessionProvider(a.bg(), sessionID)
}

// SetSessionProvider chooses the provider of a session's next turns; ""
// follows the default.
func (a *App) SetSessionProvider(sessionID, providerID string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	return c.SetSessionProvider(a.bg(), sessionID, providerID)
}
