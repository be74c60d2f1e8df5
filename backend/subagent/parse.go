package subagent

import (
	"errors"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/frontmatter"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// File says where a definition's bytes come from.
type File struct {
	Source Source
	// Path is shown to the user and recorded in Definition.Path.
	Path string
	// Claude marks a .claude/agents file, whose Claude Code spellings
	// (permissionMode) are read for compatibility.
	Claude bool
}

// stem is the file's name without its folder and .md.
func (f File) stem() string {
	base := path.Base(filepath.ToSlash(f.Path))
	return strings.TrimSuffix(base, path.Ext(base))
}

var bareStar = regexp.MustCompile(`(?m)^tools:[ \t]*\*[ \t]*\r?$`)

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// ValidName reports whether name can name a subagent: lowercase letters,
// digits and -, at most MaxName, starting with a letter or digit.
func ValidName(name string) bool { return len(name) <= MaxName && validName.MatchString(name) }

// knownKeys are the front matter keys a definition may have.
var knownKeys = []string{"name", "description", "tools", "disallowedTools", "model", "permission", "maxTurns"}

// Parse reads one definition. An error means the file cannot be used at all
// (its message is the reason the list shows); anything it can drop or fix
// instead becomes one of the definition's warnings.
func Parse(data []byte, f File, profiles []ProfileRef) (Definition, error) {
	doc, err := frontmatter.Parse(data)
	if errors.Is(err, frontmatter.ErrSyntax) && bareStar.Match(data) {
		// In YAML a bare * starts an alias, so the easy mistake reads as
		// nonsense to the library.
		return Definition{}, fmt.Errorf("%w; write tools: \"*\" with the quotes", err)
	}
	if err != nil {
		return Definition{}, err
	}
	if !doc.HasFrontMatter {
		return Definition{}, errors.New("no front matter: start the file with a --- block holding at least a description")
	}
	p := parser{def: Definition{Source: f.Source, Path: f.Path, MaxTurns: DefaultMaxTurns, Permission: PermissionInherit}, fields: doc.Fields}
	if err := p.name(f.stem()); err != nil {
		return Definition{}, err
	}
	if err := p.description(); err != nil {
		return Definition{}, err
	}
	if err := p.prompt(doc.Body); err != nil {
		return Definition{}, err
	}
	p.unknownKeys(doc.Keys, f.Claude)
	p.tools(f.Claude)
	p.model(profiles)
	p.permission(f)
	p.maxTurns()
	return p.def, nil
}

type parser struct {
	def    Definition
	fields map[string]any
}

func (p *parser) warn(format string, a ...any) {
	p.def.Warnings = append(p.def.Warnings, fmt.Sprintf(format, a...))
}

func (p *parser) name(stem string) error {
	v, ok := p.fields["name"]
	if !ok || v == nil {
		if !ValidName(stem) {
			return fmt.Errorf("no name, and the file name %q is not a valid one: add name: with lowercase letters, digits and - (at most %d)", stem, MaxName)
		}
		p.def.Name = stem
		p.warn("no name: named %q after the file", stem)
		return nil
	}
	s, isString := v.(string)
	if !isString || !ValidName(s) {
		return fmt.Errorf("name %s is not valid: use lowercase letters, digits and - (at most %d)", quote(v), MaxName)
	}
	p.def.Name = s
	return nil
}

func (p *parser) description() error {
	s, _ := p.fields["description"].(string)
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return errors.New("no description: add description: saying when the agent should use this subagent")
	case utf8.RuneCountInString(s) > MaxDescription:
		return fmt.Errorf("the description has %d characters; the limit is %d", utf8.RuneCountInString(s), MaxDescription)
	}
	p.def.Description = s
	return nil
}

func (p *parser) prompt(body string) error {
	body = strings.TrimSpace(body)
	switch {
	case body == "":
		return errors.New("no prompt: write the delegate's instructions below the front matter")
	case len(body) > MaxPrompt:
		return fmt.Errorf("the prompt has %d bytes; the limit is %d", len(body), MaxPrompt)
	}
	p.def.Prompt = body
	return nil
}

func (p *parser) unknownKeys(keys []string, claude bool) {
	var unknown []string
	for _, k := range keys {
		if !slices.Contains(knownKeys, k) && (k != "permissionMode" || !claude) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		p.warn("ignored unknown keys: %s", strings.Join(unknown, ", "))
	}
}

// tokens reads a list of names written as a YAML list or as one
// comma-separated string (Claude Code's "Read, Grep, Glob").
func (p *parser) tokens(key string) (list []string, present bool) {
	v, ok := p.fields[key]
	if !ok || v == nil {
		return nil, false
	}
	switch v := v.(type) {
	case string:
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				list = append(list, t)
			}
		}
	case []any:
		var bad []string
		for _, e := range v {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				list = append(list, strings.TrimSpace(s))
			} else {
				bad = append(bad, quote(e))
			}
		}
		if len(bad) > 0 {
			p.warn("%s: dropped entries that are not tool names: %s", key, strings.Join(bad, ", "))
		}
	default:
		p.warn("%s must be a list of tool names or a comma-separated string; ignored %s", key, quote(v))
		return nil, false
	}
	return list, true
}

func (p *parser) tools(claude bool) {
	written, present := p.tokens("tools")
	spec := ToolSpec{Written: written}
	var names, unknown []string
	for _, t := range written {
		switch {
		case t == AllToken:
			names = append(names, workingTools[:]...)
		case strings.EqualFold(t, InheritToken):
			spec.Inherit = true
		case canonicalTool(t) != "":
			names = append(names, canonicalTool(t))
		default:
			unknown = append(unknown, t)
		}
	}
	if len(unknown) > 0 {
		hint := ""
		if slices.ContainsFunc(unknown, func(t string) bool { return strings.HasPrefix(t, "mcp_") || strings.HasPrefix(t, "plugin_") }) {
			hint = "; MCP and plugin tools come only through inherit"
		}
		p.warn("dropped unknown tools: %s (a definition names %s, \"*\" for all of them, or inherit%s)",
			strings.Join(unknown, ", "), strings.Join(workingTools[:], ", "), hint)
	}
	if excluded, ok := p.tokens("disallowedTools"); ok {
		for _, t := range excluded {
			if c := canonicalTool(t); c != "" {
				t = c
			}
			if !slices.Contains(spec.Exclude, t) {
				spec.Exclude = append(spec.Exclude, t)
			}
		}
		names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(spec.Exclude, n) })
	}
	spec.Names = sortWorking(names)
	if len(spec.Names) == 0 && !spec.Inherit {
		spec.Names = DefaultTools()
		switch {
		case len(written) > 0:
			p.warn("no usable tools left: it gets Read, Glob and Grep")
		case !present && claude:
			p.warn("no tools: it gets Read, Glob and Grep (Claude Code would give it every tool; write tools: inherit for that)")
		}
		spec.Names = slices.DeleteFunc(spec.Names, func(n string) bool { return slices.Contains(spec.Exclude, n) })
	}
	p.def.Tools = spec
}

func (p *parser) model(profiles []ProfileRef) {
	v, ok := p.fields["model"]
	if !ok || v == nil {
		return
	}
	s, isString := v.(string)
	if !isString {
		p.warn("model %s is not a name: it uses the session's model", quote(v))
		return
	}
	s = strings.TrimSpace(s)
	p.def.ModelSpec = s
	if s == "" || s == InheritToken {
		return
	}
	id, found := ResolveModel(s, profiles)
	if !found {
		p.warn("model %q is not a saved provider (by id, name or model, or sonnet/opus/haiku for an Anthropic one): it uses the session's model", s)
		return
	}
	p.def.Model = id
}

// claudeModes maps Claude Code's permissionMode values.
var claudeModes = map[string]Permission{
	"default":           PermissionAsk,
	"acceptEdits":       PermissionAcceptEdits,
	"bypassPermissions": PermissionAuto,
}

func (p *parser) permission(f File) {
	declared, key := Permission(""), ""
	if v, ok := p.fields["permission"]; ok && v != nil {
		key = "permission"
		s, _ := v.(string)
		switch perm := Permission(strings.TrimSpace(s)); perm {
		case PermissionInherit, PermissionAsk, PermissionAcceptEdits, PermissionAuto:
			declared = perm
		default:
			p.warn("permission %s is not one of inherit, ask, accept-edits, auto: it uses the session's mode", quote(v))
		}
	}
	if v, ok := p.fields["permissionMode"]; ok && v != nil && f.Claude {
		s, _ := v.(string)
		mapped, known := claudeModes[s]
		switch {
		case key != "":
			p.warn("permissionMode %s ignored: permission is set", quote(v))
		case s == "plan":
			p.warn("permissionMode plan dropped: a delegate cannot run in Plan mode; it uses the session's mode")
		case !known:
			p.warn("permissionMode %s is not one of default, acceptEdits, bypassPermissions: it uses the session's mode", quote(v))
		default:
			declared, key = mapped, "permissionMode "+s
		}
	}
	if declared == "" || declared == PermissionInherit {
		return
	}
	if f.Source == SourceProject {
		// A cloned repository never upgrades (or sets) permissions.
		p.warn("%s dropped: a project's definition cannot set a permission scope; its delegate uses the session's mode", describe(key, declared))
		return
	}
	p.def.Permission = declared
}

func describe(key string, perm Permission) string {
	if key == "permission" {
		return "permission " + string(perm)
	}
	return key + " (" + string(perm) + ")"
}

func (p *parser) maxTurns() {
	v, ok := p.fields["maxTurns"]
	if !ok || v == nil {
		return
	}
	var n int
	switch v := v.(type) {
	case int:
		n = v
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > 1e9 {
			p.warn("maxTurns %s is not a whole number: using %d", quote(v), DefaultMaxTurns)
			return
		}
		n = int(v)
	default:
		p.warn("maxTurns %s is not a whole number: using %d", quote(v), DefaultMaxTurns)
		return
	}
	switch {
	case n < 1:
		p.warn("maxTurns %d is below 1: using %d", n, DefaultMaxTurns)
	case n > MaxMaxTurns:
		p.warn("maxTurns %d is over the limit: using %d", n, MaxMaxTurns)
		p.def.MaxTurns = MaxMaxTurns
	default:
		p.def.MaxTurns = n
	}
}

// quote shows a YAML value in a message, bounded.
func quote(v any) string {
	s := fmt.Sprintf("%q", fmt.Sprint(v))
	if _, isString := v.(string); !isString {
		s = fmt.Sprint(v)
	}
	return truncate.RunesEllipsis(s, 80)
}
