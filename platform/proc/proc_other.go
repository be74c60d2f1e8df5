//go:build !linux && !darwin && !windows

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

type platState struct{}

func prepare(*exec.Cmd, bool) (*platState, error)   { return nil, ErrUnsupported }
func (s *platState) leafDir() string                { return "" }
func (s *platState) started(*exec.Cmd) error        { return nil }
func (s *platState) kill()                          {}
func (s *platState) afterExit(int, bool)            {}
func (s *platState) close()                         {}
func attachFile(*exec.Cmd, *os.File) string         { return "" }
func openAttached(string, string) (*os.File, error) { return nil, ErrUnsupported }
func isExhausted(syscall.Errno) bool                { return false }
func runTree(header, *statusWriter, *os.File) int   { return 2 }
