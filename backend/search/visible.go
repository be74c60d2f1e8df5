package search

import (
	"context"
	"errors"
)

// WalkVisible walks root with Glob's visibility rules (ignore files, hidden
// entries, no symlinks, only regular files), in path order, so an index
// built from it lists exactly what Glob would. dir is called with the
// '/'-separated path of every visible folder below root before it is
// entered; returning false leaves the folder out. file is called for every
// visible file; returning an error other than nil ends the walk with it.
// root must be an absolute folder; failures are coded like Glob's.
func WalkVisible(ctx context.Context, root string, dir func(rel string) bool, file func(rel string) error) error {
	top, abs, err := openWalkRoot(Within{}, root, "the file index")
	if errors.Is(err, errIsFile) {
		return invalidField("path", "%s is a file, not a folder", root)
	}
	if err != nil {
		return err
	}
	defer top.Close()
	return walkTree(ctx, top, abs, walkOptions{descend: dir}, func(f walkFile) error { return file(f.rel) })
}
