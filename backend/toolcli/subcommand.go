package toolcli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

// subcommand is what `pi-desktop rules`, `mcp` and `subagents` share: how
// they answer help, a usage error and a failure, the options all of them
// take, and how they open the app's data.
type subcommand struct {
	name  string // "rules"
	usage string
	env   Env
}

// isHelp reports a verb asking for the usage.
func isHelp(verb string) bool { return verb == "-h" || verb == "--help" || verb == "help" }

// help prints the usage on stdout: exit 0.
func (s subcommand) help() int {
	fmt.Fprint(s.env.Stdout, s.usage)
	return 0
}

// usageErr prints what is wrong with the command line, then the usage:
// exit 2.
func (s subcommand) usageErr(format string, a ...any) int {
	fmt.Fprintf(s.env.Stderr, "pi-desktop "+s.name+": "+format+"\n\n%s", append(a, s.usage)...)
	return 2
}

// failed prints why verb failed ("" = before a verb ran): exit 1.
func (s subcommand) failed(verb string, err error) int {
	prefix := "pi-desktop " + s.name
	if verb != "" {
		prefix += " " + verb
	}
	fmt.Fprintf(s.env.Stderr, "%s: %s\n", prefix, errs.ToPayload(err).Message)
	return 1
}

// commonFlags are the options every one of the three takes.
type commonFlags struct {
	dataDir, workspace string
	asJSON             bool
}

// register adds --data-dir, --workspace and --json to fs.
func (f *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dataDir, "data-dir", "", "")
	fs.StringVar(&f.workspace, "workspace", "", "")
	fs.BoolVar(&f.asJSON, "json", false, "")
}

// dataDir is --data-dir, or the app's data folder.
func (s subcommand) dataDir(flagValue string) (string, error) {
	dir, err := s.env.ResolveDataDir(flagValue)
	if err != nil {
		// A data folder that cannot be used is the user's to fix: say which.
		return "", errs.Wrap(err, errs.InvalidArgument, "%v", err)
	}
	return dir, nil
}

// openHost starts the host on the data folder with MCP servers deferred:
// these commands read and change definitions, they run no tool.
func (s subcommand) openHost(ctx context.Context, dataDirFlag string) (*hostcore.Core, error) {
	dir, err := s.dataDir(dataDirFlag)
	if err != nil {
		return nil, err
	}
	return hostcore.New(ctx, hostcore.Config{DataDir: dir, Version: s.env.Version, Sink: discard{}, DeferMCP: true})
}

// openStore opens the data folder's database without a host (the
// migrations run): for commands that only read and write rows.
func (s subcommand) openStore(ctx context.Context, dataDirFlag string) (*store.Store, paths.Layout, error) {
	dir, err := s.dataDir(dataDirFlag)
	if err != nil {
		return nil, paths.Layout{}, err
	}
	layout := paths.Layout{Root: dir}
	if err := layout.Prepare(); err != nil {
		return nil, layout, err
	}
	st, err := store.Open(ctx, layout.Database(), store.Options{})
	return st, layout, err
}

// runList is `pi-desktop <name> list [--workspace DIR] [--json]`, which
// skills and commands share: list reads what the host finds for the
// absolute workspace ("" without one); jsonOf is what --json prints, table
// what people read. Exit codes: 0, 1 when listing failed, 2 on usage.
func runList[T any](ctx context.Context, s subcommand, args []string,
	list func(context.Context, *hostcore.Core, string) (T, error), jsonOf func(T) any, table func(io.Writer, T) error) int {
	if len(args) == 0 {
		return s.usageErr("give a command: list")
	}
	switch {
	case isHelp(args[0]):
		return s.help()
	case args[0] != "list":
		return s.usageErr("unknown command %q; use list", args[0])
	}
	fs := flag.NewFlagSet("pi-desktop "+s.name+" list", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f commonFlags
	f.register(fs)
	if err := ParseFlags(fs, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return s.help()
		}
		return s.usageErr("%v", err)
	}
	if fs.NArg() > 0 {
		return s.usageErr("unexpected argument %q", fs.Arg(0))
	}
	err := func() error {
		root := ""
		if f.workspace != "" {
			abs, err := filepath.Abs(f.workspace)
			if err != nil {
				return err
			}
			root = abs
		}
		core, err := s.openHost(ctx, f.dataDir)
		if err != nil {
			return err
		}
		defer core.Close()
		got, err := list(ctx, core, root)
		if err != nil {
			return err
		}
		if f.asJSON {
			enc := json.NewEncoder(s.env.Stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(jsonOf(got))
		}
		return table(s.env.Stdout, got)
	}()
	if err != nil {
		return s.failed("list", err)
	}
	return 0
}
