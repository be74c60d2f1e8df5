package toolcli

import (
	"context"
	"errors"
	"flag"
	"io"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/history"
)

// ExportUsage is `pi-desktop export --help`.
const ExportUsage = `Usage: pi-desktop export [--data-dir DIR] --session ID --format md|json [-o FILE]

Writes one session: Markdown to read (prompts, answers, each tool call in one
line, the diffs of edits) or JSON that holds every message, tool call and
result (format "pi-desktop.session", version 1). Secret values are redacted.
Without -o the export goes to standard output.

Exit codes: 0 written, 1 the export failed, 2 usage error.
`

// Export is `pi-desktop export`.
func Export(ctx context.Context, args []string, env Env) int {
	cmd := subcommand{name: "export", usage: ExportUsage, env: env}
	if len(args) > 0 && isHelp(args[0]) {
		return cmd.help()
	}
	fs := flag.NewFlagSet("pi-desktop export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "")
	sessionID := fs.String("session", "", "")
	format := fs.String("format", "", "")
	out := fs.String("o", "", "")
	fs.StringVar(out, "output", "", "")
	if err := ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cmd.help()
		}
		return cmd.usageErr("%v", err)
	}
	switch {
	case fs.NArg() > 0:
		return cmd.usageErr("unexpected argument %q", fs.Arg(0))
	case *sessionID == "":
		return cmd.usageErr("give the session: --session ID")
	case *format != history.FormatMarkdown && *format != history.FormatJSON:
		return cmd.usageErr("--format is md or json, not %q", *format)
	}
	err := func() error {
		st, _, err := cmd.openStore(ctx, *dataDir)
		if err != nil {
			return err
		}
		defer st.Close()
		x, err := history.Load(ctx, st.DB(), *sessionID, time.Now().UnixMilli())
		if err != nil {
			return err
		}
		write := func(w io.Writer) error { return x.WriteJSON(w) }
		if *format == history.FormatMarkdown {
			write = func(w io.Writer) error { return x.WriteMarkdown(w, time.Local) }
		}
		if *out == "" {
			return write(env.Stdout)
		}
		return history.WriteFile(*out, write)
	}()
	if err != nil {
		return cmd.failed("", err)
	}
	return 0
}
