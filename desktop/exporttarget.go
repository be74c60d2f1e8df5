//go:build !dev

package desktop

// exportTarget is "": a release build always asks where to save.
func exportTarget(string) string { return "" }
