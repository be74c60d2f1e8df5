// Package errs holds the stable error codes of PI-Desktop and the Error type
// that carries one across package and process boundaries.
//
// Codes are API: the UI, the model and tests switch on them. Add codes, never
// rename or remove one; TestCodesGolden keeps the list honest.
package errs

import (
	"errors"
	"fmt"
)

// Code is a stable, upper-snake-case error identifier.
type Code string

// Error is a failure with a stable code, a message that names the next step,
// and optional structured details. Err is an internal cause: it is kept for
// logs and errors.Is/As but never shown to the user or the model.
type Error struct {
	Code    Code
	Message string
	Details map[string]any
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an Error with a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an Error with code and message that keeps err as its cause.
func Wrap(err error, code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: err}
}

// With returns a copy of e with key set in its details.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Details = make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		c.Details[k] = v
	}
	c.Details[key] = value
	return &c
}

// As returns the first *Error in err's chain, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// CodeOf returns the code of the first *Error in err's chain, INTERNAL for any
// other non-nil error, and "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	if e := As(err); e != nil {
		return e.Code
	}
	return Internal
}

// Is reports whether err carries code.
func Is(err error, code Code) bool { return err != nil && CodeOf(err) == code }

// Payload is the shape of an error as the UI and the model receive it.
type Payload struct {
	Code    Code           `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// ToPayload turns any error into a Payload. A plain Go error is a host fault:
// its text may name internal paths, so only a generic message is exposed.
func ToPayload(err error) Payload {
	if e := As(err); e != nil {
		return Payload{Code: e.Code, Message: e.Message, Details: e.Details}
	}
	return Payload{Code: Internal, Message: "internal error; see the log file in the data directory's logs folder"}
}
