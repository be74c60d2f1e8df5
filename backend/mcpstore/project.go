package mcpstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// Where a project declares servers, relative to its root. ProjectFolder is
// the Source of the one failed row listed for a project folder that cannot
// be read at all.
const (
	ProjectConfigFile = ".mcp.json"
	ProjectServersDir = ".agents/servers"
	ProjectFolder     = "."
)

// Bounds on what is read from a project: files a server list never needs
// are refused, not read.
const (
	MaxProjectFileBytes = mcp.MaxConfigBytes // per file
	MaxServerFiles      = 64                 // .json files read from .agents/servers
)

// ProjectServer is one server a project declares, as written in its file
// (${VAR} references unexpanded: see Expand), or one that could not be used.
type ProjectServer struct {
	Server mcp.Server
	// Source is ".mcp.json" or ".agents/servers/<file>.json".
	Source string
	// Hash is Server.DefinitionHash(): what trust is given to.
	Hash string
	// Problem says why the entry or file cannot be used (INVALID_ARGUMENT);
	// Server.ID is "" when a whole file is unreadable. Such an entry never
	// starts.
	Problem *errs.Error
	// Trusted is set by Service.WithProjectState.
	Trusted bool
}

// API is the entry as Settings and `mcp list` show it: the definition as
// written (it is in the repository, nothing is secret), its trust and hash.
func (p ProjectServer) API(projectID string) api.MCPServer {
	s := p.Server
	out := api.MCPServer{
		ID: s.ID, Scope: api.MCPScopeProject, ProjectID: projectID, Source: p.Source,
		Transport: string(s.Transport), Command: s.Command, Args: nonNil(s.Args), Cwd: s.Cwd, URL: s.URL,
		Env: writtenPairs(s.Env), Headers: writtenPairs(s.Headers), Enabled: s.Enabled,
		Trusted: p.Trusted, DefinitionHash: p.Hash,
		ConnectTimeoutMs: s.ConnectTimeout.Milliseconds(), CallTimeoutMs: s.CallTimeout.Milliseconds(),
		Tools: []api.MCPTool{}, LogTail: []string{},
	}
	switch {
	case p.Problem != nil:
		out.State, out.ErrorCode, out.Error = api.MCPStateFailed, string(p.Problem.Code), p.Problem.Message
	case !p.Trusted:
		out.State = api.MCPStateUntrusted
	}
	return out
}

func writtenPairs(m map[string]string) []api.MCPHeader {
	out := make([]api.MCPHeader, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, api.MCPHeader{Name: k, Value: m[k], HasValue: true})
	}
	return out
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// ProjectServers reads the servers the project at root declares, in this
// order, a later one replacing an earlier one of the same id:
//
//  1. <root>/.mcp.json: {"mcpServers": {"<id>": {…}, …}} (mcp.ParseProjectConfig);
//  2. <root>/.agents/servers/*.json in name order, each file either
//     - the same {"mcpServers": {…}} shape, or
//     - one server object ({"command": …} or {"type": "http", "url": …})
//     whose id is the file name without ".json".
//
// Files are read through an os.Root, so a symbolic link cannot lead outside
// the project; they must be regular files of at most MaxProjectFileBytes,
// and at most MaxServerFiles are read from .agents/servers (dot files are
// skipped). A file or entry that cannot be used is reported as a Problem
// and does not hide the others; an entry with a problem still replaces an
// earlier definition of its id, so a broken edit never silently falls back
// to another definition. Nothing is run or expanded. The result is sorted
// by id, then source. The error is for a root that cannot be opened.
func ProjectServers(root string) ([]ProjectServer, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, errs.Wrap(err, errs.ProjectNotFound, "the project folder %s cannot be opened; check that it exists and is readable", root).With("path", root)
	}
	defer r.Close()
	byID := map[string]ProjectServer{}
	var fileProblems []ProjectServer
	add := func(list []ProjectServer) {
		for _, p := range list {
			if p.Server.ID == "" {
				fileProblems = append(fileProblems, p)
			} else {
				byID[p.Server.ID] = p
			}
		}
	}
	if data, problem := readProjectFile(r, ProjectConfigFile); problem != nil {
		add([]ProjectServer{{Source: ProjectConfigFile, Problem: problem}})
	} else if data != nil {
		add(parseServerFile(ProjectConfigFile, data, false))
	}
	names, problem := serverFiles(r)
	if problem != nil {
		add([]ProjectServer{{Source: ProjectServersDir, Problem: problem}})
	}
	for _, name := range names {
		source := ProjectServersDir + "/" + name
		data, problem := readProjectFile(r, source)
		if problem != nil {
			// The file names the server it would define.
			add([]ProjectServer{{Server: mcp.Server{ID: strings.TrimSuffix(name, ".json")}, Source: source, Problem: problem}})
			continue
		}
		if data != nil {
			add(parseServerFile(source, data, true))
		}
	}
	out := append(fileProblems, mapValues(byID)...)
	slices.SortStableFunc(out, func(a, b ProjectServer) int {
		if c := strings.Compare(a.Server.ID, b.Server.ID); c != 0 {
			return c
		}
		return strings.Compare(a.Source, b.Source)
	})
	return out, nil
}

func mapValues(m map[string]ProjectServer) []ProjectServer {
	out := make([]ProjectServer, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func fileProblem(source, format string, args ...any) *errs.Error {
	return errs.New(errs.InvalidArgument, source+" "+format, args...).With("source", source)
}

// readProjectFile reads name (slash-separated, under the root). A missing
// file is (nil, nil); anything but a regular file within the size bound is
// a problem, never read. Stat before Open keeps a FIFO from blocking the
// read.
func readProjectFile(r *os.Root, name string) ([]byte, *errs.Error) {
	fi, err := r.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := r.Lstat(name); lerr == nil {
			return nil, fileProblem(name, "is a link to nothing inside the project; it was not read")
		}
		return nil, nil
	}
	if err != nil {
		return nil, fileProblem(name, "cannot be read within the project (a link outside the project is never followed); replace it with a regular file")
	}
	if !fi.Mode().IsRegular() {
		return nil, fileProblem(name, "is not a regular file; it was not read")
	}
	if fi.Size() > MaxProjectFileBytes {
		return nil, fileProblem(name, "is larger than %d bytes; a server list is far smaller, so it was not read", MaxProjectFileBytes)
	}
	f, err := r.Open(name)
	if err != nil {
		return nil, fileProblem(name, "cannot be opened within the project; a link outside the project is never followed")
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxProjectFileBytes+1))
	if err != nil {
		return nil, fileProblem(name, "could not be read")
	}
	if len(data) > MaxProjectFileBytes {
		return nil, fileProblem(name, "is larger than %d bytes; a server list is far smaller, so it was not read", MaxProjectFileBytes)
	}
	return data, nil
}

// serverFiles lists the .json files of .agents/servers in name order, at
// most MaxServerFiles (the rest are a problem).
func serverFiles(r *os.Root) ([]string, *errs.Error) {
	d, err := r.Open(ProjectServersDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fileProblem(ProjectServersDir, "cannot be opened within the project (a link outside the project is never followed)")
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, fileProblem(ProjectServersDir, "is not a readable folder")
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".json") || len(n) == len(".json") || e.IsDir() {
			continue
		}
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) > MaxServerFiles {
		return names[:MaxServerFiles], fileProblem(ProjectServersDir, "holds %d server files; only the first %d (by name) were read", len(names), MaxServerFiles)
	}
	return names, nil
}

// parseServerFile parses one file. oneServer allows the single-server
// shape (.agents/servers files); .mcp.json must have "mcpServers".
func parseServerFile(source string, data []byte, oneServer bool) []ProjectServer {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return []ProjectServer{{Source: source, Problem: fileProblem(source, "is not a JSON object (%s); write {\"mcpServers\": {…}}%s", syntaxProblem(err), oneServerHint(oneServer))}}
	}
	_, listed := top["mcpServers"]
	if oneServer && !listed {
		id := strings.TrimSuffix(path.Base(source), ".json")
		// The single server becomes an mcpServers list of one, so both
		// shapes go through the one parser and its checks.
		name, _ := json.Marshal(id)
		data = slices.Concat([]byte(`{"mcpServers":{`), name, []byte(":"), bytes.TrimSpace(data), []byte("}}"))
	}
	cfg, err := mcp.ParseProjectConfig(data)
	if err != nil {
		e := errs.As(err)
		msg := "cannot be used"
		if e != nil {
			msg = strings.ReplaceAll(e.Message, ProjectConfigFile, "the file")
		}
		return []ProjectServer{{Source: source, Problem: fileProblem(source, "cannot be used: %s", msg)}}
	}
	out := make([]ProjectServer, 0, len(cfg.Servers)+len(cfg.Problems))
	for _, s := range cfg.Servers {
		out = append(out, ProjectServer{Server: s, Source: source, Hash: s.DefinitionHash()})
	}
	for _, p := range cfg.Problems {
		id, _ := p.Details["server"].(string)
		out = append(out, ProjectServer{Server: mcp.Server{ID: id}, Source: source, Problem: p.With("source", source)})
	}
	return out
}

func oneServerHint(oneServer bool) string {
	if oneServer {
		return " or one server object {\"command\": …}"
	}
	return ""
}

func syntaxProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "syntax error at byte " + strconv.FormatInt(se.Offset, 10)
	}
	return "not an object"
}
