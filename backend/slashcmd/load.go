package slashcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/frontmatter"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Folders, relative to a user's home or a project's root, in override order.
const (
	ClaudeDir = ".claude/commands"
	AgentsDir = ".agents/commands"
	// DataDirName is the app's own folder of commands in its data folder.
	DataDirName = "commands"
)

// Sources says where Load looks. An empty field skips its source.
type Sources struct {
	Home        string // ~/.claude/commands, ~/.agents/commands
	DataDir     string // <DataDir>/commands
	ProjectRoot string // .claude/commands, .agents/commands
	// Plugins are the folders of the enabled plugins the user consented
	// to: each one's commands/ folder, after every other source.
	Plugins []string
}

// Load reads every source and applies the override order. Only a cancelled
// ctx fails it: every unreadable or invalid file is a Row.
func Load(ctx context.Context, src Sources) (Catalog, error) {
	var rows []Row
	if src.Home != "" {
		for _, d := range []string{ClaudeDir, AgentsDir} {
			dir := filepath.Join(src.Home, filepath.FromSlash(d))
			rows = append(rows, readTree(os.DirFS(dir), dir, SourceUser)...)
		}
	}
	if src.DataDir != "" {
		dir := filepath.Join(src.DataDir, DataDirName)
		rows = append(rows, readTree(os.DirFS(dir), dir, SourceUser)...)
	}
	if src.ProjectRoot != "" {
		rows = append(rows, projectRows(src.ProjectRoot)...)
	}
	for _, p := range src.Plugins {
		dir := filepath.Join(p, DataDirName)
		rows = append(rows, readTree(os.DirFS(dir), dir, SourcePlugin)...)
	}
	if err := ctx.Err(); err != nil {
		return Catalog{}, err
	}
	return settle(rows), nil
}

// projectRows reads the project's folders through an os.Root, so a link in
// a cloned repository cannot bring a command in from outside it.
func projectRows(root string) []Row {
	r, err := os.OpenRoot(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []Row{errorRow(SourceProject, root, "", "cannot open the project folder: "+reason(err))}
	}
	defer r.Close()
	var rows []Row
	for _, d := range []string{ClaudeDir, AgentsDir} {
		sub, err := fs.Sub(r.FS(), d)
		if err != nil { // d is a constant, valid path
			panic(err)
		}
		rows = append(rows, readTree(sub, filepath.Join(root, filepath.FromSlash(d)), SourceProject)...)
	}
	return rows
}

// settle marks overridden rows and sorts; rows come in override order.
func settle(rows []Row) Catalog {
	winner := map[string]int{}
	for i := range rows {
		r := &rows[i]
		if r.State == StateError {
			continue
		}
		if prev, ok := winner[r.Name]; ok && r.Source == SourcePlugin {
			r.State = StateOverridden
			r.Problems = append(r.Problems, fmt.Sprintf("not used: a plugin never replaces %s (%s), which has the same name", rows[prev].Path, rows[prev].Source))
			continue
		} else if ok {
			rows[prev].State = StateOverridden
			rows[prev].Problems = append(rows[prev].Problems, fmt.Sprintf("replaced by %s (%s), which has the same name", r.Path, r.Source))
		}
		r.State = StateEffective
		winner[r.Name] = i
	}
	var cat Catalog
	for _, r := range rows {
		if r.State == StateEffective {
			cat.Commands = append(cat.Commands, r.Command)
		}
	}
	slices.SortFunc(cat.Commands, func(a, b Command) int { return strings.Compare(a.Name, b.Name) })
	slices.SortStableFunc(rows, func(a, b Row) int { return strings.Compare(a.Name, b.Name) })
	cat.Rows = rows
	return cat
}

// readTree reads every *.md file of fsys (shown as dir) down to MaxDepth
// subfolders, in lexical order. A missing folder has no rows; any other
// failure to read it is one.
func readTree(fsys fs.FS, dir string, src Source) []Row {
	var rows []Row
	files := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		shown := filepath.Join(dir, filepath.FromSlash(p))
		if err != nil {
			if p == "." && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			rows = append(rows, errorRow(src, shown, "", "cannot read: "+reason(err)))
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") && p != "." {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != "." && strings.Count(p, "/")+1 > MaxDepth {
				rows = append(rows, errorRow(src, shown, "", fmt.Sprintf("more than %d folders deep: its commands are not read; move them up", MaxDepth)))
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		files++
		if files > MaxFiles {
			rows = append(rows, errorRow(src, dir, "", fmt.Sprintf("more than %d command files: %s and the files after it are not read; remove or merge some", MaxFiles, p)))
			return fs.SkipAll
		}
		rows = append(rows, readFile(fsys, p, shown, src))
		return nil
	})
	if err != nil { // the walk function never fails; fs.WalkDir passes it on
		rows = append(rows, errorRow(src, dir, "", "cannot read the folder: "+reason(err)))
	}
	return rows
}

// readFile turns one file into a row; p is its slash path under the source
// folder.
func readFile(fsys fs.FS, p, shown string, src Source) Row {
	name, nameErr := nameOf(p)
	if nameErr != "" {
		return errorRow(src, shown, name, nameErr)
	}
	if Builtin(name) {
		return errorRow(src, shown, name, fmt.Sprintf("/%s is a built-in command of the composer; rename the file", name))
	}
	data, err := readBounded(fsys, p)
	if err != nil {
		return errorRow(src, shown, name, reason(err))
	}
	cmd, problems, err := Parse(data)
	if err != nil {
		return errorRow(src, shown, name, err.Error())
	}
	cmd.Name, cmd.Source, cmd.Path = name, src, shown
	return Row{Command: cmd, Problems: problems}
}

// nameOf is a command's name from its slash path: git/commit.md is
// "git:commit". A part that cannot be typed is the reason it has none.
func nameOf(p string) (string, string) {
	parts := strings.Split(strings.TrimSuffix(p, ".md"), "/")
	name := strings.Join(parts, ":")
	for _, part := range parts {
		if !validPart(part) {
			return name, fmt.Sprintf("%q cannot be typed after /: use letters, digits, -, _ and . (at most 64 characters per part)", part)
		}
	}
	return name, ""
}

// Parse reads one command file: its front matter and template. An error
// means the file cannot be used; problems are what of it was ignored.
func Parse(data []byte) (Command, []string, error) {
	doc, err := frontmatter.Parse(data)
	if err != nil {
		return Command{}, nil, err
	}
	var cmd Command
	var problems []string
	for _, k := range doc.Keys {
		v := doc.Fields[k]
		switch k {
		case "description", "argument-hint":
			s, ok := text(v)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s is not text: ignored", k))
				continue
			}
			if k == "description" {
				cmd.Description = clip(s, MaxDescription, &problems, k)
			} else {
				cmd.ArgumentHint = clip(s, MaxArgumentHint, &problems, k)
			}
		default:
			problems = append(problems, fmt.Sprintf("front matter key %q is not supported here: ignored", k))
		}
	}
	cmd.Template = strings.TrimSpace(doc.Body)
	if cmd.Template == "" {
		return Command{}, nil, errors.New("the template is empty: write the prompt below the front matter")
	}
	if strings.Contains(cmd.Template, "!`") {
		problems = append(problems, "!`command` lines are not run here: the text is sent as written")
	}
	return cmd, problems, nil
}

// text is a scalar front matter value as text (YAML may read 1.0 or yes
// as a number or a bool; the user meant the words).
func text(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v), true
	case nil:
		return "", true
	case int, float64, bool:
		return fmt.Sprint(v), true
	}
	return "", false
}

func clip(s string, limit int, problems *[]string, key string) string {
	if len(s) <= limit {
		return s
	}
	*problems = append(*problems, fmt.Sprintf("%s is longer than %d bytes: cut", key, limit))
	return truncate.Bytes(s, limit)
}

// readBounded reads a regular file of at most MaxSize bytes.
func readBounded(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	// The limit holds even if the file grows after the Stat.
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if info.Size() > MaxSize || len(data) > MaxSize {
		return nil, fmt.Errorf("%d bytes: the limit is %d; shorten the template", max(info.Size(), int64(len(data))), MaxSize)
	}
	return data, nil
}

func errorRow(src Source, shown, name, why string) Row {
	if name == "" {
		name = strings.TrimSuffix(path.Base(filepath.ToSlash(shown)), ".md")
	}
	return Row{Command: Command{Name: name, Source: src, Path: shown}, State: StateError, Problems: []string{why}}
}

// reason is an error's text without the path the row already shows.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if strings.Contains(pe.Err.Error(), "escapes") {
			return "a link that leads out of the project: project commands must be files inside it"
		}
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
