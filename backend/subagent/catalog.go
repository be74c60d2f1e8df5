package subagent

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/frontmatter"
)

//go:embed builtin/*.md
var builtinFiles embed.FS

// UserDirName is the folder of the user's definitions in the app's data
// folder, and the one under ~/.agents.
const UserDirName = "subagents"

// Project folders, relative to its root, in override order.
const (
	ClaudeProjectDir = ".claude/agents"
	ProjectDir       = ".agents/subagents"
)

// UserDir is where Save writes: the app's own definitions.
func UserDir(dataDir string) string { return filepath.Join(dataDir, UserDirName) }

// Sources says where Load looks. An empty field skips its source.
type Sources struct {
	DataDir     string // <DataDir>/subagents
	Home        string // <Home>/.agents/subagents
	ProjectRoot string // <ProjectRoot>/.claude/agents and .agents/subagents
	Profiles    []ProfileRef
	// Plugins are the folders of the enabled plugins the user consented
	// to: each one's subagents/ folder, after every other source.
	Plugins []string
}

// PluginDir is a plugin folder's subagents/ folder.
func PluginDir(pluginDir string) string { return filepath.Join(pluginDir, UserDirName) }

// State is a listed definition's standing.
type State string

const (
	StateEffective  State = "effective"  // a session can delegate to it
	StateOverridden State = "overridden" // a later source defines the same name
	StateOverLimit  State = "over-limit" // beyond the first MaxInEffect
	StateError      State = "error"      // the file cannot be used; Error says why
)

// Row is one definition as listed: every builtin and every file seen.
type Row struct {
	Definition
	State State
	// Error is why the file cannot be used (State error).
	Error string
	// OverriddenBy is the Path of the definition that replaced this one.
	OverriddenBy string
	// Editable is true for the app's own definitions (UserDir), which
	// Save and Delete change; the others are edited in their files.
	Editable bool
}

// Catalog is the result of Load.
type Catalog struct {
	// Definitions are the ones in effect, sorted by name.
	Definitions []Definition
	// Rows are all definitions seen, sorted by name, then source order.
	Rows []Row
}

// Lookup returns the definition in effect with that name.
func (c Catalog) Lookup(name string) (Definition, bool) {
	i := slices.IndexFunc(c.Definitions, func(d Definition) bool { return d.Name == name })
	if i < 0 {
		return Definition{}, false
	}
	return c.Definitions[i], true
}

// Load reads every source, applies the override order (later sources
// replace earlier ones by name) and the limit of MaxInEffect. Only a
// cancelled ctx fails it: every unreadable or invalid file is a Row.
func Load(ctx context.Context, src Sources) (Catalog, error) {
	var rows []Row
	rows = append(rows, builtinRows(src.Profiles)...)
	if src.DataDir != "" {
		rows = append(rows, readDir(os.DirFS(UserDir(src.DataDir)), UserDir(src.DataDir), File{Source: SourceUser}, src.Profiles, true)...)
	}
	if src.Home != "" {
		dir := filepath.Join(src.Home, ".agents", UserDirName)
		rows = append(rows, readDir(os.DirFS(dir), dir, File{Source: SourceUser}, src.Profiles, false)...)
	}
	if src.ProjectRoot != "" {
		prows, err := projectRows(src.ProjectRoot, src.Profiles)
		if err != nil {
			return Catalog{}, err
		}
		rows = append(rows, prows...)
	}
	for _, p := range src.Plugins {
		dir := PluginDir(p)
		rows = append(rows, readDir(os.DirFS(dir), dir, File{Source: SourcePlugin}, src.Profiles, false)...)
	}
	if err := ctx.Err(); err != nil {
		return Catalog{}, err
	}
	return settle(rows), nil
}

// settle marks overridden and over-limit rows and sorts. rows come in
// override order.
func settle(rows []Row) Catalog {
	winner := map[string]int{} // name → index of the row in effect
	for i := range rows {
		r := &rows[i]
		if r.State == StateError {
			continue
		}
		if prev, ok := winner[r.Name]; ok && r.Source == SourcePlugin {
			r.State, r.OverriddenBy = StateOverridden, rows[prev].Path
			r.Warnings = append(r.Warnings, fmt.Sprintf("not used: a plugin never replaces the %s definition %q (%s)", rows[prev].Source, r.Name, rows[prev].Path))
			continue
		} else if ok {
			rows[prev].State, rows[prev].OverriddenBy = StateOverridden, r.Path
			r.Overrides = rows[prev].Path
		}
		r.State = StateEffective
		winner[r.Name] = i
	}
	// Over the limit, the earlier sources keep their place: a cloned
	// repository full of definitions cannot push out the user's own.
	var effective []int
	for i := range rows {
		if rows[i].State == StateEffective {
			effective = append(effective, i)
		}
	}
	slices.SortStableFunc(effective, func(a, b int) int {
		return cmp.Or(cmp.Compare(rank(rows[a].Source), rank(rows[b].Source)), strings.Compare(rows[a].Name, rows[b].Name))
	})
	var cat Catalog
	for n, i := range effective {
		if n >= MaxInEffect {
			rows[i].State = StateOverLimit
			rows[i].Warnings = append(rows[i].Warnings, fmt.Sprintf("over the limit of %d definitions in effect: not available to the agent; remove or merge some", MaxInEffect))
			continue
		}
		cat.Definitions = append(cat.Definitions, rows[i].Definition)
	}
	slices.SortFunc(cat.Definitions, func(a, b Definition) int { return strings.Compare(a.Name, b.Name) })
	// rows is in override order; a stable sort by name keeps that order
	// among definitions of the same name.
	slices.SortStableFunc(rows, func(a, b Row) int { return strings.Compare(a.Name, b.Name) })
	cat.Rows = rows
	return cat
}

func rank(s Source) int {
	switch s {
	case SourceBuiltin:
		return 0
	case SourceUser:
		return 1
	case SourcePlugin:
		return 3
	}
	return 2
}

func builtinRows(profiles []ProfileRef) []Row {
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		panic(err) // embedded at build time
	}
	var rows []Row
	for _, e := range entries {
		data, err := builtinFiles.ReadFile("builtin/" + e.Name())
		if err != nil {
			panic(err)
		}
		name := strings.TrimSuffix(e.Name(), ".md")
		def, err := Parse(data, File{Source: SourceBuiltin, Path: "builtin:" + name}, profiles)
		if err != nil || def.Name != name {
			panic(fmt.Sprintf("builtin subagent %s: %v", name, err)) // a test parses every builtin
		}
		rows = append(rows, Row{Definition: def})
	}
	return rows
}

// readDir parses every *.md file of fsys (shown as dir), in name order.
// A missing folder has no rows; any other failure to read it is one.
func readDir(fsys fs.FS, dir string, f File, profiles []ProfileRef, editable bool) []Row {
	entries, err := fs.ReadDir(fsys, ".")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []Row{errorRow(f, dir, "", "cannot read the folder: "+reason(err), editable)}
	}
	var rows []Row
	seen := map[string]string{} // name → path, within this folder
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		file := f
		file.Path = filepath.Join(dir, e.Name())
		stem := strings.TrimSuffix(e.Name(), ".md")
		data, err := readBounded(fsys, e.Name())
		if err != nil {
			rows = append(rows, errorRow(file, file.Path, stem, reason(err), editable))
			continue
		}
		def, err := Parse(data, file, profiles)
		if err != nil {
			rows = append(rows, errorRow(file, file.Path, stem, err.Error(), editable))
			continue
		}
		if first, dup := seen[def.Name]; dup {
			rows = append(rows, errorRow(file, file.Path, def.Name, fmt.Sprintf("%s in the same folder already defines %q", filepath.Base(first), def.Name), editable))
			continue
		}
		seen[def.Name] = file.Path
		rows = append(rows, Row{Definition: def, Editable: editable})
	}
	return rows
}

// readBounded reads a regular file of at most frontmatter.MaxSize bytes.
func readBounded(fsys fs.FS, name string) ([]byte, error) {
	file, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	// The limit holds even if the file grows after the Stat.
	data, err := io.ReadAll(io.LimitReader(file, frontmatter.MaxSize+1))
	if err == nil && (info.Size() > frontmatter.MaxSize || len(data) > frontmatter.MaxSize) {
		err = fmt.Errorf("%w: %d bytes, the limit is %d", frontmatter.ErrTooLarge, max(info.Size(), int64(len(data))), frontmatter.MaxSize)
	}
	return data, err
}

// errorRow lists a file that cannot be used, named after its file.
func errorRow(f File, path, name, why string, editable bool) Row {
	return Row{Definition: Definition{Name: name, Source: f.Source, Path: path}, State: StateError, Error: why, Editable: editable}
}

// reason is an error's text without the path the row already shows.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if strings.Contains(pe.Err.Error(), "escapes") {
			return "a link that leads out of the project: project definitions must be files inside it"
		}
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// projectRows reads the project's folders through an os.Root, so a link
// cannot make a cloned repository's definition come from outside it.
func projectRows(root string, profiles []ProfileRef) ([]Row, error) {
	r, err := os.OpenRoot(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return []Row{errorRow(File{Source: SourceProject}, root, "", "cannot open the project folder: "+reason(err), false)}, nil
	}
	defer r.Close()
	var rows []Row
	for _, d := range []struct {
		dir    string
		claude bool
	}{{ClaudeProjectDir, true}, {ProjectDir, false}} {
		f := File{Source: SourceProject, Claude: d.claude}
		shown := filepath.Join(root, filepath.FromSlash(d.dir))
		sub, err := fs.Sub(r.FS(), d.dir)
		if err != nil {
			return nil, err
		}
		rows = append(rows, readDir(sub, shown, f, profiles, false)...)
	}
	return rows, nil
}
