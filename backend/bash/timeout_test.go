package bash

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestTimeout(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name string
		raw  *float64
		want time.Duration
		bad  bool
	}{
		{"absent is 60s", nil, 60 * time.Second, false},
		{"1 second", f(1), time.Second, false},
		{"fraction kept to the ms", f(1.5), 1500 * time.Millisecond, false},
		{"600 seconds", f(600), 600 * time.Second, false},
		{"1800 seconds", f(1800), 1800 * time.Second, false},
		{"21600 seconds is the max", f(21600), 21600 * time.Second, false},
		{"21601 is milliseconds", f(21601), 21601 * time.Millisecond, false},
		{"60000 ms", f(60000), 60 * time.Second, false},
		{"1800000 ms", f(1_800_000), 1800 * time.Second, false},
		{"21600000 ms", f(21_600_000), 21600 * time.Second, false},
		{"21600001 ms clamps", f(21_600_001), 21600 * time.Second, false},
		{"100000000 ms clamps", f(100_000_000), 21600 * time.Second, false},
		{"0 refused", f(0), 0, true},
		{"0.5 refused", f(0.5), 0, true},
		{"-1 refused", f(-1), 0, true},
		{"100000001 refused", f(100_000_001), 0, true},
		{"NaN refused", f(math.NaN()), 0, true},
		{"+Inf refused", f(math.Inf(1)), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Timeout(tt.raw)
			if tt.bad {
				if !errs.Is(err, errs.InvalidArgument) {
					t.Fatalf("Timeout = %v, %v; want INVALID_ARGUMENT", got, err)
				}
				e := errs.As(err)
				if e.Details["field"] != "timeout" || !strings.Contains(e.Message, "timeout") {
					t.Errorf("error does not name timeout: %+v", e)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Timeout = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
