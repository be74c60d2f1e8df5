//go:build !windows

package search

import "os/exec"

// hideWindow is a no-op off Windows, where spawning never opens a window.
func hideWindow(*exec.Cmd) {}
