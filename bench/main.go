// Command bench measures PI-Desktop side by side with the tools people use
// today (ripgrep, fd) and against the budgets in
// ../shared/design/decisions.md, and writes BENCHMARKS.md. Run it with
// `make bench`; `go run ./bench -h` lists the knobs.
//
// Method: the corpus is a copy of $(go env GOROOT)/src in a temp dir (a git
// work tree, so .gitignore files apply to every tool alike), read twice
// before timing; each comparison runs warm-up calls, then rounds in which
// ours and the peer alternate (A B, B A, …); the report gives medians with
// min–max and the machine's load average before and after.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// row is one line of the BENCHMARKS.md table.
type row struct {
	section, figure, ours, peer, ratio, budget, meets string
}

type report struct {
	rows  []row
	notes []string
}

func (r *report) add(x row) {
	r.rows = append(r.rows, x)
	fmt.Printf("  %-44s ours %-30s peer %-30s ratio %-6s %s\n", x.figure, x.ours, x.peer, x.ratio, x.meets)
}
func (r *report) note(format string, a ...any) {
	n := fmt.Sprintf(format, a...)
	r.notes = append(r.notes, n)
	fmt.Println("  note:", n)
}

// verdict is "yes"/"NO" for a value against a ceiling, "" without one.
func verdict(ok bool) string {
	if ok {
		return "yes"
	}
	return "**NO**"
}

func main() {
	// This binary is also the process-tree runner for the Bash tool
	// (platform/proc), as pi-desktop itself is.
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == childArg {
		os.Exit(bashChild(os.Args[2:]))
	}
	rounds := flag.Int("rounds", 7, "timed rounds per comparison (after warm-ups)")
	warm := flag.Int("warm", 2, "untimed warm-up runs per side")
	out := flag.String("out", "BENCHMARKS.md", "report file")
	only := flag.String("only", "grep,glob,go,bash,runner,app,render", "sections to run (comma-separated)")
	runnerExe := flag.String("runner", "build/bin/"+proc.RunnerName, "dedicated process-tree runner for the runner section (built when missing)")
	app := flag.String("app", "build/bin/pi-desktop", "production binary for the app section")
	appRounds := flag.Int("app-rounds", 5, "app starts to time")
	gobenchCount := flag.Int("go-count", 5, "runs of each Go benchmark")
	goOnly := flag.String("go-only", "", "run only the Go benchmark entries whose filter contains this text (e.g. VsSed)")
	flag.Parse()

	on := map[string]bool{}
	for _, s := range strings.Split(*only, ",") {
		on[strings.TrimSpace(s)] = true
	}
	exits := &atExit{}
	exits.onSignal()
	defer exits.run()
	fail := exits.fail
	if on["render"] {
		// The render section runs last: a missing browser fails now, not
		// after the slow sections.
		if _, err := renderTools(); err != nil {
			fail(err)
		}
	}
	rep := &report{}
	start := time.Now()
	loadBefore := loadavg()
	fmt.Printf("bench: %s, %d CPUs, load average %s\n", runtime.Version(), runtime.NumCPU(), loadBefore)

	if on["grep"] || on["glob"] {
		corpus, cleanup, err := makeCorpus(exits)
		if err != nil {
			fail(err)
		}
		if on["grep"] {
			if err := benchGrep(rep, corpus, *rounds, *warm); err != nil {
				fail(err)
			}
		}
		if on["glob"] {
			if err := benchGlob(rep, corpus, *rounds, *warm); err != nil {
				fail(err)
			}
		}
		cleanup() // 128 MB: not kept through the sections below
	}
	if on["go"] {
		if err := benchGo(rep, *gobenchCount, *goOnly); err != nil {
			fail(err)
		}
	}
	if on["bash"] {
		if err := benchBash1G(rep); err != nil {
			fail(err)
		}
	}
	if on["runner"] {
		if err := benchRunner(rep, exits, *runnerExe, *app, *rounds, *warm); err != nil {
			fail(err)
		}
	}
	if on["app"] {
		if err := benchApp(rep, *app, *appRounds); err != nil {
			fail(err)
		}
	}
	if on["render"] {
		if err := benchRender(rep, *appRounds); err != nil {
			fail(err)
		}
	}
	loadAfter := loadavg()
	if err := writeReport(*out, rep, loadBefore, loadAfter, time.Since(start), *rounds, *warm); err != nil {
		exits.fail(err)
	}
	fmt.Printf("bench: wrote %s in %s; load average now %s\n", *out, time.Since(start).Round(time.Second), loadAfter)
}

// loadavg is the 1, 5 and 15 minute load averages.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
