package toolcli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
)

// PluginsUsage is the help of `pi-desktop plugins`.
const PluginsUsage = `Usage:
  pi-desktop plugins install PATH|FILE.piplug [--yes] [--json]
  pi-desktop plugins list [--json]
  pi-desktop plugins remove ID

install checks a plugin folder or a .piplug file (at most 2,000 entries and
50 MB unpacked; no links, devices, absolute or .. paths), prints everything
it contributes (agent tools with their risk and plan-safe actions, skills,
subagents, commands, MCP servers with their commands) and the permissions it
asks for, then asks whether to install it and let it run. Nothing is
installed or run before you answer yes. --yes answers yes without asking.
The plugin goes into the app's data folder as plugins/<id>/<version>; an
update that changes anything asks again.

list shows the installed plugins; remove uninstalls one, stopping its
process.

Options:
  --data-dir DIR   the app's data folder (default: the app's)
  --yes            install: consent without asking
  --json           print JSON
`

// Plugins runs `pi-desktop plugins` with args (after the word "plugins")
// and returns the exit code: 0 on success, 1 when the command failed or the
// install was declined, 2 on usage errors.
func Plugins(ctx context.Context, args []string, env Env) int {
	cmd := subcommand{name: "plugins", usage: PluginsUsage, env: env}
	if len(args) == 0 {
		return cmd.usageErr("give a command: install, list or remove")
	}
	verb, rest := args[0], args[1:]
	if isHelp(verb) {
		return cmd.help()
	}
	var target string
	switch verb {
	case "install", "remove":
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			what := "the plugin's folder or .piplug file"
			if verb == "remove" {
				what = "the plugin's ID"
			}
			return cmd.usageErr("%s needs %s first", verb, what)
		}
		target, rest = rest[0], rest[1:]
	case "list":
	default:
		return cmd.usageErr("unknown command %q; use install, list or remove", verb)
	}
	fs := flag.NewFlagSet("pi-desktop plugins "+verb, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f commonFlags
	f.register(fs)
	yes := fs.Bool("yes", false, "")
	if err := ParseFlags(fs, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cmd.help()
		}
		return cmd.usageErr("%v", err)
	}
	switch {
	case fs.NArg() > 0:
		return cmd.usageErr("unexpected argument %q", fs.Arg(0))
	case *yes && verb != "install":
		return cmd.usageErr("only install takes --yes")
	case f.workspace != "":
		return cmd.usageErr("plugins take no --workspace")
	}
	core, err := cmd.openHost(ctx, f.dataDir)
	if err != nil {
		return cmd.failed("", err)
	}
	defer core.Close()
	p := pluginsCLI{core: core, env: env, asJSON: f.asJSON}
	switch verb {
	case "install":
		err = p.install(ctx, target, *yes)
	case "list":
		err = p.list(ctx)
	case "remove":
		if err = core.RemovePlugin(ctx, target); err == nil {
			fmt.Fprintf(env.Stdout, "Removed plugin %s.\n", target)
		}
	}
	if err != nil {
		return cmd.failed(verb, err)
	}
	return 0
}

type pluginsCLI struct {
	core   *hostcore.Core
	env    Env
	asJSON bool
}

// errDeclined is a consent the user did not give.
func errDeclined() error {
	return errs.New(errs.ToolDenied, "not installed: you did not consent; nothing was written or run")
}

func (p pluginsCLI) install(ctx context.Context, src string, yes bool) error {
	abs, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	staged, err := p.core.StagePlugin(ctx, abs)
	if err != nil {
		return err
	}
	defer staged.Discard()
	sum := staged.Summary()
	out := p.env.Stdout
	if p.asJSON && !yes {
		return errs.New(errs.InvalidArgument, "--json prints no question to answer; add --yes to consent to what it prints")
	}
	if !p.asJSON {
		writeContributions(out, sum)
	}
	if !yes {
		fmt.Fprint(out, "\nInstall this plugin and let it run with these permissions? [y/N] ")
		line, _ := bufio.NewReader(p.env.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(out)
			return errDeclined()
		}
	}
	got, err := p.core.InstallPlugin(ctx, staged, true)
	if err != nil {
		return err
	}
	if p.asJSON {
		return encodeJSON(out, got)
	}
	fmt.Fprintf(out, "Installed %s %s; its tools are available to the agent.\n", got.ID, got.Version)
	return nil
}

func (p pluginsCLI) list(ctx context.Context) error {
	list, err := p.core.Plugins(ctx)
	if err != nil {
		return err
	}
	if p.asJSON {
		return encodeJSON(p.env.Stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(p.env.Stdout, "No plugins installed. Install one with: pi-desktop plugins install PATH|FILE.piplug")
		return nil
	}
	tw := tabwriter.NewWriter(p.env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tVERSION\tSTATE\tTOOLS")
	for _, x := range list {
		state := "enabled"
		switch {
		case x.Changed:
			state = "changed on disk: needs consent"
		case !x.Consented:
			state = "needs consent"
		case !x.Enabled:
			state = "disabled"
		case x.Running:
			state = "running"
		}
		names := make([]string, 0, len(x.Tools))
		for _, t := range x.Tools {
			names = append(names, t.ModelName+" ("+t.Risk+")")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", x.ID, x.Version, state, strings.Join(names, ", "))
	}
	return tw.Flush()
}

// writeContributions is the consent card in text: everything the plugin
// would be able to do, before anything runs.
func writeContributions(w io.Writer, s plugin.Summary) {
	fmt.Fprintf(w, "Plugin %s (%s) version %s", oneLineText(s.Name), s.ID, s.Version)
	if s.Author != "" {
		fmt.Fprintf(w, " by %s", oneLineText(s.Author))
	}
	fmt.Fprintln(w)
	if s.Description != "" {
		fmt.Fprintf(w, "  %s\n", oneLineText(s.Description))
	}
	fmt.Fprintf(w, "\nPermissions: %s\n", strings.Join(s.Permissions, ", "))
	if s.Command != "" {
		fmt.Fprintf(w, "Runs (in the plugin's folder, on its first tool call): %s\n", oneLineText(shellWords(s.Command, s.Args)))
	}
	fmt.Fprintf(w, "\nAgent tools (%d):\n", len(s.Tools))
	for _, t := range s.Tools {
		plan := "hidden in Plan and Goal"
		if len(t.PlanSafeActions) > 0 {
			plan = "in Plan and Goal only: " + strings.Join(t.PlanSafeActions, ", ")
		}
		fmt.Fprintf(w, "  %s  risk %s, %s\n      %s\n", t.ModelName, t.Risk, plan, oneLineText(t.Description))
	}
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(w, "%s (%d):\n", title, len(items))
		for _, x := range items {
			fmt.Fprintf(w, "  %s\n", x)
		}
	}
	list("Skills files", s.Skills)
	list("Subagent files", s.Subagents)
	list("Command files", s.Commands)
	if len(s.MCPServers) > 0 {
		fmt.Fprintf(w, "MCP servers (%d):\n", len(s.MCPServers))
		for _, m := range s.MCPServers {
			what := m.URL
			if m.Command != "" {
				what = shellWords(m.Command, m.Args)
			}
			fmt.Fprintf(w, "  %s  %s: %s\n", m.ID, m.Transport, oneLineText(what))
		}
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(w, "Note: %s\n", oneLineText(warn))
	}
	fmt.Fprintf(w, "%d files, consent hash %s\n", s.Files, s.Hash)
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// shellWords is a command line as a POSIX shell would need it typed: each
// word that is not plain is single-quoted, so ["-c", "a b"] and
// ["-c", "a", "b"] read differently on the consent card.
func shellWords(command string, args []string) string {
	words := make([]string, 0, 1+len(args))
	for _, w := range append([]string{command}, args...) {
		if w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:=@%+,-", r))
		}) < 0 {
			words = append(words, w)
			continue
		}
		words = append(words, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
	}
	return strings.Join(words, " ")
}
