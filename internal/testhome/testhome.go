// Package testhome gives a test binary a fresh, empty HOME, so the login
// shells its tests start (bash -lc, the login-shell PATH probe) never read the
// machine's own profile: a slow ~/.bashrc, or a lock a killed profile left
// behind, would otherwise make trivial commands wait out their timeout.
package testhome

import (
	"fmt"
	"os"
	"testing"
)

// Run runs m with HOME set to a new temporary folder and returns the exit
// code, for TestMain: os.Exit(testhome.Run(m)).
func Run(m *testing.M) int {
	home, err := os.MkdirTemp("", "pi-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testhome:", err)
		return 1
	}
	defer os.RemoveAll(home)
	for _, kv := range [][2]string{{"HOME", home}, {"XDG_CONFIG_HOME", ""}, {"ZDOTDIR", ""}, {"BASH_ENV", ""}, {"ENV", ""}} {
		if kv[1] == "" {
			os.Unsetenv(kv[0])
			continue
		}
		os.Setenv(kv[0], kv[1])
	}
	return m.Run()
}
