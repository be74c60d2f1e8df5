package skills

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/frontmatter"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// ValidName reports whether name can name a skill: lowercase letters,
// digits and -, starting with a letter or digit, at most MaxName.
func ValidName(name string) bool { return len(name) <= MaxName && validName.MatchString(name) }

// ParseError is why Parse refused a file.
type ParseError struct {
	Reason  Reason
	Message string
}

func (e *ParseError) Error() string { return e.Message }

func refuse(r Reason, format string, a ...any) *ParseError {
	return &ParseError{Reason: r, Message: fmt.Sprintf(format, a...)}
}

// Parse reads one skill file. fallback names the skill when its front
// matter has no name (the folder's name, or a single file's name without
// .md), as other agents do. The returned skill has Name, Description,
// DisableModelInvocation and Body set.
func Parse(data []byte, fallback string) (Skill, *ParseError) {
	if len(data) > MaxFileSize {
		return Skill{}, refuse(ReasonTooLarge, "the file has %d bytes; a skill file holds at most %d (128 KiB): move detail into files beside SKILL.md", len(data), MaxFileSize)
	}
	if !utf8.Valid(data) {
		return Skill{}, refuse(ReasonNotText, "the file is not UTF-8 text; save it as UTF-8")
	}
	doc, err := frontmatter.Parse(data)
	switch {
	case errors.Is(err, frontmatter.ErrTooLarge):
		return Skill{}, refuse(ReasonTooLarge, "%v", err)
	case err != nil:
		return Skill{}, refuse(ReasonFrontMatter, "%v", err)
	case !doc.HasFrontMatter:
		return Skill{}, refuse(ReasonFrontMatter, "no front matter: start the file with a --- block holding name: and description:, and end it with ---")
	}
	k := Skill{Body: strings.TrimSpace(doc.Body)}
	switch v := doc.Fields["name"].(type) {
	case nil:
		if !ValidName(fallback) {
			return Skill{}, refuse(ReasonName, "no name, and %q is not a valid one: add name: with lowercase letters, digits and - (at most %d)", fallback, MaxName)
		}
		k.Name = fallback
	case string:
		if !ValidName(v) {
			return Skill{}, refuse(ReasonName, "name %q is not valid: use lowercase letters, digits and - (at most %d characters)", clip(v), MaxName)
		}
		k.Name = v
	default:
		return Skill{}, refuse(ReasonName, "name is not text: write name: with lowercase letters, digits and -")
	}
	switch v := doc.Fields["description"].(type) {
	case string:
		k.Description = strings.TrimSpace(v)
	case nil:
	default:
		return Skill{}, refuse(ReasonField, "description is not text: write description: followed by one or two sentences")
	}
	if k.Description == "" {
		return Skill{}, refuse(ReasonDescription, "no description: add description: saying what the skill does and when to use it")
	}
	if n := utf8.RuneCountInString(k.Description); n > MaxDescription {
		return Skill{}, refuse(ReasonDescriptionLen, "the description has %d characters; at most %d are allowed: shorten it and move detail into the body", n, MaxDescription)
	}
	switch v := doc.Fields["disable-model-invocation"].(type) {
	case nil:
	case bool:
		k.DisableModelInvocation = v
	default:
		return Skill{}, refuse(ReasonField, "disable-model-invocation must be true or false, not %q", clip(fmt.Sprint(v)))
	}
	return k, nil
}

// stem is a file name without its folder and extension.
func stem(name string) string {
	base := path.Base(name)
	return strings.TrimSuffix(base, path.Ext(base))
}

// clip bounds text echoed from a file into a message.
func clip(s string) string { return truncate.RunesEllipsis(s, 80) }
