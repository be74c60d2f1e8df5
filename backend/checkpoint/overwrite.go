package checkpoint

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Overwrite is which conflicts a restore replaces: every one (All) or only
// the listed workspace-relative paths, so the user decides file by file.
// The zero value keeps every conflict.
type Overwrite struct {
	All   bool     `json:"all,omitempty"`
	Paths []string `json:"paths,omitempty"`
}

// OverwriteAll replaces every conflict.
func OverwriteAll() Overwrite { return Overwrite{All: true} }

// Any reports whether a restore would replace any conflict at all.
func (o Overwrite) Any() bool { return o.All || len(o.Paths) > 0 }

// covers reports whether a conflict at path is replaced.
func (o Overwrite) covers(path string) bool { return o.All || slices.Contains(o.Paths, path) }

// String is the audit row's account of the choice.
func (o Overwrite) String() string {
	switch {
	case o.All:
		return "overwrite"
	case len(o.Paths) > 0:
		return fmt.Sprintf("overwrite %d: %s", len(o.Paths), strings.Join(o.Paths, ", "))
	}
	return ""
}

// UnmarshalJSON takes a script's `"overwrite": true` (every conflict),
// `false`, or a list of paths (only those), besides the object form.
func (o *Overwrite) UnmarshalJSON(b []byte) error {
	var all bool
	if err := json.Unmarshal(b, &all); err == nil {
		*o = Overwrite{All: all}
		return nil
	}
	var paths []string
	if err := json.Unmarshal(b, &paths); err == nil {
		*o = Overwrite{Paths: paths}
		return nil
	}
	type plain Overwrite
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return errs.New(errs.InvalidArgument, "overwrite is true, false or a list of the conflicting paths to replace, not %s", b)
	}
	*o = Overwrite(p)
	return nil
}
