//go:build unix

package desktop

import (
	"strings"
	"testing"
)

// runReveal runs a real program; explorer's exit status 1 is ignored where
// the command says so, and only there.
func TestRunRevealExitStatus(t *testing.T) {
	if err := runReveal(t.Context(), revealCmd{Args: []string{"false"}}); err == nil {
		t.Error("a failing command reported success")
	}
	if err := runReveal(t.Context(), revealCmd{Args: []string{"false"}, IgnoreExit: true}); err != nil {
		t.Errorf("IgnoreExit: %v", err)
	}
	if err := runReveal(t.Context(), revealCmd{Args: []string{"/nonexistent/pi-reveal"}, IgnoreExit: true}); err == nil || strings.Contains(err.Error(), "exit status") {
		t.Errorf("a missing program must fail even with IgnoreExit: %v", err)
	}
}
