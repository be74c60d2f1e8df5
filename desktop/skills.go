package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Skills lists the skills a project's sessions see (issue 18), for the
// composer's / menu: name, description, source and problems.
type Skills struct{ h Handle }

// ListSkills lists the skills projectID's sessions see ("" = the builtin
// and user ones only), with every file that is not a usable skill.
func (s *Skills) ListSkills(projectID string) (api.SkillList, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.SkillList, error) {
		return c.ListSkills(ctx, projectID)
	})
}
