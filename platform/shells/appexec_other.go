//go:build !windows

package shells

func isAppExecLink(string) bool { return false }
