package tools

// Options configure the builtin tools.
type Options struct {
	// RgPath selects ripgrep for Grep: "" looks it up on PATH, "-" forces the
	// in-process searcher.
	RgPath string
}
