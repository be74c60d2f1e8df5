package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

func writeReport(file string, rep *report, loadBefore, loadAfter string, took time.Duration, rounds, warm int) error {
	var b strings.Builder
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	fmt.Fprintf(&b, "# Benchmarks\n\n")
	fmt.Fprintf(&b, "Written by `make bench` (`go run ./bench`) on %s; rerun it to compare. Budgets are the ones in\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "`../shared/design/decisions.md` (\"Performance budgets\"); a ratio is ours over the peer's median, below 1 means we are faster.\n\n")
	fmt.Fprintf(&b, "- Machine: %s, %d CPUs, %s/%s, %s. **Load average** (1, 5, 15 min): %s before, %s after; the run took %s.\n",
		cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), loadBefore, loadAfter, took.Round(time.Second))
	fmt.Fprintf(&b, "- Corpus: %s, copied to a temp dir made a git work tree (so rg, fd and ours all honour its `.gitignore` files), read twice before timing.\n", corpusDesc)
	if len(peerDesc) > 0 {
		fmt.Fprintf(&b, "- Peers: %s, %s, as a user runs them: multi-threaded, output read through a pipe.\n", orNone(peerDesc["rg"]), orNone(peerDesc["fd"]))
	}
	fmt.Fprintf(&b, "- Method: %d untimed warm-up runs per side, then %d rounds alternating ours and the peer (A B, B A, …); cells are median (min–max).\n", warm, rounds)
	fmt.Fprintf(&b, "  Go benchmarks (host, Read/Edit, Bash capture) run as compiled test binaries, one package after another per round, several rounds; p50/p99 are per-call percentiles inside a run, shown as median (min–max) over runs.\n\n")
	fmt.Fprintf(&b, "| figure | ours | peer | ratio | budget | within |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rep.rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", esc(r.figure), esc(r.ours), esc(r.peer), r.ratio, esc(r.budget), r.meets)
	}
	fmt.Fprintf(&b, "\n## How each figure is taken\n\n")
	for _, l := range method {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	if len(rep.notes) > 0 {
		fmt.Fprintf(&b, "\n## Notes\n\n")
		for _, n := range rep.notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

var method = []string{
	"**Grep**: ours is `search.Grep` with `RgPath: \"-\"` (the in-process fallback) plus `FormatGrep`, in the benchmark process; the peer is `rg --no-config --no-require-git --no-ignore-global --no-ignore-exclude --no-heading --with-filename -n [-i|--count] -e PATTERN --glob '!.git' -- .` exec'd from the corpus root, timed from exec to exit with its output drained through a pipe (the capped case closes the pipe after 200 lines, as `| head -n 200` does). The visibility flags only make rg see the files ours sees; nothing slows it down. Before timing, our result rendered as rg prints it must equal, byte for byte, `rg --sort path --null` over the same options (lines clipped to the tool's 500 runes). Ours also tags every matching file (a SHA-256 of the whole file), which rg does not. The rows \"with rg installed\" are the same call with `RgPath` set to that rg, as the app makes it whenever it finds rg: the tool then runs rg for a pattern its builtin searcher would match byte by byte and the builtin searcher for the rest (each row names the engine that ran), checked the same way; count and files modes are timed against `rg --count` and `rg --files-with-matches`.",
	"**Glob**: ours is `search.Glob` + `FormatGlob` (limit 1,000, the tool's maximum); the peer is `fdfind --type f --case-sensitive --color never -g GLOB [--max-results 1000] [SUBDIR]`. Checked first: the same set of files (`**/*.go` is capped at 1,000 on both sides, so there each of ours must be in fd's full list).",
	"**Host overhead**: `BenchmarkHostOverhead` in `backend/hostcore/overhead_bench_test.go`, `hostcore.Execute` in an auto-mode session with a registered tool whose body returns at once: validation, session binding, settings, path resolution (the `path` variant), policy, admission, bounding and queueing the audit row. The audit rows are written by the background writer in the same process, so their cost shows in the tail.",
	"**Audit insert**: `BenchmarkAuditInsert`, the audit writer on a real SQLite file (WAL): a row waited for on its own vs 128 rows per flush.",
	"**Read/Edit**: `BenchmarkRead10k` (Read through `Execute`, file on disk), `BenchmarkDecodeTag10k` and `BenchmarkPlan50Ops` in `backend/hashline`.",
	"**Command rules**: `BenchmarkClassify50` in `backend/cmdrule`: `Classify` of a script of about 50 commands of the kinds an agent sends (pipes, `&&`, loops, a heredoc, command substitution, redirections) against the rule corpus of its tests; the figure is the median of 2,000 classifications per run.",
	"**Bash**: `BenchmarkCaptureVsCopy*` and `BenchmarkCaptureMemory` in `backend/bash`; the 1 GiB run executes `yes … | head -c 1073741824` once through the Bash tool (`Execute`, the process-tree runner, the capture and its spill file) and once as `bash -c` piped into `io.Copy(io.Discard)`, each in a fresh child process whose VmHWM is its peak memory.",
	"**App**: the production binary (`make build`: `-tags desktop,production,webkit2_41`) on a private Xvfb 1440x900x24, a fresh data dir created by one untimed start; `xwininfo -name PI-Desktop` is polled for `IsViewable`, then `import -window` screenshots until the picture has more than 64 colours and a grey standard deviation above 0.02 (the smoke test's rule). PSS is `Pss` from `/proc/PID/smaps_rollup` summed over the app and all its descendants (WebKitWebProcess, WebKitNetworkProcess).",
	"**App with a long session**: the same binary started with `--session ID` on a data dir seeded by `bench/seed.go` with one 5,000-message session (prompt, assistant Markdown with a code block and a Read call with its result, closing answer per turn; inserted in one transaction, then read back through the agent's own loader so a schema drift fails the run); PSS summed as above, 15 s after first paint.",
	"**Render**: the dev build (`-tags dev,webkit2_41`, `-devserver`, the same data dir) driven by Debian's Chromium through `playwright-core` (`frontend/e2e/bench/render.mjs`): the time from the click on the session in the sidebar to its last message visible, then a scroll of the transcript from the bottom to the top by 1,200 px per animation frame, recording every frame interval. The peer is the same messages written as one static HTML page (no script; code kept preformatted) scrolled the same way. A frame over 25 ms (1.5 refreshes at 60 Hz) missed at least one refresh.",
}

func esc(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

func orNone(s string) string {
	if s == "" {
		return "(not run)"
	}
	return s
}
