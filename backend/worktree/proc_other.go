//go:build !unix && !windows

package worktree

import "os/exec"

func setProcAttr(cmd *exec.Cmd) {}
