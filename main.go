// Command pi-desktop is the PI-Desktop app: with no command it opens the
// desktop window; subcommands run headless.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
	"github.com/pi-desktop/pi-desktop/desktop"
	"github.com/pi-desktop/pi-desktop/platform/instance"
	"github.com/pi-desktop/pi-desktop/platform/paths"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

// version, commit and date are stamped at build time:
// -ldflags "-X main.version=… -X main.commit=… -X main.date=…" (Makefile).
var (
	version = "0.1.0-dev"
	commit  = "unknown"
	date    = "unknown"
)

const usage = `PI-Desktop: a local-first desktop coding agent.

Usage:
  pi-desktop [--data-dir DIR] [--session ID] [FOLDER | FILE.piplug ...]
                                  open the desktop app (on that session, with
                                  that folder as a project, installing that
                                  plugin); when it is already open on DIR,
                                  hand it these and exit
  pi-desktop run ... "prompt"     run one agent turn headless (pi-desktop run --help)
  pi-desktop tool ...             run tool calls headless (pi-desktop tool --help)
  pi-desktop mcp ...              add, list, test and remove MCP servers (pi-desktop mcp --help)
  pi-desktop subagents list ...   list the subagent definitions (pi-desktop subagents --help)
  pi-desktop rules ...            add, list, remove and check command rules (pi-desktop rules --help)
  pi-desktop skills list ...      list the skills and why any did not load (pi-desktop skills --help)
  pi-desktop commands list ...    list the custom slash commands (pi-desktop commands --help)
  pi-desktop export --session ID --format md|json [-o FILE]
                                  export a session (pi-desktop export --help)
  pi-desktop plugins ...          install, list and remove plugins (pi-desktop plugins --help)
  pi-desktop version              print the version, commit and build date
  pi-desktop --help               show this help

Options:
  --data-dir DIR   keep projects, sessions and settings in DIR
                   (default: the platform's app data folder; env PI_DESKTOP_DATA_DIR)
  --session ID     open the window on this session (pi-desktop run prints the ID)
`

func main() {
	// The hidden runner that owns a command's process tree (platform/proc)
	// is this same binary: dispatch it before anything else.
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pi-desktop", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "")
	openSession := fs.String("session", "", "")
	desktop.RegisterBuildFlags(fs)
	if err := toolcli.ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "pi-desktop: %v\n\n%s", err, usage)
		return 2
	}
	// A subcommand's own --data-dir wins over the one before it.
	cliEnv := toolcli.Env{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, Version: version,
		ResolveDataDir: func(flagValue string) (string, error) {
			if flagValue == "" {
				flagValue = *dataDir
			}
			return paths.Resolve(flagValue, paths.ProcessEnv(runtime.GOOS))
		}}
	switch fs.Arg(0) {
	case "":
		return runDesktop(*dataDir, *openSession, nil, stderr)
	case "tool":
		// Ctrl-C stops the running call; the audit rows of finished ones are
		// flushed as the host closes.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return toolcli.Run(ctx, fs.Args()[1:], cliEnv)
	case "run":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		fi, _ := os.Stdin.Stat()
		return toolcli.RunTurn(ctx, fs.Args()[1:], toolcli.RunEnv{
			Env:         cliEnv,
			Interactive: fi != nil && fi.Mode()&os.ModeCharDevice != 0,
			Color:       colorTerminal(stdout),
			Keychain:    provider.SystemKeychain(os.Getenv),
		})
	case "mcp":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return toolcli.MCP(ctx, fs.Args()[1:], cliEnv)
	case "subagents":
		return toolcli.Subagents(context.Background(), fs.Args()[1:], cliEnv)
	case "rules":
		return toolcli.Rules(context.Background(), fs.Args()[1:], cliEnv)
	case "skills":
		return toolcli.Skills(context.Background(), fs.Args()[1:], cliEnv)
	case "commands":
		return toolcli.Commands(context.Background(), fs.Args()[1:], cliEnv)
	case "export":
		return toolcli.Export(context.Background(), fs.Args()[1:], cliEnv)
	case "plugins":
		return toolcli.Plugins(context.Background(), fs.Args()[1:], cliEnv)
	case "version":
		fmt.Fprintf(stdout, "pi-desktop %s (commit %s, built %s, %s/%s)\n", version, commit, date, runtime.GOOS, runtime.GOARCH)
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		if desktop.LooksLikeOpenTarget(fs.Arg(0)) {
			return runDesktop(*dataDir, *openSession, fs.Args(), stderr)
		}
		fmt.Fprintf(stderr, "pi-desktop: unknown command %q\n\n%s", fs.Arg(0), usage)
		return 2
	}
}

// runDesktop opens the window on the data folder, or hands the targets
// (and --session) to the app already open on it and exits.
func runDesktop(dataDirFlag, openSession string, targets []string, stderr io.Writer) int {
	app := newApp(stderr)
	if !desktop.BindingsBuild { // generating bindings must not touch a data directory
		if len(targets) > 0 {
			cwd, _ := os.Getwd()
			app.opens.Push(instance.Request{Args: targets, Dir: cwd})
		}
		primary, exit, stop := app.holdDataDir(dataDirFlag, openSession, targets)
		if stop {
			return exit
		}
		defer primary.Close()
		app.watchSignals()
		app.core, app.coreErr = openCore(dataDirFlag, app)
		if app.coreErr != nil {
			// The window still opens and shows this error with its next step.
			fmt.Fprintf(stderr, "pi-desktop: %s\n", errs.ToPayload(app.coreErr).Message)
		}
	}
	err := wails.Run(&options.App{
		Title:       "PI-Desktop",
		Width:       1280,
		Height:      820,
		MinWidth:    880,
		MinHeight:   560,
		AssetServer: desktop.AssetOptions(assets, app, &app.guard),
		OnStartup:   app.startup,
		OnDomReady:  app.domReady,
		OnShutdown:  app.shutdown,
		Bind:        desktop.Bind(app, openSession, &app.opens),
		ErrorFormatter: func(err error) any {
			if errs.CodeOf(err) == errs.Internal && app.core != nil {
				app.core.Log().Error("bridge call failed", "err", err)
			}
			return errs.ToPayload(err)
		},
		// Files dropped on the window reach the composer as absolute paths
		// (runtime.OnFileDrop); the webview's own drop is kept for pages.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		Linux:       &linux.Options{Icon: icon, ProgramName: "pi-desktop", WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
		// Finder opens a .piplug by an Apple event, not by arguments.
		Mac: &mac.Options{OnFileOpen: func(path string) { app.handOff(instance.Request{Args: []string{path}, Dir: "/"}) }},
	})
	if err != nil {
		fmt.Fprintf(stderr, "pi-desktop: %v\n", err)
		return 1
	}
	return 0
}

func openCore(dataDirFlag string, app *App) (*hostcore.Core, error) {
	dir, err := paths.Resolve(dataDirFlag, paths.ProcessEnv(runtime.GOOS))
	if err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot find a data directory: %v", err)
	}
	core, err := hostcore.New(context.Background(), hostcore.Config{DataDir: dir, Version: version, Sink: app,
		Keychain: provider.SystemKeychain(os.Getenv), OpenBrowser: app.OpenBrowser, Delegation: true,
		PreviewGuard: app.guard.Check, DeferPathProbe: true})
	if err != nil && errs.As(err) == nil {
		err = errs.Wrap(err, errs.StorageUnavailable, "cannot prepare the data directory %s: %v; check that it is writable or pass --data-dir", dir, err)
	}
	return core, err
}

// colorTerminal reports whether w is a terminal that takes ANSI colors:
// not a pipe or file, and not opted out with NO_COLOR or TERM=dumb. On
// Windows only Windows Terminal is assumed to (a classic console shows the
// escapes as text unless the program turns them on).
func colorTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" ||
		(runtime.GOOS == "windows" && os.Getenv("WT_SESSION") == "") {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
