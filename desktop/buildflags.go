//go:build !dev

package desktop

import "flag"

// RegisterBuildFlags adds the flags only a dev build accepts (none here).
func RegisterBuildFlags(*flag.FlagSet) {}
