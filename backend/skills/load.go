package skills

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Sources are where Load looks. Empty fields are skipped.
type Sources struct {
	DataDir string // the app's data folder: <DataDir>/skills
	Home    string // the user's home: ~/.agents/skills, ~/.claude/skills
	// ProjectRoot is the project's folder: .agents/skills, .claude/skills.
	// For an isolated session it is the project path, never the worktree
	// (spec §4e: skills stay keyed to the project).
	ProjectRoot string
	// Visualize adds the builtin pi-desktop/visualize skill (spec §4b.1: it
	// exists only while inline visualizations are on).
	Visualize bool
	// Plugins are the folders of the enabled plugins the user consented
	// to, one per line (a string keeps Sources a map key, the cache's);
	// each one's skills/ folder comes after every user and project one.
	Plugins string
}

// PluginList joins plugin folders for Sources.Plugins.
func PluginList(dirs []string) string { return strings.Join(dirs, "\n") }

// Folder is one source folder Load reads.
type Folder struct {
	Dir    string
	Source Source
}

// Folders lists the source folders in precedence order.
func (s Sources) Folders() []Folder {
	var out []Folder
	if s.DataDir != "" {
		out = append(out, Folder{filepath.Join(s.DataDir, "skills"), SourceUser})
	}
	if s.Home != "" {
		out = append(out, Folder{filepath.Join(s.Home, ".agents", "skills"), SourceUser},
			Folder{filepath.Join(s.Home, ".claude", "skills"), SourceUser})
	}
	if s.ProjectRoot != "" {
		out = append(out, Folder{filepath.Join(s.ProjectRoot, ".agents", "skills"), SourceProject},
			Folder{filepath.Join(s.ProjectRoot, ".claude", "skills"), SourceProject})
	}
	if s.Plugins != "" {
		for _, dir := range strings.Split(s.Plugins, "\n") {
			out = append(out, Folder{filepath.Join(dir, "skills"), SourcePlugin})
		}
	}
	return out
}

// VisualizeName is the builtin skill's name. Its "/" is outside the name
// rules on purpose: no user or project skill can take it.
const VisualizeName = "pi-desktop/visualize"

//go:embed builtin
var builtinFS embed.FS

// Load discovers the skills of src, in precedence order, with every problem
// met. Only ctx's cancellation is an error: an unreadable folder or file is
// a Problem.
func Load(ctx context.Context, src Sources) (Set, error) {
	var found []Skill
	var problems []Problem
	if src.Visualize {
		data, err := builtinFS.ReadFile("builtin/visualize/SKILL.md")
		if err != nil {
			return Set{}, fmt.Errorf("builtin visualize skill: %w", err)
		}
		k, perr := Parse(data, "visualize")
		if perr != nil {
			return Set{}, fmt.Errorf("builtin visualize skill: %w", perr)
		}
		k.Name, k.Source = VisualizeName, SourceBuiltin
		found = append(found, k)
	}
	for _, f := range src.Folders() {
		if err := ctx.Err(); err != nil {
			return Set{}, err
		}
		ks, ps := readFolder(f)
		found = append(found, ks...)
		problems = append(problems, ps...)
	}
	set := Set{Problems: problems}
	winner := map[string]Skill{}
	for _, k := range found {
		if w, dup := winner[k.Name]; dup && k.Source == SourcePlugin {
			set.Problems = append(set.Problems, Problem{Path: k.Path, Name: k.Name, Source: k.Source, Reason: ReasonShadowed,
				Message: fmt.Sprintf("not used: a plugin never replaces the %s skill %q (%s); it stays in use", w.Source, k.Name, where(w))})
			continue
		} else if dup {
			set.Problems = append(set.Problems, Problem{Path: k.Path, Name: k.Name, Source: k.Source, Reason: ReasonShadowed,
				Message: fmt.Sprintf("not used: the %s skill %q (%s) has the same name and takes precedence; rename one of them", w.Source, k.Name, where(w))})
			continue
		}
		winner[k.Name] = k
		if len(set.Skills) == MaxSkills {
			set.Problems = append(set.Problems, Problem{Path: k.Path, Name: k.Name, Source: k.Source, Reason: ReasonOverLimit,
				Message: fmt.Sprintf("not used: at most %d skills are loaded and this one comes after them; remove skills you do not need", MaxSkills)})
			continue
		}
		set.Skills = append(set.Skills, k)
	}
	return set, nil
}

func where(k Skill) string {
	if k.Path == "" {
		return "built in"
	}
	return k.Path
}

// readFolder reads one source folder. An absent folder has no skills and no
// problem. Entries are read in name order, so results are deterministic.
func readFolder(f Folder) ([]Skill, []Problem) {
	problem := func(p string, r Reason, format string, a ...any) Problem {
		return Problem{Path: p, Source: f.Source, Reason: r, Message: fmt.Sprintf(format, a...)}
	}
	canon, err := filepath.EvalSymlinks(f.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Problem{problem(f.Dir, ReasonUnreadable, "cannot read the skills folder: %v", reason(err))}
	}
	root, err := os.OpenRoot(canon)
	if err != nil {
		return nil, []Problem{problem(f.Dir, ReasonUnreadable, "cannot read the skills folder: %v", reason(err))}
	}
	defer root.Close()
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return nil, []Problem{problem(f.Dir, ReasonUnreadable, "cannot read the skills folder: %v", reason(err))}
	}
	var skills []Skill
	var problems []Problem
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue // .git, .DS_Store: never skills
		}
		p := filepath.Join(f.Dir, name)
		rel, isDir, err := follow(canon, name)
		if err != nil {
			problems = append(problems, problem(p, linkReason(err), "%v", err))
			continue
		}
		var k Skill
		var perr *ParseError
		switch {
		case isDir:
			file := filepath.Join(p, "SKILL.md")
			var data []byte
			data, err = readSkillFile(root, canon, rel+"/SKILL.md")
			if errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, problem(p, ReasonNoSkillFile, "a folder in the skills folder without SKILL.md; add one, or move the folder elsewhere"))
				continue
			}
			if err != nil {
				problems = append(problems, problem(file, linkReason(err), "cannot read SKILL.md: %s", reason(err)))
				continue
			}
			if k, perr = Parse(data, name); perr == nil {
				k.Path, k.Dir = file, filepath.Join(canon, filepath.FromSlash(rel))
			}
			p = file
		case strings.HasSuffix(name, ".md"):
			var data []byte
			if data, err = readSkillFile(root, canon, rel); err != nil {
				problems = append(problems, problem(p, linkReason(err), "cannot read the file: %s", reason(err)))
				continue
			}
			if k, perr = Parse(data, stem(name)); perr == nil {
				k.Path = p
			}
		default:
			problems = append(problems, problem(p, ReasonNotSkill, "not a skill: a skill is a folder with SKILL.md or a single .md file"))
			continue
		}
		if perr != nil {
			problems = append(problems, problem(p, perr.Reason, "%s", perr.Message))
			continue
		}
		k.Source = f.Source
		skills = append(skills, k)
	}
	return skills, problems
}

// errLinkOutside marks a link that leads out of its source folder.
var errLinkOutside = errors.New("a link leading out of the skills folder")

func linkReason(err error) Reason {
	if errors.Is(err, errLinkOutside) {
		return ReasonLinkOutside
	}
	return ReasonUnreadable
}

// follow resolves the entry name of the canonical folder canon: rel is
// where it really is, relative to canon ('/'-separated), and isDir whether
// that is a folder. A link is followed only while it stays inside canon.
func follow(canon, name string) (rel string, isDir bool, err error) {
	fi, err := os.Lstat(filepath.Join(canon, name))
	if err != nil {
		return "", false, fmt.Errorf("cannot read it: %s", reason(err))
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return name, fi.IsDir(), nil
	}
	rel, err = inside(canon, name)
	if err != nil {
		return "", false, err
	}
	fi, err = os.Stat(filepath.Join(canon, filepath.FromSlash(rel)))
	if err != nil {
		return "", false, fmt.Errorf("cannot read it: %s", reason(err))
	}
	return rel, fi.IsDir(), nil
}

// inside resolves the links of rel under the canonical folder canon and
// returns where it lands, relative to canon; a landing outside canon (or
// on canon itself) is errLinkOutside. A missing target wraps
// fs.ErrNotExist.
func inside(canon, rel string) (string, error) {
	target, err := filepath.EvalSymlinks(filepath.Join(canon, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("a link that cannot be followed: %s", reason(err))
	}
	r, err := filepath.Rel(canon, target)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", fmt.Errorf("not used: %w (it points to %s); copy the skill into the folder instead", errLinkOutside, target)
	}
	return filepath.ToSlash(r), nil
}

// readSkillFile reads the regular file rel of root (the canonical folder
// canon), at most MaxFileSize+1 bytes so Parse can refuse a larger one. A
// link leading out of canon is refused here with its reason, and by root
// itself should the tree change in between.
func readSkillFile(root *os.Root, canon, rel string) ([]byte, error) {
	real, err := inside(canon, rel)
	if err != nil {
		return nil, err
	}
	f, err := root.Open(filepath.FromSlash(real))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// reason is an error's text without the path the message already names.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
