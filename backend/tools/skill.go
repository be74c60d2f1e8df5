package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/skills"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Skill is the tool that loads a skill's instructions (issue 18). It is
// never deferred (spec §2.1): the agent offers it whenever the session's
// skill catalog is not empty, or the user invoked a skill with /skill:.
const Skill = "Skill"

// SkillLookup finds the skills a session sees; host-core implements it.
type SkillLookup func(ctx context.Context, sessionID string) (skills.Set, error)

// SkillInvoker is a Turn that knows which skill the user invoked with
// /skill:<name> in its prompt ("" when none): that skill may be loaded even
// when it has disable-model-invocation, for that turn only.
type SkillInvoker interface {
	InvokedSkill() string
}

// NewSkillTool returns the Skill tool reading skills through lookup.
func NewSkillTool(lookup SkillLookup) Tool { return skillTool{lookup: lookup} }

type skillTool struct{ lookup SkillLookup }

func (skillTool) Spec() Spec {
	return Spec{
		Name: Skill,
		Description: "Load a skill: its instructions, and the folder its other files are in. Call it with a skill's name from the " +
			"system prompt's Skills list when a task matches its description (or when the user asks for it), then follow what it returns. " +
			"The files of a skill's folder can be read with Read, Glob and Grep by absolute path; they are read-only. " +
			"A skill longer than one result comes in pages: its result names the offset to call Skill with for the rest.",
		Class: permission.ClassRead, Risk: permission.Low, Shape: NoPath, Timeout: 10 * time.Second, Parallel: true,
		Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"The skill's name, exactly as listed."},` +
			`"offset":{"type":"integer","minimum":1,"description":"The line of the instructions to start at (default 1); only for the rest of a long skill, as its result says."}},` +
			`"required":["name"],"additionalProperties":false}`),
	}
}

func (t skillTool) Run(ctx context.Context, c *Call) Result {
	var a struct {
		Name   string `json:"name"`
		Offset int    `json:"offset"`
	}
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "Skill needs {\"name\": \"<skill name>\"} and, for the rest of a long skill, an integer \"offset\""))
	}
	set, err := t.lookup(ctx, c.SessionID)
	if err != nil {
		return Failure(err)
	}
	name := strings.TrimPrefix(strings.TrimSpace(a.Name), "/skill:")
	k, ok := set.Lookup(name)
	if !ok {
		return Failure(errs.New(errs.SkillNotFound, "no skill named %q is loaded for this session; the skills there are: %s",
			clipName(a.Name), skillNames(set)).With("field", "name"))
	}
	if k.DisableModelInvocation {
		inv, _ := c.Turn.(SkillInvoker)
		if inv == nil || inv.InvokedSkill() != k.Name {
			return Failure(errs.New(errs.SkillNotInvocable,
				"the skill %q is one only the user starts (disable-model-invocation); do not call it yourself. The user can type /skill:%s", k.Name, k.Name).
				With("field", "name"))
		}
	}
	page, err := pageSkill(k, a.Offset)
	if err != nil {
		return Failure(err)
	}
	res := Result{OK: true, Content: page.text, Fields: map[string]any{"name": k.Name, "source": string(k.Source)}}
	if k.Dir != "" {
		res.Root, res.Path = "skill", k.Dir
		res.Fields["folder"] = k.Dir
	}
	if k.Path != "" {
		res.Fields["file"] = k.Path
	}
	if page.paged {
		res.Fields["offset"], res.Fields["totalLines"] = page.first, page.total
	}
	if page.next > 0 {
		res.Truncated = true
		res.Notice = fmt.Sprintf("the skill continues after line %d of %d: call Skill with {\"name\": %q, \"offset\": %d} for the rest", page.next-1, page.total, k.Name, page.next)
	}
	return res
}

// skillHeader is what every page of a skill starts with: where it is.
func skillHeader(k skills.Skill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Skill: %s\n", k.Name)
	switch {
	case k.Dir != "":
		fmt.Fprintf(&b, "Folder: %s\nPaths in the instructions are relative to this folder. Read, Glob and Grep read its files by absolute path; they are read-only.\n", k.Dir)
	case k.Path != "":
		fmt.Fprintf(&b, "File: %s (a single-file skill: no folder of its own).\n", k.Path)
	default:
		b.WriteString("Built into PI-Desktop.\n")
	}
	b.WriteString("\n")
	return b.String()
}

// skillNames lists the skills the model may call, bounded.
func skillNames(set skills.Set) string {
	var names []string
	for _, k := range set.ModelVisible() {
		names = append(names, k.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return truncateList(names, 40)
}

func truncateList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(", … (%d more)", len(names)-n)
}

func clipName(s string) string { return truncate.RunesEllipsis(s, 80) }
