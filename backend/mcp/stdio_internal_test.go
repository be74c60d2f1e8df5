package mcp

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/platform/proc"
)

func TestMergeEnv(t *testing.T) {
	tests := []struct {
		name string
		base []string
		over map[string]string
		want []string
	}{
		{"nothing to add", []string{"PATH=/bin", "HOME=/h"}, nil, []string{"PATH=/bin", "HOME=/h"}},
		{"server value replaces, never duplicates", []string{"PATH=/bin", "DEBUG=0", "HOME=/h"},
			map[string]string{"DEBUG": "1", "API": "x"}, []string{"PATH=/bin", "HOME=/h", "API=x", "DEBUG=1"}},
		{"value with '='", []string{"A=1"}, map[string]string{"B": "k=v"}, []string{"A=1", "B=k=v"}},
	}
	if runtime.GOOS != "windows" {
		tests = append(tests, struct {
			name string
			base []string
			over map[string]string
			want []string
		}{"names are case-sensitive off Windows", []string{"path=/x"}, map[string]string{"PATH": "/bin"}, []string{"path=/x", "PATH=/bin"}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mergeEnv(tt.base, tt.over); !slices.Equal(got, tt.want) {
				t.Errorf("mergeEnv = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCloseProblem(t *testing.T) {
	survivors := fmt.Errorf("%w (2)", proc.ErrSurvivors)
	lostOutput := errors.Join(fmt.Errorf("proc: output writer: %w", io.ErrClosedPipe))
	tests := []struct {
		name string
		err  error
		want error // nil, or what the result must match
	}{
		{"clean exit", nil, nil},
		{"the kill Close asked for", proc.ErrKilled, nil},
		{"output nobody reads any more", errors.Join(proc.ErrKilled, lostOutput), nil},
		{"survivors alone", survivors, proc.ErrSurvivors},
		{"survivors beside the kill", errors.Join(proc.ErrKilled, survivors, lostOutput), proc.ErrSurvivors},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := closeProblem(tt.err)
			if (got == nil) != (tt.want == nil) || (tt.want != nil && !errors.Is(got, tt.want)) {
				t.Errorf("closeProblem = %v, want %v", got, tt.want)
			}
		})
	}
}
