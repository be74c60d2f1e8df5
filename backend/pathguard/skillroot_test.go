package pathguard_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// skillTree is a workspace, a data folder and skill folders around them.
type skillTree struct {
	base, ws, data, userSkill, dataSkill, wsSkill, other string
}

func newSkillTree(t *testing.T) (skillTree, *pathguard.Resolver) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st := skillTree{base: base, ws: filepath.Join(base, "proj"), data: filepath.Join(base, "data"),
		userSkill: filepath.Join(base, "home", ".claude", "skills", "pdf"),
		dataSkill: filepath.Join(base, "data", "skills", "notes"),
		wsSkill:   filepath.Join(base, "proj", ".agents", "skills", "local"),
		other:     filepath.Join(base, "home", ".claude", "skills", "broken")}
	for _, f := range []string{
		filepath.Join(st.ws, "main.go"),
		filepath.Join(st.userSkill, "SKILL.md"), filepath.Join(st.userSkill, "scripts", "fill.py"),
		filepath.Join(st.dataSkill, "SKILL.md"), filepath.Join(st.wsSkill, "SKILL.md"),
		filepath.Join(st.other, "secret.txt"), filepath.Join(st.data, "db.sqlite"),
		filepath.Join(base, "home", "private.txt"),
	} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := pathguard.New(pathguard.Roots{Workspace: st.ws, Data: st.data,
		Skills: []string{st.userSkill, st.dataSkill, st.wsSkill}}, caseSensitive)
	if err != nil {
		t.Fatal(err)
	}
	return st, r
}

func TestSkillRootClassification(t *testing.T) {
	st, r := newSkillTree(t)
	if err := os.Symlink(filepath.Join(st.base, "home", "private.txt"), filepath.Join(st.userSkill, "leak")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink(filepath.Join(st.userSkill, "SKILL.md"), filepath.Join(st.userSkill, "alias.md")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		path          string
		root, lexical pathguard.Root
		rel           string
	}{
		{"a file of a user skill", filepath.Join(st.userSkill, "scripts", "fill.py"), pathguard.Skill, pathguard.Skill, "scripts/fill.py"},
		{"the skill folder itself", st.userSkill, pathguard.Skill, pathguard.Skill, "."},
		{"a skill in the data folder is readable", filepath.Join(st.dataSkill, "SKILL.md"), pathguard.Skill, pathguard.Skill, "SKILL.md"},
		{"a skill inside the workspace stays the workspace's", filepath.Join(st.wsSkill, "SKILL.md"), pathguard.Workspace, pathguard.Workspace, ".agents/skills/local/SKILL.md"},
		{"a link inside the folder", filepath.Join(st.userSkill, "alias.md"), pathguard.Skill, pathguard.Skill, "SKILL.md"},
		{"a link out of the folder", filepath.Join(st.userSkill, "leak"), pathguard.External, pathguard.Skill, ""},
		{"dot-dot out of the folder", filepath.Join(st.userSkill, "..", "broken", "secret.txt"), pathguard.External, pathguard.External, ""},
		{"a folder that is not a skill of the session", filepath.Join(st.other, "secret.txt"), pathguard.External, pathguard.External, ""},
		{"the parent of a skill folder", filepath.Dir(st.userSkill), pathguard.External, pathguard.External, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// filepath.Join cleans "..": spell it raw to keep it.
			p := tt.path
			if tt.name == "dot-dot out of the folder" {
				p = st.userSkill + string(filepath.Separator) + ".." + string(filepath.Separator) + "broken" + string(filepath.Separator) + "secret.txt"
			}
			res, err := r.Resolve(p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Root != tt.root || res.Lexical != tt.lexical {
				t.Fatalf("Resolve(%s) = root %s lexical %s, want %s %s", p, res.Root, res.Lexical, tt.root, tt.lexical)
			}
			if tt.rel != "" && res.Rel != tt.rel {
				t.Fatalf("Rel = %q, want %q", res.Rel, tt.rel)
			}
		})
	}
	// The rest of the data folder stays protected.
	if _, err := r.Resolve(filepath.Join(st.data, "db.sqlite")); errs.CodeOf(err) != errs.PathProtected {
		t.Fatalf("the database = %v, want PATH_PROTECTED", err)
	}
	if _, err := r.Resolve(filepath.Join(st.data, "skills")); errs.CodeOf(err) != errs.PathProtected {
		t.Fatalf("the data folder's skills folder itself = %v, want PATH_PROTECTED", err)
	}
	// A relative spelling never reaches a skill folder.
	if res, err := r.Resolve("../home/.claude/skills/pdf/SKILL.md"); err != nil || res.Lexical != pathguard.External {
		t.Fatalf("relative spelling = %+v, %v", res, err)
	}
}

func TestSkillRootIsReadOnly(t *testing.T) {
	st, r := newSkillTree(t)
	res, err := r.Resolve(filepath.Join(st.userSkill, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := r.OpenFile(res, os.O_RDONLY, 0)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	f.Close()
	for name, op := range map[string]func() error{
		"WriteFileAtomic": func() error { return r.WriteFileAtomic(res, []byte("evil"), 0o644) },
		"WriteFileNew": func() error {
			n, err := r.Resolve(filepath.Join(st.userSkill, "new.md"))
			if err != nil {
				return err
			}
			return r.WriteFileNew(n, []byte("evil"), 0o644)
		},
		"OpenFile(O_WRONLY)": func() error {
			f, err := r.OpenFile(res, os.O_WRONLY|os.O_TRUNC, 0)
			if err == nil {
				f.Close()
			}
			return err
		},
		"OpenFile(O_APPEND)": func() error {
			f, err := r.OpenFile(res, os.O_RDWR|os.O_APPEND, 0)
			if err == nil {
				f.Close()
			}
			return err
		},
		"Remove": func() error { return r.Remove(res) },
	} {
		if err := op(); errs.CodeOf(err) != errs.SkillReadOnly {
			t.Errorf("%s in a skill folder = %v, want SKILL_READ_ONLY", name, err)
		}
	}
	data, err := os.ReadFile(filepath.Join(st.userSkill, "SKILL.md"))
	if err != nil || string(data) != "x" {
		t.Fatalf("the skill file changed: %q, %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(st.userSkill, "new.md")); !os.IsNotExist(err) {
		t.Fatalf("a file was created in the skill folder: %v", err)
	}
}

// A skill folder that is itself a link (planted after discovery) or the
// file system root is never a root.
func TestSkillRootRefusesLinkedFolder(t *testing.T) {
	st, _ := newSkillTree(t)
	link := filepath.Join(st.base, "linked-skill")
	if err := os.Symlink(filepath.Join(st.base, "home"), link); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	r, err := pathguard.New(pathguard.Roots{Workspace: st.ws, Skills: []string{link, string(filepath.Separator)}}, caseSensitive)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(link, "private.txt"), filepath.Join(st.base, "home", "private.txt")} {
		res, err := r.Resolve(p)
		if err != nil || res.Root != pathguard.External {
			t.Fatalf("Resolve(%s) = %+v, %v; want external", p, res, err)
		}
	}
}
