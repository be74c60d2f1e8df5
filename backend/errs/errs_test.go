package errs_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

func TestCodesGolden(t *testing.T) {
	var b strings.Builder
	seen := map[errs.Code]bool{}
	valid := regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)
	for _, c := range errs.Codes() {
		if seen[c] {
			t.Errorf("code %s registered twice", c)
		}
		seen[c] = true
		if !valid.MatchString(string(c)) {
			t.Errorf("code %q is not UPPER_SNAKE_CASE", c)
		}
		b.WriteString(string(c) + "\n")
	}
	// Codes are API: existing lines must stay, in order; new ones are appended
	// to the golden file by running the test with -update.
	golden.Assert(t, filepath.Join("testdata", "codes.golden"), b.String())
}

func TestCodeOf(t *testing.T) {
	base := errs.New(errs.NotFound, "no such thing")
	tests := []struct {
		name string
		err  error
		want errs.Code
	}{
		{"nil", nil, ""},
		{"direct", base, errs.NotFound},
		{"wrapped", fmt.Errorf("outer: %w", base), errs.NotFound},
		{"plain", errors.New("boom"), errs.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errs.CodeOf(tt.err); got != tt.want {
				t.Errorf("CodeOf = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPayloadHidesInternalText(t *testing.T) {
	p := errs.ToPayload(errors.New("open /home/secret/db: permission denied"))
	if p.Code != errs.Internal || strings.Contains(p.Message, "secret") {
		t.Errorf("payload leaks internal text: %+v", p)
	}
	e := errs.Wrap(errors.New("cause"), errs.InvalidArgument, "title must not be empty").With("field", "title")
	p = errs.ToPayload(fmt.Errorf("ctx: %w", e))
	if p.Code != errs.InvalidArgument || p.Message != "title must not be empty" || p.Details["field"] != "title" {
		t.Errorf("payload = %+v", p)
	}
	if !errors.Is(e, e.Err) {
		t.Error("Wrap must keep the cause for errors.Is")
	}
}
