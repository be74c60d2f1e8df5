package agent

import (
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"unicode"

	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// maxReferences bounds the note: a prompt naming more files lists the first.
const maxReferences = 20

// References returns the workspace-relative paths a prompt names with @
// (the composer inserts "@src/a.go", or "@\"a b.txt\"" for a name with a
// space), in order, without duplicates. Only an @ at the start or after
// white space counts, so e-mail addresses do not; absolute paths and paths
// that climb out with ".." are not workspace references and are left out.
// Nothing is read here: the model reads the files through the host.
func References(prompt string) []string {
	var out []string
	seen := map[string]bool{}
	rs := []rune(prompt)
	for i := 0; i < len(rs) && len(out) < maxReferences; i++ {
		if rs[i] != '@' || (i > 0 && !unicode.IsSpace(rs[i-1])) {
			continue
		}
		var ref string
		if i+1 < len(rs) && rs[i+1] == '"' {
			end := i + 2
			for end < len(rs) && rs[end] != '"' && rs[end] != '\n' {
				end++
			}
			if end == len(rs) || rs[end] != '"' {
				continue
			}
			ref, i = string(rs[i+2:end]), end
		} else {
			end := i + 1
			for end < len(rs) && !unicode.IsSpace(rs[end]) {
				end++
			}
			ref, i = strings.TrimRight(string(rs[i+1:end]), ".,;:!?)]}'\"`"), end-1
		}
		ref = strings.ReplaceAll(ref, `\`, "/")
		ref = strings.TrimPrefix(ref, "./")
		if !workspaceRelative(ref) || seen[ref] {
			continue
		}
		seen[ref] = true
		out = append(out, ref)
	}
	return out
}

func workspaceRelative(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.ContainsAny(p, "@\x00") {
		return false
	}
	if len(p) >= 2 && p[1] == ':' { // C:…
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}

// referenceNote tells the model which files the user pointed at; "" when
// the prompt names none.
func referenceNote(prompt string) string {
	refs := References(prompt)
	if len(refs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("[The user's message references these workspace files with @ (paths relative to the workspace root). " +
		"Read the ones you need with the Read tool before relying on them; an @word that names no file is plain text.]")
	for _, r := range refs {
		b.WriteString("\n- ")
		b.WriteString(r)
	}
	return b.String()
}

// promptMessage is a stored prompt as the model sees it: the user's text as
// typed, then the reference note. The note is derived, never stored, so the
// transcript shows exactly what the user wrote and every later request
// rebuilds the same message.
func promptMessage(content []provider.Block) provider.Message {
	m := provider.Message{Role: provider.RoleUser, Content: content}
	var text strings.Builder
	var atts []api.Attachment
	for _, b := range content {
		if b.Type == provider.BlockText {
			text.WriteString(b.Text)
			atts = append(atts, b.Attachments...)
		}
	}
	var derived []provider.Block
	if note := referenceNote(text.String()); note != "" {
		derived = append(derived, provider.Block{Type: provider.BlockText, Text: note})
	}
	if b, ok := attachmentBlock(atts); ok {
		derived = append(derived, b)
	}
	if len(derived) > 0 {
		m.Content = append(append([]provider.Block(nil), content...), derived...)
	}
	return m
}
