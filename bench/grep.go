package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/search"
)

type grepCase struct {
	name    string
	pattern string
	fold    bool
	mode    string // search.ModeContent or search.ModeCount
	cap     int    // 0 = every match
	budget  float64
	btext   string
}

// grepCases are the in-process fallback's rows (RgPath "-"), with the
// budgets of decisions.md: ≤ 1.3× literal-bearing or case-insensitive,
// ≤ 2× without a literal.
var grepCases = []grepCase{
	{"literal `func NewReader`", "func NewReader", false, search.ModeContent, 0, 1.3, "≤ 1.3×"},
	{"literal-bearing regex `func \\w+Reader\\(`", `func \w+Reader\(`, false, search.ModeContent, 0, 1.3, "≤ 1.3×"},
	{"regex without a literal (dates)", `[0-9]{4}[-/.][0-9]{2}[-/.][0-9]{2}`, false, search.ModeContent, 0, 2, "≤ 2×"},
	{"case-insensitive literal `newreader`", "newreader", true, search.ModeContent, 0, 1.3, "≤ 1.3×"},
	{"count-all of `err`", "err", false, search.ModeCount, 0, 1.3, "≤ 1.3×"},
	{"first 200 matches of `err`", "err", false, search.ModeContent, 200, 1.0, "≤ 1.0×"},
}

// grepRgCases are the rows of the Grep tool with rg installed (the tool
// then runs rg for a pattern its builtin searcher would match byte by
// byte, and the builtin searcher for the rest: the row names the engine),
// against rg run as a user runs it:
// ≤ 1.1× content and files, ≤ 1.3× count (decisions.md).
var grepRgCases = []grepCase{
	{"literal `func NewReader`", "func NewReader", false, search.ModeContent, 0, 1.1, "≤ 1.1×"},
	{"literal-bearing regex `func \\w+Reader\\(`", `func \w+Reader\(`, false, search.ModeContent, 0, 1.1, "≤ 1.1×"},
	{"regex without a literal (dates)", `[0-9]{4}[-/.][0-9]{2}[-/.][0-9]{2}`, false, search.ModeContent, 0, 1.1, "≤ 1.1×"},
	{"regex of a Unicode class `\\p{Greek}{3}` (no ASCII byte to skip to)", `\p{Greek}{3}`, false, search.ModeContent, 0, 1.1, "≤ 1.1×"},
	{"case-insensitive literal `newreader`", "newreader", true, search.ModeContent, 0, 1.1, "≤ 1.1×"},
	{"count of a common word `err` vs `rg -c`", "err", false, search.ModeCount, 0, 1.3, "≤ 1.3×"},
	{"files with `func NewReader` vs `rg -l`", "func NewReader", false, search.ModeFilesWithMatches, 0, 1.1, "≤ 1.1×"},
	{"first 200 matches of `err`", "err", false, search.ModeContent, 200, 1.0, "≤ 1.0×"},
}

// rgBase are the flags that make rg see the files our walker sees (the
// search package doc): the peer is plain rg otherwise, multi-threaded and
// printing text, as a user runs it.
func rgBase(c grepCase) []string {
	args := []string{"--no-config", "--no-require-git", "--no-ignore-global", "--no-ignore-exclude", "--no-heading", "--with-filename"}
	if c.fold {
		args = append(args, "-i")
	}
	switch c.mode {
	case search.ModeCount:
		args = append(args, "--count")
	case search.ModeFilesWithMatches:
		args = append(args, "--files-with-matches")
	default:
		args = append(args, "-n")
	}
	return args
}

func rgTail(c grepCase) []string { return []string{"-e", c.pattern, "--glob", "!.git", "--", "."} }

func benchGrep(rep *report, corpus string, rounds, warm int) error {
	rg, err := exec.LookPath("rg")
	if err != nil {
		return fmt.Errorf("ripgrep is needed for the Grep comparison (apt-get install ripgrep): %w", err)
	}
	ver, _ := exec.Command(rg, "--version").Output()
	peerDesc["rg"] = strings.SplitN(string(ver), "\n", 2)[0]
	say("grep: ours (in-process fallback, RgPath \"-\", then with rg installed) vs %s", peerDesc["rg"])
	var sortedRatios []string
	for _, c := range grepCases {
		r, err := benchGrepCase(rep, corpus, rg, "-", c, rounds, warm)
		if err != nil {
			return err
		}
		sortedRatios = append(sortedRatios, r)
	}
	rep.note("Not the peer, for context only: against `rg --sort path` (single-threaded; timed in the same interleaved rounds) the fallback's ratios are: %s.", strings.Join(sortedRatios, "; "))
	for _, c := range grepRgCases {
		if _, err := benchGrepCase(rep, corpus, rg, rg, c, rounds, warm); err != nil {
			return err
		}
	}
	return nil
}

// benchGrepCase checks one case byte for byte against rg, then times it
// against rg (and, for context, rg --sort path) in interleaved rounds.
// ourRg is the tool's RgPath: "-" for the fallback, rg for the rg engine.
func benchGrepCase(rep *report, corpus, rg, ourRg string, c grepCase, rounds, warm int) (sortedRatio string, err error) {
	ctx := context.Background()
	label := "fallback"
	if ourRg != "-" {
		label = "rg installed"
	}
	opts := search.GrepOptions{Root: corpus, Pattern: c.pattern, IgnoreCase: c.fold, Mode: c.mode, HeadLimit: 1 << 30, RgPath: ourRg}
	if c.cap > 0 {
		opts.HeadLimit = c.cap
	}
	// Byte-identical check first: our result, rendered as rg prints it,
	// against a real rg run in path order.
	res, err := search.Grep(ctx, opts)
	if err != nil {
		return "", fmt.Errorf("grep %s: %w", c.name, err)
	}
	if ourRg == "-" && res.Engine != search.EngineBuiltin {
		return "", fmt.Errorf("grep %s ran %s without rg", c.name, res.Engine)
	}
	ours := renderOurs(res, c.mode)
	theirs, dropped, err := rgSorted(rg, corpus, c)
	if err != nil {
		return "", err
	}
	if !bytes.Equal(ours, theirs) {
		return "", fmt.Errorf("grep %s (%s): our result differs from rg's (%d vs %d bytes); first difference:\n%s", c.name, label, len(ours), len(theirs), firstDiff(ours, theirs))
	}
	matches := bytes.Count(ours, []byte("\n"))
	oursFn := func() time.Duration {
		t0 := time.Now()
		r, err := search.Grep(ctx, opts)
		if err != nil {
			panic(err)
		}
		search.FormatGrep(r, func(s string) string { return s }) // the model-facing text is part of the job
		return time.Since(t0)
	}
	peerFn := func() time.Duration { return timeRg(rg, corpus, c, false) }
	sortedFn := func() time.Duration { return timeRg(rg, corpus, c, true) }
	s := interleave(rounds, warm, oursFn, peerFn, sortedFn)
	q := ratio(s[0], s[1])
	unit := "lines"
	if c.mode != search.ModeContent {
		unit = "files"
	}
	same := "identical to rg"
	if dropped > 0 {
		same = fmt.Sprintf("identical to rg less %d file(s) the text model treats as binary", dropped)
	}
	figure := fmt.Sprintf("Grep %s (%d %s, %s)", c.name, matches, unit, same)
	if ourRg != "-" {
		figure = fmt.Sprintf("Grep with rg installed, %s (%s engine; %d %s, %s)", c.name, res.Engine, matches, unit, same)
	}
	rep.add(row{section: "Grep", figure: figure,
		ours: fmtSample(s[0]), peer: fmtSample(s[1]), ratio: fmt.Sprintf("%.2f×", q), budget: c.btext, meets: verdict(q <= c.budget)})
	return fmt.Sprintf("%s %.2f× (rg %s)", c.name, ratio(s[0], s[2]), fmtDur(s[2].median())), nil
}

// renderOurs prints a result the way rg --null prints it: "path\0N:text"
// per matching line, or "path\0count" per file.
func renderOurs(res search.GrepResult, mode string) []byte {
	var b bytes.Buffer
	for _, f := range res.Files {
		switch mode {
		case search.ModeCount:
			fmt.Fprintf(&b, "%s\x00%d\n", f.Path, f.Count)
			continue
		case search.ModeFilesWithMatches:
			fmt.Fprintf(&b, "%s\x00\n", f.Path)
			continue
		}
		for _, l := range f.Lines {
			if !l.Context {
				fmt.Fprintf(&b, "%s\x00%d:%s\n", f.Path, l.N, l.Text)
			}
		}
	}
	return b.Bytes()
}

// rgSorted runs rg in path order (--sort path, single-threaded: only for
// the check, never timed) and normalises its output to renderOurs' form:
// "./" dropped, CR of CRLF lines dropped, lines clipped as ours are (the
// tool shows at most search.MaxGrepLineRunes runes of a line), and cut to
// the cap. Files the text model treats as binary (invalid UTF-8, a NUL,
// over hashline.MaxTextBytes) are dropped, as the search package drops them
// from rg's results by contract; dropped counts them.
func rgSorted(rg, corpus string, c grepCase) (norm []byte, dropped int, err error) {
	args := append(append(rgBase(c), "--sort", "path", "--null"), rgTail(c)...)
	cmd := exec.Command(rg, args...)
	cmd.Dir = corpus
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("rg %s: %w", strings.Join(args, " "), err)
	}
	if c.mode == search.ModeFilesWithMatches {
		out = bytes.ReplaceAll(out, []byte{0}, []byte("\x00\n")) // -l --null ends a path with NUL only
	}
	var b bytes.Buffer
	n := 0
	binary := map[string]bool{}
	for line := range bytes.Lines(out) {
		if c.cap > 0 && n == c.cap {
			break
		}
		line = bytes.TrimSuffix(bytes.TrimPrefix(line, []byte("./")), []byte("\n"))
		if i := bytes.IndexByte(line, 0); i >= 0 {
			p := string(line[:i])
			bin, seen := binary[p]
			if !seen {
				data, err := os.ReadFile(filepath.Join(corpus, p))
				bin = err == nil && hashline.IsBinary(data)
				binary[p] = bin
				if bin {
					dropped++
				}
			}
			if bin {
				continue
			}
		}
		n++
		line = bytes.TrimSuffix(line, []byte("\r"))
		if c.mode != search.ModeCount {
			if i := bytes.IndexByte(line, 0); i >= 0 {
				if j := bytes.IndexByte(line[i:], ':'); j >= 0 {
					head, text := line[:i+j+1], line[i+j+1:]
					line = append(head[:len(head):len(head)], clipRunes(text, search.MaxGrepLineRunes)...)
				}
			}
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), dropped, nil
}

func clipRunes(s []byte, n int) []byte {
	if utf8.RuneCount(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, w := utf8.DecodeRune(s[i:])
		i += w
	}
	return s[:i]
}

// timeRg runs the peer as a user would, `rg … | head -n CAP` for the capped
// case: output is read through a pipe (never /dev/null, which lets some
// tools stop at the first match) and, when capped, the pipe is closed after
// CAP lines. The time runs from exec to exit.
func timeRg(rg, corpus string, c grepCase, sorted bool) time.Duration {
	args := rgBase(c)
	if sorted {
		args = append(args, "--sort", "path")
	}
	cmd := exec.Command(rg, append(args, rgTail(c)...)...)
	cmd.Dir = corpus
	t0 := time.Now()
	out, err := cmd.StdoutPipe()
	if err != nil {
		panic(err)
	}
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	if c.cap > 0 {
		br := bufio.NewReaderSize(out, 64<<10)
		for n := 0; n < c.cap; n++ {
			if _, err := br.ReadSlice('\n'); err == bufio.ErrBufferFull {
				n--
			} else if err != nil {
				break
			}
		}
		out.Close() // head exits: rg gets EPIPE on its next write
	} else {
		io.Copy(io.Discard, out)
	}
	cmd.Wait()
	return time.Since(t0)
}

func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range max(len(la), len(lb)) {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) {
			return fmt.Sprintf("  line %d ours: %q\n  line %d rg:   %q", i+1, x, i+1, y)
		}
	}
	return "(none)"
}

var peerDesc = map[string]string{}

func say(format string, a ...any) { fmt.Printf("bench: "+format+"\n", a...) }

func cmdErr(what string, out []byte, err error) error {
	return fmt.Errorf("%s: %w: %s", what, err, strings.TrimSpace(string(out)))
}

func itoa[T int | int64](n T) string { return strconv.FormatInt(int64(n), 10) }
