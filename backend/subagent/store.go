package subagent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/frontmatter"
)

// Draft is a definition as the Settings form edits it. Tools, Model and
// Permission are written as in a file: Tools empty means the default, a
// Model "" or "inherit" means the session's.
type Draft struct {
	Name        string
	Description string
	Tools       []string
	Model       string
	Permission  Permission
	MaxTurns    int // 0 = the default
	Prompt      string
}

// DraftOf returns the draft that saves back to d.
func DraftOf(d Definition) Draft {
	return Draft{Name: d.Name, Description: d.Description, Tools: slices.Clone(d.Tools.Written), Model: d.ModelSpec,
		Permission: d.Permission, MaxTurns: d.MaxTurns, Prompt: d.Prompt}
}

// front is a draft's front matter, in the order a file shows it.
type front struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Tools       []string `yaml:"tools,omitempty,flow"`
	Model       string   `yaml:"model,omitempty"`
	Permission  string   `yaml:"permission,omitempty"`
	MaxTurns    int      `yaml:"maxTurns,omitempty"`
}

// Render writes d as a definition file.
func Render(d Draft) ([]byte, error) {
	f := front{Name: d.Name, Description: strings.TrimSpace(d.Description), Tools: d.Tools, Model: strings.TrimSpace(d.Model), MaxTurns: d.MaxTurns}
	if d.Permission != PermissionInherit {
		f.Permission = string(d.Permission)
	}
	return frontmatter.Marshal(f, strings.TrimSpace(d.Prompt))
}

// Save validates d with the parser the catalog uses and writes it to
// UserDir(dataDir)/<name>.md (0600, atomically). replaces is the name of
// the app definition being edited ("" for a new one): its file is removed
// when the name changed. A definition the parser rejects, or one it would
// warn about, is not saved: the error (SUBAGENT_INVALID) says why.
func Save(ctx context.Context, dataDir string, d Draft, replaces string, profiles []ProfileRef) (Definition, error) {
	if !ValidName(d.Name) {
		return Definition{}, invalid("name", "the name %q is not valid: use lowercase letters, digits and - (at most %d)", d.Name, MaxName)
	}
	data, err := Render(d)
	if err != nil {
		return Definition{}, err
	}
	dir := UserDir(dataDir)
	path := filepath.Join(dir, d.Name+".md")
	def, err := Parse(data, File{Source: SourceUser, Path: path}, profiles)
	if err != nil {
		return Definition{}, invalid("", "%s", err.Error())
	}
	if len(def.Warnings) > 0 {
		return Definition{}, invalid("", "%s", strings.Join(def.Warnings, "; "))
	}
	rows := readDir(os.DirFS(dir), dir, File{Source: SourceUser}, profiles, true)
	var old string
	for _, r := range rows {
		switch {
		case replaces != "" && r.Name == replaces:
			old = r.Path
		case r.Name == d.Name || r.Path == path:
			// Another file of the folder has this name or this file name:
			// saving would replace or shadow it.
			return Definition{}, errs.New(errs.Conflict, "a subagent named %q already exists in %s; edit that one or choose another name", d.Name, r.Path).With("field", "name")
		}
	}
	if replaces != "" && old == "" {
		return Definition{}, errs.New(errs.NotFound, "no subagent named %q in %s to edit; it may have been removed, reload the list", replaces, dir)
	}
	if err := ctx.Err(); err != nil {
		return Definition{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Definition{}, err
	}
	if err := writeAtomic(path, data); err != nil {
		return Definition{}, err
	}
	if old != "" && old != path {
		if err := os.Remove(old); err != nil && !os.IsNotExist(err) {
			return Definition{}, fmt.Errorf("saved %s but could not remove the old %s: %w", path, old, err)
		}
	}
	return def, nil
}

// Delete removes the app definition named name from UserDir(dataDir).
func Delete(dataDir, name string) error {
	dir := UserDir(dataDir)
	for _, r := range readDir(os.DirFS(dir), dir, File{Source: SourceUser}, nil, true) {
		if r.Name == name {
			return os.Remove(r.Path)
		}
	}
	return errs.New(errs.NotFound, "no subagent named %q in %s; builtin and project subagents are not deleted here (a project's live in its files)", name, dir)
}

func invalid(field, format string, a ...any) error {
	e := errs.New(errs.SubagentInvalid, format, a...)
	if field != "" {
		e = e.With("field", field)
	}
	return e
}

// writeAtomic writes data to path through a temporary file in the same
// folder, so a reader sees the old file or the new one, never a part.
func writeAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".subagent-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o600); err != nil {
		return err
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
