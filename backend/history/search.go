// Package history finds and exports past work: a search across every
// session's messages and tool calls (an FTS5 trigram index the transcript's
// own triggers keep, migration 0020), and a session's export as Markdown or
// lossless JSON with secrets redacted (spec §8).
package history

import (
	"context"
	"database/sql"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Hit kinds.
const (
	KindMessage  = "message"
	KindToolCall = "tool_call"
)

// DefaultLimit is how many hits a search returns unless told otherwise;
// MaxLimit bounds what a caller may ask for.
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// minTerm is the shortest term the trigram index can look up.
const minTerm = 3

// Query is a parsed search: terms the index looks up, and shorter ones
// checked on the matches.
type Query struct {
	match string   // an FTS5 expression: every long term as a phrase
	short []string // terms under minTerm characters
}

// ParseQuery splits text into terms on white space. Every term must
// appear (case-insensitive, anywhere in a word); quotes and FTS5 syntax
// are literal text.
func ParseQuery(text string) (Query, error) {
	var q Query
	var phrases []string
	for _, term := range strings.Fields(text) {
		if utf8.RuneCountInString(term) < minTerm {
			q.short = append(q.short, term)
			continue
		}
		phrases = append(phrases, `"`+strings.ReplaceAll(term, `"`, `""`)+`"`)
	}
	if len(phrases) == 0 {
		return Query{}, errs.New(errs.InvalidArgument, "type at least %d characters of a word to search", minTerm)
	}
	q.match = strings.Join(phrases, " AND ")
	return q, nil
}

// Search finds the newest messages and tool calls that contain every term
// of text, at most limit of them (DefaultLimit when limit <= 0).
func Search(ctx context.Context, db *sql.DB, text string, limit int) ([]api.SearchHit, error) {
	q, err := ParseQuery(text)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	where := "search_index MATCH ?"
	args := []any{q.match}
	for _, s := range q.short {
		where += ` AND d.body LIKE ? ESCAPE '\'`
		args = append(args, "%"+escapeLike(s)+"%")
	}
	args = append(args, limit)
	// The index walks its rowids newest first and stops at the limit, so a
	// common word costs no more than a rare one.
	rows, err := db.QueryContext(ctx, `
		SELECT d.kind, d.session_id, COALESCE(s.title, ''), COALESCE(s.project_id, ''), d.message_id, d.created_at,
		       highlight(search_index, 0, char(1), char(2))
		  FROM search_index
		  JOIN search_docs AS d ON d.id = search_index.rowid
		  LEFT JOIN sessions AS s ON s.id = d.session_id
		 WHERE `+where+`
		 ORDER BY search_index.rowid DESC
		 LIMIT ?`, args...)
	if err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "searching past sessions failed: %v; try again, or restart PI-Desktop", err)
	}
	defer rows.Close()
	hits := []api.SearchHit{}
	for rows.Next() {
		var h api.SearchHit
		var marked string
		if err := rows.Scan(&h.Kind, &h.SessionID, &h.SessionTitle, &h.ProjectID, &h.MessageID, &h.CreatedAt, &marked); err != nil {
			return nil, errs.Wrap(err, errs.StorageUnavailable, "reading search results failed: %v; try again", err)
		}
		h.Snippet = snippet(marked)
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "reading search results failed: %v; try again", err)
	}
	return hits, nil
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
