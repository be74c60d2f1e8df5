package pathguard

import (
	"os"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// A skill folder is a read-only root (issue 18). The policy already
// refuses every change there; the file operations refuse again, so a tool
// that forgot to declare itself a mutation still cannot write one.

// writeFlags are the open flags that can change a file.
const writeFlags = os.O_WRONLY | os.O_RDWR | os.O_CREATE | os.O_TRUNC | os.O_APPEND

// refuseSkillWrite fails a change of res when res is in a skill folder.
func refuseSkillWrite(res Resolved) error {
	if res.Root != Skill {
		return nil
	}
	return SkillReadOnlyError(res.Abs)
}

// SkillReadOnlyError refuses a change of abs, a path in a skill folder.
func SkillReadOnlyError(abs string) error {
	return errs.New(errs.SkillReadOnly,
		"%s is in a skill's folder, which is read-only: read it with Read, Glob or Grep; to change a skill, copy it into the workspace or ask the user to edit it", filepath.ToSlash(abs)).
		With("field", "path").With("path", filepath.ToSlash(abs))
}
