//go:build !dev

package desktop

// pluginSource is "": a release build always asks which plugin to install.
func pluginSource() string { return "" }
