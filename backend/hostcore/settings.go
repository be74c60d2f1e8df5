package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
)

// Settings returns the settings.
func (c *Core) Settings(ctx context.Context) (api.Settings, error) {
	return c.settings.Get(ctx)
}

// UpdateSettings validates and stores the whole settings set, and
// announces the stored one (settings:changed).
func (c *Core) UpdateSettings(ctx context.Context, s api.Settings) (api.Settings, error) {
	out, err := c.settings.Update(ctx, s)
	if err == nil {
		c.emit(api.EventSettingsChanged, out)
	}
	return out, err
}
