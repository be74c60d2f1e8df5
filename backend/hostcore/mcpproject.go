package hostcore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
)

// AddProjectMCPServer writes a server into the project's .mcp.json (what
// `pi-desktop mcp add --scope project` does) and trusts that definition on
// this machine, since the user wrote it. The file is shared with everyone
// who clones the project, so a secret value is refused: reference an
// environment variable (${NAME}) instead.
func (c *Core) AddProjectMCPServer(ctx context.Context, projectID string, in api.MCPServerInput) (api.MCPServer, error) {
	p, err := c.sessions.Project(ctx, projectID)
	if err != nil {
		return api.MCPServer{}, err
	}
	entry, err := projectEntry(in)
	if err != nil {
		return api.MCPServer{}, err
	}
	// A file in .agents/servers of that name would win over the entry:
	// refuse before writing anything.
	if before, err := mcpstore.ProjectServers(p.Path); err == nil {
		if i := slices.IndexFunc(before, func(ps mcpstore.ProjectServer) bool { return ps.Server.ID == in.ID }); i >= 0 && before[i].Source != mcpstore.ProjectConfigFile {
			return api.MCPServer{}, errs.New(errs.Conflict, "%s declares MCP server %q already, and it wins over %s; pick another name", before[i].Source, in.ID, mcpstore.ProjectConfigFile).With("server", in.ID)
		}
	}
	err = editMCPJSON(p.Path, func(servers map[string]json.RawMessage) error {
		if _, taken := servers[in.ID]; taken {
			return errs.New(errs.Conflict, "%s already declares MCP server %q; remove it first or pick another name", mcpstore.ProjectConfigFile, in.ID).With("server", in.ID)
		}
		servers[in.ID] = entry
		return nil
	})
	if err != nil {
		return api.MCPServer{}, err
	}
	list, err := mcpstore.ProjectServers(p.Path)
	if err != nil {
		return api.MCPServer{}, err
	}
	i := slices.IndexFunc(list, func(ps mcpstore.ProjectServer) bool { return ps.Server.ID == in.ID })
	if i < 0 || list[i].Source != mcpstore.ProjectConfigFile {
		return api.MCPServer{}, errs.New(errs.Conflict, "MCP server %q was added to %s, but a file in %s declares the same name and wins; rename one of them",
			in.ID, mcpstore.ProjectConfigFile, mcpstore.ProjectServersDir).With("server", in.ID)
	}
	if list[i].Problem != nil {
		return api.MCPServer{}, list[i].Problem
	}
	if err := c.mcp.store.Trust(ctx, projectID, in.ID, list[i].Hash); err != nil {
		return api.MCPServer{}, err
	}
	if err := c.mcpResync(ctx, projectID, in.ID); err != nil {
		return api.MCPServer{}, err
	}
	list[i].Trusted = true
	return list[i].API(projectID), nil
}

// RemoveProjectMCPServer deletes a server from the project's .mcp.json and
// forgets its trust.
func (c *Core) RemoveProjectMCPServer(ctx context.Context, projectID, id string) error {
	p, err := c.sessions.Project(ctx, projectID)
	if err != nil {
		return err
	}
	err = editMCPJSON(p.Path, func(servers map[string]json.RawMessage) error {
		if _, ok := servers[id]; !ok {
			return errs.New(errs.NotFound, "%s declares no MCP server %q; a server from %s is removed by deleting its file", mcpstore.ProjectConfigFile, id, mcpstore.ProjectServersDir).With("server", id)
		}
		delete(servers, id)
		return nil
	})
	if err != nil {
		return err
	}
	if err := c.mcp.store.Untrust(ctx, projectID, id); err != nil {
		return err
	}
	return c.mcpResync(ctx, projectID, id)
}

// projectEntry is the .mcp.json value of a form, in the shape other agents
// read too.
func projectEntry(in api.MCPServerInput) (json.RawMessage, error) {
	plain := func(field string, list []api.MCPHeader) (map[string]string, error) {
		if len(list) == 0 {
			return nil, nil
		}
		m := map[string]string{}
		for _, h := range list {
			if h.Secret && !strings.Contains(h.Value, "${") {
				return nil, errs.New(errs.InvalidArgument,
					"%s %q looks secret, and %s is shared with everyone who clones the project; set it in your environment and write ${%s} as its value",
					field, h.Name, mcpstore.ProjectConfigFile, envName(h.Name)).With("field", field)
			}
			m[h.Name] = h.Value
		}
		return m, nil
	}
	env, err := plain("env", in.Env)
	if err != nil {
		return nil, err
	}
	headers, err := plain("headers", in.Headers)
	if err != nil {
		return nil, err
	}
	type entry struct {
		Type    string            `json:"type,omitempty"`
		Command string            `json:"command,omitempty"`
		Args    []string          `json:"args,omitempty"`
		Env     map[string]string `json:"env,omitempty"`
		Cwd     string            `json:"cwd,omitempty"`
		URL     string            `json:"url,omitempty"`
		Headers map[string]string `json:"headers,omitempty"`
	}
	e := entry{Command: in.Command, Args: in.Args, Env: env, Cwd: in.Cwd, URL: in.URL, Headers: headers}
	if in.Transport != "" && in.Transport != string(mcp.TransportStdio) {
		e.Type = in.Transport
	}
	raw, _ := json.Marshal(e)
	// Check it as the file will be read.
	doc, _ := json.Marshal(map[string]map[string]json.RawMessage{"mcpServers": {in.ID: raw}})
	cfg, err := mcp.ParseProjectConfig(doc)
	if err != nil {
		return nil, err
	}
	if len(cfg.Problems) > 0 {
		return nil, cfg.Problems[0]
	}
	return raw, nil
}

// envName is a variable name for a header or env name (X-Api-Key →
// X_API_KEY).
func envName(s string) string {
	return strings.ToUpper(strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return '_'
		}
		return r
	}, s))
}

// editMCPJSON rewrites the "mcpServers" object of root/.mcp.json with
// edit, keeping the file's other keys; a missing file starts empty. The
// file is read and replaced through an os.Root, so a link cannot make the
// edit land outside the project, and replaced by rename, so a crash never
// leaves half a file.
func editMCPJSON(root string, edit func(map[string]json.RawMessage) error) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return errs.Wrap(err, errs.ProjectNotFound, "the project folder %s cannot be opened", root).With("path", root)
	}
	defer r.Close()
	name := mcpstore.ProjectConfigFile
	doc := map[string]json.RawMessage{}
	servers := map[string]json.RawMessage{}
	data, err := readSmall(r, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		if err := json.Unmarshal(data, &doc); err != nil {
			return errs.New(errs.InvalidArgument, "%s is not a JSON object (%v); fix or remove it first", name, err).With("field", name)
		}
		if raw, ok := doc["mcpServers"]; ok {
			if err := json.Unmarshal(raw, &servers); err != nil || servers == nil {
				return errs.New(errs.InvalidArgument, "\"mcpServers\" in %s is not an object; fix it first", name).With("field", name)
			}
		}
	}
	if err := edit(servers); err != nil {
		return err
	}
	doc["mcpServers"], _ = json.Marshal(servers)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	tmp := name + ".pi-tmp"
	if err := r.WriteFile(tmp, out.Bytes(), 0o644); err != nil {
		return errs.Wrap(err, errs.Internal, "cannot write %s in %s: %v; check that the folder is writable", name, root, err)
	}
	if err := r.Rename(tmp, name); err != nil {
		_ = r.Remove(tmp)
		return errs.Wrap(err, errs.Internal, "cannot replace %s in %s: %v; check that the folder is writable", name, root, err)
	}
	return nil
}

func readSmall(r *os.Root, name string) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, mcp.MaxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > mcp.MaxConfigBytes {
		return nil, errs.New(errs.InvalidArgument, "%s is larger than %d bytes; trim it first", name, mcp.MaxConfigBytes)
	}
	return data, nil
}
