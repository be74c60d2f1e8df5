package session

import (
	"context"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// promptTitleRunes bounds a title taken from a prompt: what the sidebar
// shows on one line.
const promptTitleRunes = 60

// PromptTitle is a session title from a prompt's opening words: the first
// line with text, white space collapsed, Markdown markers at its start
// dropped, cut at a word boundary. "" when the prompt has no words.
func PromptTitle(prompt string) string {
	var line string
	for l := range strings.SplitSeq(prompt, "\n") {
		if l = strings.Join(strings.Fields(l), " "); strings.Trim(l, "#>*-` ") != "" {
			line = l
			break
		}
	}
	line = strings.TrimLeft(line, "#>*-` ")
	if len([]rune(line)) <= promptTitleRunes {
		return line
	}
	cut := truncate.Runes(line, promptTitleRunes)
	if i := strings.LastIndexByte(cut, ' '); i > promptTitleRunes/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + truncate.Ellipsis
}

// TitleFromPrompt replaces a session's placeholder title with one from
// prompt; changed is false when the session already has a real title (a
// rename by the user, or an earlier prompt's).
func (s *Service) TitleFromPrompt(ctx context.Context, id, prompt string) (ss api.Session, changed bool, err error) {
	title := PromptTitle(prompt)
	if title == "" {
		return api.Session{}, false, nil
	}
	res, err := s.db.ExecContext(ctx, "UPDATE sessions SET title = ?, title_auto = 0, updated_at = ? WHERE id = ? AND title_auto = 1",
		title, s.nowMs(), id)
	if err != nil {
		return api.Session{}, false, storageErr(err, "title the session")
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return api.Session{}, false, nil
	}
	ss, err = s.Get(ctx, id)
	return ss, err == nil, err
}
