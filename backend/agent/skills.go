package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/skills"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// SkillSource is the Host seam of skills (issue 18): host-core loads the
// skills a session sees. A Host without it offers no skills.
type SkillSource interface {
	Skills(ctx context.Context, sessionID string) (skills.Set, error)
}

// SkillPrefix starts a prompt that invokes a skill: "/skill:<name> [text]".
const SkillPrefix = "/skill:"

// ParseSkillInvocation splits a prompt of the form "/skill:<name> [text]"
// into the skill's name and the rest of the prompt. ok is false when the
// prompt does not start with SkillPrefix; name may then still be invalid,
// which the turn refuses with SKILL_NOT_FOUND.
func ParseSkillInvocation(prompt string) (name, text string, ok bool) {
	p := strings.TrimLeft(prompt, " \t\r\n")
	if !strings.HasPrefix(p, SkillPrefix) {
		return "", "", false
	}
	p = p[len(SkillPrefix):]
	end := strings.IndexAny(p, " \t\r\n")
	if end < 0 {
		return p, "", true
	}
	return p[:end], strings.TrimSpace(p[end:]), true
}

// skillPrompt is the prompt the model receives for a /skill: invocation:
// the user's text, then the instruction to load the skill.
func skillPrompt(name, text string) string {
	instr := fmt.Sprintf("(The user invoked the skill %q with /skill:%s. Call the Skill tool with {\"name\": %q} first, then follow its instructions", name, name, name)
	if text == "" {
		return instr + ".)"
	}
	return text + "\n\n" + instr + " for this request.)"
}

// setupSkills loads the session's skills for the turn: the system prompt's
// catalog, whether Skill is offered (a non-empty catalog, or an invoked
// skill), and the check that an invoked skill exists.
func (r *run) setupSkills(ctx context.Context) error {
	src, ok := r.a.host.(SkillSource)
	if !ok {
		if r.invokedSkill != "" {
			return errs.New(errs.SkillNotFound, "this session has no skills, so /skill:%s cannot run; send the prompt without it", r.invokedSkill)
		}
		return nil
	}
	set, err := src.Skills(ctx, r.sessionID)
	if err != nil {
		return err
	}
	cat := skills.BuildCatalog(set.Skills, skills.CatalogBudget(contextWindow(r.model)))
	r.skillCatalog = cat.Text
	r.offerSkill = cat.Listed+cat.LeftOut > 0
	if r.invokedSkill != "" {
		if _, found := set.Lookup(r.invokedSkill); !found {
			var names []string
			for _, k := range set.Skills {
				names = append(names, k.Name)
			}
			list := "none"
			if len(names) > 0 {
				list = strings.Join(names, ", ")
			}
			return errs.New(errs.SkillNotFound, "no skill named %q is loaded for this session (skills: %s); check the name, or see why a skill did not load with pi-desktop skills list",
				oneLine(r.invokedSkill, 80), oneLine(list, 600)).With("field", "prompt")
		}
		r.offerSkill = true
	}
	return nil
}

// skillCatalogFor is the catalog a session's prompt shows (the debug view).
func (a *Agent) skillCatalogFor(ctx context.Context, sessionID string, model provider.ModelInfo) string {
	src, ok := a.host.(SkillSource)
	if !ok {
		return ""
	}
	set, err := src.Skills(ctx, sessionID)
	if err != nil {
		return ""
	}
	return skills.BuildCatalog(set.Skills, skills.CatalogBudget(contextWindow(model))).Text
}

func contextWindow(m provider.ModelInfo) int {
	if m.ContextWindow > 0 {
		return m.ContextWindow
	}
	return provider.DefaultContextWindow
}

// InvokedSkill is the skill the user invoked with /skill: in this turn's
// prompt (tools.SkillInvoker): Skill may load it even when it has
// disable-model-invocation.
func (t callTurn) InvokedSkill() string { return t.r.invokedSkill }

var _ tools.SkillInvoker = callTurn{}
