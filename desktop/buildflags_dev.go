//go:build dev

package desktop

import "flag"

// RegisterBuildFlags accepts the flags the Wails dev runtime reads itself,
// so a dev build can be started with -devserver and -assetdir.
func RegisterBuildFlags(fs *flag.FlagSet) {
	for _, name := range []string{"assetdir", "devserver", "frontenddevserverurl", "loglevel"} {
		fs.String(name, "", "")
	}
}
