//go:build !unix

package search

// openChild opens the folder name of dir through dir's os.Root.
func openChild(dir *dirRef, name string) (*dirRef, error) { return openChildByRoot(dir, name) }
