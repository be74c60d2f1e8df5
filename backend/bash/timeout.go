package bash

import (
	"math"
	"strconv"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Timeout bounds (decisions.md, "Bash timeout").
const (
	DefaultTimeout = 60 * time.Second
	MaxTimeout     = 21600 * time.Second
	// MaxTimeoutSeconds is the largest value read as seconds; larger values
	// up to MaxTimeoutMillis are milliseconds.
	MaxTimeoutSeconds = 21600
	MaxTimeoutMillis  = 100_000_000
)

// Timeout returns the effective timeout of a Bash call. raw is the model's
// timeout argument, nil when absent (60 s). 1–21,600 is seconds (fractions
// are kept to the millisecond); above 21,600 and up to 100,000,000 it is
// milliseconds, converted and clamped to 21,600 s. Anything else (below 1,
// above 100,000,000, NaN, ±Inf) is INVALID_ARGUMENT naming "timeout".
func Timeout(raw *float64) (time.Duration, error) {
	if raw == nil {
		return DefaultTimeout, nil
	}
	v := *raw
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 1 || v > MaxTimeoutMillis {
		return 0, errs.New(errs.InvalidArgument,
			"timeout must be 1 to %d seconds (values above %d up to %d are read as milliseconds); got %s",
			MaxTimeoutSeconds, MaxTimeoutSeconds, MaxTimeoutMillis, strconv.FormatFloat(v, 'g', -1, 64)).
			With("field", "timeout")
	}
	var d time.Duration
	if v <= MaxTimeoutSeconds {
		d = time.Duration(math.Round(v*1000)) * time.Millisecond
	} else {
		d = time.Duration(math.Round(v)) * time.Millisecond
	}
	return min(d, MaxTimeout), nil
}
