package skills

import (
	"slices"
)

// Limits of the format and of one catalog.
const (
	MaxName        = 64
	MaxDescription = 1024
	// MaxSkills is how many skills one catalog holds; later ones (in
	// precedence order) are listed with ReasonOverLimit.
	MaxSkills = 64
	// MaxFileSize bounds SKILL.md (front matter and body) at 128 KiB.
	MaxFileSize = 128 << 10
)

// Source says where a skill comes from. The values are API (CLI, bindings).
type Source string

const (
	SourceBuiltin Source = "builtin"
	SourceUser    Source = "user"
	SourceProject Source = "project"
	// SourcePlugin is an enabled plugin's skills/ folder, read after every
	// other source: a plugin never replaces a skill of the same name.
	SourcePlugin Source = "plugin"
)

// Reason is why a file is not a usable skill. The values are API: add,
// never rename.
type Reason string

const (
	ReasonNoSkillFile    Reason = "missing_skill_md"     // a folder without SKILL.md
	ReasonNotSkill       Reason = "not_a_skill"          // a file that is neither a folder nor .md
	ReasonUnreadable     Reason = "unreadable"           // the file or folder cannot be read
	ReasonTooLarge       Reason = "too_large"            // SKILL.md over MaxFileSize
	ReasonNotText        Reason = "not_utf8"             // not UTF-8 text
	ReasonFrontMatter    Reason = "invalid_front_matter" // missing, unterminated or not YAML key: value lines
	ReasonName           Reason = "invalid_name"         // not lowercase letters, digits and -, or over 64
	ReasonDescription    Reason = "missing_description"  // no description
	ReasonDescriptionLen Reason = "description_too_long" // over MaxDescription characters
	ReasonField          Reason = "invalid_field"        // a known field with a wrong type
	ReasonLinkOutside    Reason = "link_outside_source"  // a link leading out of its source folder
	ReasonShadowed       Reason = "shadowed"             // another skill of this name takes precedence
	ReasonOverLimit      Reason = "over_limit"           // beyond MaxSkills
)

// Skill is one usable skill.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// DisableModelInvocation keeps the skill out of the model's catalog:
	// only the user can invoke it, with /skill:<name>.
	DisableModelInvocation bool   `json:"disableModelInvocation,omitempty"`
	Source                 Source `json:"source"`
	// Path is SKILL.md or the single .md file ("" for a builtin).
	Path string `json:"path,omitempty"`
	// Dir is the skill's folder, canonical (links resolved): the read-only
	// root its files are read from. "" for a single-file or builtin skill,
	// which has no folder of its own (its neighbours are other skills).
	Dir  string `json:"dir,omitempty"`
	Body string `json:"-"`
}

// Problem is a file that is not a usable skill, with why.
type Problem struct {
	Path    string `json:"path"`
	Name    string `json:"name,omitempty"` // the skill's name when it got that far
	Source  Source `json:"source"`
	Reason  Reason `json:"reason"`
	Message string `json:"message"`
}

// Set is the outcome of Load: the skills in effect, in precedence order,
// and every problem met.
type Set struct {
	Skills   []Skill   `json:"skills"`
	Problems []Problem `json:"problems"`
}

// Lookup returns the skill in effect named name.
func (s Set) Lookup(name string) (Skill, bool) {
	i := slices.IndexFunc(s.Skills, func(k Skill) bool { return k.Name == name })
	if i < 0 {
		return Skill{}, false
	}
	return s.Skills[i], true
}

// ModelVisible are the skills the model's catalog lists: those without
// disable-model-invocation.
func (s Set) ModelVisible() []Skill {
	var out []Skill
	for _, k := range s.Skills {
		if !k.DisableModelInvocation {
			out = append(out, k)
		}
	}
	return out
}

// Folders are the skills' folders, the read-only roots tools may read.
func (s Set) Folders() []string {
	var out []string
	for _, k := range s.Skills {
		if k.Dir != "" {
			out = append(out, k.Dir)
		}
	}
	return out
}
