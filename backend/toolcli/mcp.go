package toolcli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// MCPUsage is the help of `pi-desktop mcp`.
const MCPUsage = `Usage:
  pi-desktop mcp add NAME [--env K=V]... [--scope user|project] [--workspace DIR] -- COMMAND [ARGS...]
  pi-desktop mcp add NAME --url URL [--header "K: V"]... [--transport http|sse] [--scope user|project] [--workspace DIR]
  pi-desktop mcp list [--workspace DIR] [--json]
  pi-desktop mcp test NAME [--workspace DIR]
  pi-desktop mcp remove NAME [--scope user|project] [--workspace DIR]

Manages the MCP servers the agent can use. A user server is the app's own
(Settings → MCP servers); a project server lives in DIR/.mcp.json, is added
there for everyone who clones the project, and is trusted for this machine
because you added it. Header values, and env values whose name mentions a
key, token, secret or password, are kept in the OS keychain.

list shows each server's source, transport, state and tools; with
--workspace also that folder's servers and whether they are trusted (a file
that cannot be read is a row saying why). It connects only servers already
trusted, and registers nothing: a folder that is no project is only read.
test connects once, lists the tools and exits 1 with the reason when it
cannot.

Options:
  --data-dir DIR   the app's data folder (default: the app's)
  --workspace DIR  the project folder (default: the current folder for --scope project)
`

// listSettle bounds how long `mcp list` waits for servers still
// connecting: past the longest connect timeout a server is shown as it is.
const listSettle = 12 * time.Second

// secretName marks env variables whose value is a credential.
var secretName = regexp.MustCompile(`(?i)key|token|secret|passw|auth|credential`)

// repeated collects a flag given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ", ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// MCP runs `pi-desktop mcp` with args (after the word "mcp") and returns
// the exit code: 0 on success, 1 when the action failed, 2 on usage errors.
func MCP(ctx context.Context, args []string, env Env) int {
	cmd := subcommand{name: "mcp", usage: MCPUsage, env: env}
	usageErr := cmd.usageErr
	if len(args) == 0 {
		return usageErr("give a command: add, list, test or remove")
	}
	verb, rest := args[0], args[1:]
	if isHelp(verb) {
		return cmd.help()
	}
	var name string
	if verb != "list" {
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return usageErr("%s needs the server's NAME first", verb)
		}
		name, rest = rest[0], rest[1:]
	}
	// Everything after "--" is the server's command, never our flags.
	var command []string
	if i := slices.Index(rest, "--"); i >= 0 {
		rest, command = rest[:i], rest[i+1:]
	}
	fs := flag.NewFlagSet("pi-desktop mcp "+verb, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f commonFlags
	f.register(fs)
	scope := fs.String("scope", api.MCPScopeUser, "")
	url := fs.String("url", "", "")
	transport := fs.String("transport", "", "")
	var envs, headers repeated
	fs.Var(&envs, "env", "")
	fs.Var(&headers, "header", "")
	if err := ParseFlags(fs, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cmd.help()
		}
		return usageErr("%v", err)
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("unexpected argument %q (a server's command goes after --)", fs.Arg(0))
	case *scope != api.MCPScopeUser && *scope != api.MCPScopeProject:
		return usageErr("--scope must be user or project")
	}
	var in api.MCPServerInput
	if verb == "add" {
		var err error
		if in, err = addInput(name, command, *url, *transport, envs, headers); err != nil {
			return usageErr("%v", err)
		}
	} else if len(command) > 0 || *url != "" || len(envs) > 0 || len(headers) > 0 {
		return usageErr("only add takes a command, --url, --env or --header")
	}

	core, err := cmd.openHost(ctx, f.dataDir)
	if err != nil {
		return cmd.failed("", err)
	}
	defer core.Close()
	m := mcpCLI{core: core, env: env}
	ws := f.workspace
	if ws == "" && *scope == api.MCPScopeProject {
		ws = "."
	}
	switch verb {
	case "add":
		err = m.add(ctx, in, *scope, ws)
	case "list":
		err = m.list(ctx, ws, f.asJSON)
	case "test":
		err = m.test(ctx, name, ws)
	case "remove":
		err = m.remove(ctx, name, *scope, ws)
	default:
		return usageErr("unknown command %q; use add, list, test or remove", verb)
	}
	if err != nil {
		return cmd.failed(verb, err)
	}
	return 0
}

type discard struct{}

func (discard) Emit(string, any) {}

// addInput builds the definition `mcp add` describes.
func addInput(name string, command []string, url, transport string, envs, headers []string) (api.MCPServerInput, error) {
	in := api.MCPServerInput{ID: name, Enabled: true}
	switch {
	case url != "" && len(command) > 0:
		return in, errors.New("give either --url or a command after --, not both")
	case url != "":
		in.Transport, in.URL = cmp.Or(transport, "http"), url
		if len(envs) > 0 {
			return in, errors.New("--env is for a command's server; a remote one takes --header")
		}
	case len(command) > 0:
		if transport != "" && transport != "stdio" {
			return in, errors.New("--transport http or sse needs --url")
		}
		in.Transport, in.Command, in.Args = "stdio", command[0], command[1:]
		if len(headers) > 0 {
			return in, errors.New("--header is for a remote server (--url)")
		}
	default:
		return in, errors.New("give the server's command after --, or --url")
	}
	for _, kv := range envs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return in, fmt.Errorf("--env %q: write it as NAME=VALUE", kv)
		}
		in.Env = append(in.Env, api.MCPHeader{Name: k, Value: v, Secret: secretName.MatchString(k)})
	}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return in, fmt.Errorf("--header %q: write it as \"Name: value\"", h)
		}
		in.Headers = append(in.Headers, api.MCPHeader{Name: strings.TrimSpace(k), Value: strings.TrimSpace(v), Secret: true})
	}
	return in, nil
}

type mcpCLI struct {
	core *hostcore.Core
	env  Env
}

// project registers (or finds) the project at dir.
func (m mcpCLI) project(ctx context.Context, dir string) (api.Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return api.Project{}, err
	}
	return m.core.AddProject(ctx, abs)
}

func (m mcpCLI) add(ctx context.Context, in api.MCPServerInput, scope, ws string) error {
	if scope == api.MCPScopeUser {
		s, err := m.core.AddMCPServer(ctx, in)
		if err != nil {
			return err
		}
		fmt.Fprintf(m.env.Stdout, "Added MCP server %q (%s) to your servers.\n", s.ID, s.Transport)
		return nil
	}
	p, err := m.project(ctx, ws)
	if err != nil {
		return err
	}
	s, err := m.core.AddProjectMCPServer(ctx, p.ID, in)
	if err != nil {
		return err
	}
	fmt.Fprintf(m.env.Stdout, "Added MCP server %q (%s) to %s and trusted it on this machine.\n",
		s.ID, s.Transport, filepath.Join(p.Path, s.Source))
	return nil
}

func (m mcpCLI) remove(ctx context.Context, name, scope, ws string) error {
	if scope == api.MCPScopeUser {
		if err := m.core.RemoveMCPServer(ctx, name); err != nil {
			return err
		}
		fmt.Fprintf(m.env.Stdout, "Removed MCP server %q.\n", name)
		return nil
	}
	p, err := m.project(ctx, ws)
	if err != nil {
		return err
	}
	if err := m.core.RemoveProjectMCPServer(ctx, p.ID, name); err != nil {
		return err
	}
	fmt.Fprintf(m.env.Stdout, "Removed MCP server %q from %s.\n", name, filepath.Join(p.Path, ".mcp.json"))
	return nil
}

func (m mcpCLI) list(ctx context.Context, ws string, asJSON bool) error {
	// Listing changes nothing: a folder that is no project is only read.
	list, err := m.core.ListMCPServersAt(ctx, ws, listSettle)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(m.env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	if len(list) == 0 {
		fmt.Fprintln(m.env.Stdout, "No MCP servers. Add one with: pi-desktop mcp add NAME -- COMMAND [ARGS...]")
		return nil
	}
	w := tabwriter.NewWriter(m.env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tSOURCE\tTRANSPORT\tSTATE\tTOOLS\tTARGET")
	for _, s := range list {
		target := s.URL
		if s.Transport == "stdio" {
			target = strings.Join(append([]string{s.Command}, s.Args...), " ")
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\n", cmp.Or(s.ID, "-"), s.Source, cmp.Or(s.Transport, "-"), s.State, len(s.Tools), target)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, s := range list {
		switch {
		case s.Error != "" && s.ID == "": // a file or folder: its message names it
			fmt.Fprintf(m.env.Stdout, "\n%s\n", s.Error)
		case s.Error != "":
			fmt.Fprintf(m.env.Stdout, "\n%s: %s\n", s.ID, s.Error)
		}
		if s.Overridden {
			fmt.Fprintf(m.env.Stdout, "\n%s of your servers is overridden by the project's %s in its sessions.\n", s.ID, s.ID)
		}
		if s.State == api.MCPStateUntrusted {
			fmt.Fprintf(m.env.Stdout, "\n%s is not trusted, so it never starts; review its command and trust it in Settings → MCP servers.\n", s.ID)
		}
	}
	return nil
}

// test tests the project's server of that name when --workspace names a
// project that declares it, else the user's.
func (m mcpCLI) test(ctx context.Context, name, ws string) error {
	// The project's server of that name wins, as in its sessions; only the
	// one tested connects.
	var res api.MCPTestResult
	var err error = errs.New(errs.NotFound, "no project")
	if ws != "" {
		res, err = m.core.TestMCPServerAt(ctx, ws, name) // registers nothing
	}
	if errs.Is(err, errs.NotFound) {
		res, err = m.core.TestMCPServerByID(ctx, "", name)
	}
	if err != nil {
		return err
	}
	if !res.OK {
		for _, l := range res.LogTail {
			fmt.Fprintf(m.env.Stderr, "  | %s\n", l)
		}
		return errs.New(errs.Code(res.ErrorCode), "%s", res.Error)
	}
	fmt.Fprintf(m.env.Stdout, "MCP server %q answered with %d tools:\n", name, len(res.Tools))
	for _, t := range res.Tools {
		fmt.Fprintf(m.env.Stdout, "  %s (%s)\n", t.Name, t.ModelName)
	}
	return nil
}
