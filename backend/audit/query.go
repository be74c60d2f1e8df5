package audit

import (
	"context"
	"database/sql"
	"regexp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Paging bounds of Query: a session's audit can hold many thousands of rows,
// so the UI reads it a page at a time.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
	// maxFacetValues bounds each list of distinct values in a Summary.
	maxFacetValues = 100
)

// Result filters besides an error code.
const (
	ResultOK     = "ok"
	ResultFailed = "failed"
)

// Filter selects a session's audit rows. Empty fields match everything.
type Filter struct {
	Tool     string `json:"tool"`
	Decision string `json:"decision"`
	// Result is "ok", "failed" (any error) or one error code, e.g. "TOOL_DENIED".
	Result string `json:"result"`
	// Cursor continues after a page: pass the previous Page.NextCursor; 0
	// starts at the newest row.
	Cursor int64 `json:"cursor"`
	// Limit is the page size: 0 means DefaultPageSize, larger than
	// MaxPageSize is cut to it.
	Limit int `json:"limit"`
}

// Page is one page of rows, newest first.
type Page struct {
	Rows []Row `json:"rows"`
	// NextCursor fetches the next (older) page; 0 when this is the last.
	NextCursor int64 `json:"nextCursor"`
	// Summary comes with the first page (Cursor 0) only.
	Summary *Summary `json:"summary,omitempty"`
}

// Summary describes the session's whole audit for the filter controls.
type Summary struct {
	// Matching counts the rows the filter selects.
	Matching int `json:"matching"`
	// The distinct values in the session (at most 100 each), sorted.
	Tools      []string `json:"tools"`
	Decisions  []string `json:"decisions"`
	ErrorCodes []string `json:"errorCodes"`
}

var codePattern = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,63}$`)

// Query returns one page of a session's rows, newest first. Rows still
// queued in a Writer are not seen: flush it first.
func Query(ctx context.Context, db *sql.DB, sessionID string, f Filter) (Page, error) {
	if f.Cursor < 0 || f.Limit < 0 {
		return Page{}, errs.New(errs.InvalidArgument, "the audit page cursor and limit cannot be negative; pass 0 for the first page and the default size").With("field", "cursor")
	}
	if f.Result != "" && f.Result != ResultOK && f.Result != ResultFailed && !codePattern.MatchString(f.Result) {
		return Page{}, errs.New(errs.InvalidArgument, "result filter %q is not ok, failed or an error code like TOOL_DENIED", f.Result).With("field", "result")
	}
	limit := f.Limit
	if limit == 0 {
		limit = DefaultPageSize
	}
	limit = min(limit, MaxPageSize)

	where, args := ` WHERE session_id = ?`, []any{sessionID}
	if f.Tool != "" {
		where += ` AND tool = ?`
		args = append(args, f.Tool)
	}
	if f.Decision != "" {
		where += ` AND decision = ?`
		args = append(args, f.Decision)
	}
	switch f.Result {
	case "":
	case ResultOK:
		where += ` AND ok = 1`
	case ResultFailed:
		where += ` AND ok = 0`
	default:
		where += ` AND error_code = ?`
		args = append(args, f.Result)
	}
	filtered := args
	if f.Cursor > 0 {
		where += ` AND id < ?`
		args = append(args[:len(args):len(args)], f.Cursor)
	}
	// One row more than the page tells whether another page follows.
	rows, err := scanRows(db.QueryContext(ctx, `SELECT `+rowColumns+` FROM audit`+where+` ORDER BY id DESC LIMIT ?`, append(args, limit+1)...))
	if err != nil {
		return Page{}, storageErr(err)
	}
	p := Page{Rows: rows}
	if p.Rows == nil {
		p.Rows = []Row{}
	}
	if len(p.Rows) > limit {
		p.Rows = p.Rows[:limit]
		p.NextCursor = p.Rows[limit-1].ID
	}
	if f.Cursor == 0 {
		s, err := summarize(ctx, db, sessionID, where, filtered)
		if err != nil {
			return Page{}, err
		}
		p.Summary = &s
	}
	return p, nil
}

func summarize(ctx context.Context, db *sql.DB, sessionID, where string, args []any) (Summary, error) {
	var s Summary
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM audit`+where, args...).Scan(&s.Matching); err != nil {
		return Summary{}, storageErr(err)
	}
	for _, d := range []struct {
		into   *[]string
		column string
	}{{&s.Tools, "tool"}, {&s.Decisions, "decision"}, {&s.ErrorCodes, "error_code"}} {
		vals, err := distinct(ctx, db, sessionID, d.column)
		if err != nil {
			return Summary{}, err
		}
		*d.into = vals
	}
	return s, nil
}

// distinct lists a column's non-empty values in a session. column is one
// of a fixed set, never user input.
func distinct(ctx context.Context, db *sql.DB, sessionID, column string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT `+column+` FROM audit WHERE session_id = ? AND `+column+` <> '' ORDER BY 1 LIMIT ?`,
		sessionID, maxFacetValues)
	if err != nil {
		return nil, storageErr(err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, storageErr(err)
		}
		out = append(out, v)
	}
	return out, storageErr(rows.Err())
}

func storageErr(err error) error {
	if err == nil {
		return nil
	}
	return errs.Wrap(err, errs.StorageUnavailable, "cannot read the audit log from the database; check free disk space and retry")
}
