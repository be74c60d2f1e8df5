package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// openParent opens the folder that holds workspace path p, one component
// at a time, and returns it with p's last name. Each folder is opened as a
// handle and then checked to be the real folder of that name (not a link,
// the same file the name leads to), so the write that follows goes into
// that folder whatever is swapped in on the path meanwhile: os.Root alone
// would follow a link that stays inside the workspace ("scripts" turned
// into a link to ".git/hooks"). With create, missing folders are made as
// real ones. why says why p must be left alone; close the folder after.
func openParent(root *os.Root, p string, create bool) (dir *os.Root, name, why string) {
	parts := strings.Split(p, "/")
	cur, err := root.OpenRoot(".")
	if err != nil {
		return nil, "", "cannot open the workspace: " + err.Error()
	}
	for _, part := range parts[:len(parts)-1] {
		next, why := openChildDir(cur, part, create)
		cur.Close()
		if why != "" {
			return nil, "", why
		}
		if next == nil {
			return nil, "", "" // missing, and not to be created
		}
		cur = next
	}
	return cur, parts[len(parts)-1], ""
}

// openChildDir opens folder name of cur (nil, "" when it is missing and
// create is false).
func openChildDir(cur *os.Root, name string, create bool) (*os.Root, string) {
	sub, err := cur.OpenRoot(name)
	if errors.Is(err, fs.ErrNotExist) {
		if !create {
			return nil, ""
		}
		if err := cur.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, "cannot create its folder: " + err.Error()
		}
		sub, err = cur.OpenRoot(name)
	}
	if err != nil {
		return nil, "a folder on its path is not a folder inside the workspace now; it is left alone"
	}
	opened, err := sub.Stat(".")
	named, lerr := cur.Lstat(name)
	if err != nil || lerr != nil || named.Mode()&fs.ModeSymlink != 0 || !named.IsDir() || !os.SameFile(opened, named) {
		sub.Close()
		return nil, "a folder on its path is a link now, or was swapped while it was opened; it is left alone"
	}
	return sub, ""
}
