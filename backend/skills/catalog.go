package skills

import (
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// CharsPerToken is the token estimate the agent uses for context budgets.
const CharsPerToken = 4

// CatalogShare is the part of the model's context window the catalog may
// take, in percent.
const CatalogShare = 2

// Catalog is the system prompt's skills section.
type Catalog struct {
	Text    string // "" when no skill is listed and none was left out
	Listed  int
	LeftOut int
}

// CatalogBudget is how many tokens the catalog may take for a model with
// contextWindow tokens (at least enough for the header and one short line).
func CatalogBudget(contextWindow int) int {
	return max(contextWindow*CatalogShare/100, 200)
}

const catalogHeader = "\n# Skills\n" +
	"Skills are instructions for particular kinds of work, written by the user or shipped with PI-Desktop. " +
	"When a task matches a skill's description, call Skill with its name before you start and follow what it returns. " +
	"Files in a skill's folder (the result names it) can be read with Read, Glob and Grep, never changed.\n"

// BuildCatalog lists the model-visible skills of list (name and description,
// one line each, in order) within maxTokens estimated tokens; what does not
// fit is counted in a last line. Skills with disable-model-invocation are
// never listed nor counted: only the user invokes them.
func BuildCatalog(list []Skill, maxTokens int) Catalog {
	var visible []Skill
	for _, k := range list {
		if !k.DisableModelInvocation {
			visible = append(visible, k)
		}
	}
	if len(visible) == 0 {
		return Catalog{}
	}
	budget := maxTokens*CharsPerToken - len(catalogHeader)
	var b strings.Builder
	b.WriteString(catalogHeader)
	c := Catalog{}
	for i, k := range visible {
		line := "- " + k.Name + ": " + oneLine(k.Description) + "\n"
		// Keep room for the "left out" line unless this is the last skill.
		reserve := 0
		if i < len(visible)-1 {
			reserve = len(leftOutLine(len(visible) - i))
		}
		if len(line)+reserve > budget {
			c.LeftOut = len(visible) - i
			b.WriteString(leftOutLine(c.LeftOut))
			break
		}
		budget -= len(line)
		b.WriteString(line)
		c.Listed++
	}
	c.Text = b.String()
	return c
}

func leftOutLine(n int) string {
	return fmt.Sprintf("- … %d more skills are not listed here to keep this prompt short; the user can name one, or invoke it with /skill:<name>.\n", n)
}

// oneLine collapses s to one line of at most MaxDescription characters.
func oneLine(s string) string {
	return truncate.RunesEllipsis(strings.Join(strings.Fields(s), " "), MaxDescription)
}
