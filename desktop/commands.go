package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Commands is the composer's custom slash commands (issue 18): prompt
// templates from the session's project and the user's folders.
type Commands struct{ h Handle }

// ListSlashCommands lists every command file sessionID's composer sees:
// in effect, replaced and unusable (with the reason).
func (s *Commands) ListSlashCommands(sessionID string) (api.SlashCommandList, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.SlashCommandList, error) {
		return c.ListSlashCommands(ctx, sessionID)
	})
}

// ExpandSlashCommand fills the command name with args; the composer sends
// the returned prompt, so the transcript shows the template expanded.
func (s *Commands) ExpandSlashCommand(sessionID, name, args string) (api.SlashCommandExpansion, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.SlashCommandExpansion, error) {
		return c.ExpandSlashCommand(ctx, sessionID, name, args)
	})
}

// RequestCompaction asks for the session's context to be compacted at its
// next request boundary, as the new_context tool does (/compact).
func (s *Commands) RequestCompaction(sessionID string) error {
	return do(s.h, func(ctx context.Context, c *hostcore.Core) error { return c.RequestCompaction(ctx, sessionID) })
}
