//go:build dev

package main

import "flag"

// registerBuildFlags accepts the flags the Wails dev runtime reads itself,
// so a dev build can be started with -devserver and -assetdir.
func registerBuildFlags(fs *flag.FlagSet) {
	for _, name := range []string{"assetdir", "devserver", "frontenddevserverurl", "loglevel"} {
		fs.String(name, "", "")
	}
}
