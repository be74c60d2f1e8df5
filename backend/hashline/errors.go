package hashline

import (
	"fmt"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Retry hints carried by EditError (contract §7): they tell the model what
// kind of next call can succeed, so it neither re-reads to fix a syntax error
// nor resends a stale edit unchanged.
const (
	RetrySameCall  = "same_call"  // the identical call can now succeed
	RetryAfterRead = "after_read" // Read the file, then rebuild the call
	RetryFixOps    = "fix_ops"    // correct the ops payload; no Read needed
	RetryNone      = ""           // retrying cannot help
)

// EditError is a structured Edit failure: the stable code, what to retry,
// one concrete next step, the live tag when one is known, and the
// per-code details of contract §7.
type EditError struct {
	Code    errs.Code
	Retry   string
	Message string
	LiveTag string
	Details map[string]any
}

func (e *EditError) Error() string { return string(e.Code) + ": " + e.Message }

// Err converts e to the repository-wide error type, keeping details and the
// live tag, for callers that propagate errors rather than tool results.
func (e *EditError) Err() *errs.Error {
	d := make(map[string]any, len(e.Details)+2)
	for k, v := range e.Details {
		d[k] = v
	}
	if e.LiveTag != "" {
		d["liveTag"] = e.LiveTag
	}
	d["retry"] = e.Retry
	return &errs.Error{Code: e.Code, Message: e.Message, Details: d}
}

func newErr(code errs.Code, retry, format string, args ...any) *EditError {
	return &EditError{Code: code, Retry: retry, Message: fmt.Sprintf(format, args...), Details: map[string]any{}}
}

func (e *EditError) with(k string, v any) *EditError {
	e.Details[k] = v
	return e
}

// parseErr is EDIT_PARSE_FAILED for ops line n: got is the offending line,
// expected the corrected form the message also names.
func parseErr(n int, got, expected, format string, args ...any) *EditError {
	return newErr(errs.EditParseFailed, RetryFixOps, format, args...).
		with("opsLine", n).with("got", got).with("expected", expected)
}

// rangeErr is EDIT_RANGE_INVALID for ops line n.
func rangeErr(n int, format string, args ...any) *EditError {
	e := newErr(errs.EditRangeInvalid, RetryFixOps, format, args...)
	return e.with("opsLine", n).with("reason", e.Message)
}

func limitErr(what string, limit, got int) *EditError {
	return newErr(errs.EditLimit, RetryNone, "%s exceeds the limit (%d > %d); split the change into smaller Edit calls or use Write", what, got, limit).
		with("limit", limit).with("got", got).with("what", what)
}
