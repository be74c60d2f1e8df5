package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/search"
)

type globCase struct {
	name    string
	pattern string   // ours
	fd      []string // the peer's arguments after the common ones
	limit   int      // ours; the peer gets --max-results when the tool's cap applies
	exact   bool     // the whole set must match (else ours ⊆ fd's)
}

var globCases = []globCase{
	{"`**/*.go`, first 1,000 (the tool's maximum)", "**/*.go", []string{"--max-results", "1000", "-g", "*.go"}, search.MaxGlobLimit, false},
	{"`**/*.s`, whole tree (all matches < 1,000)", "**/*.s", []string{"-g", "*.s"}, search.MaxGlobLimit, true},
	{"subtree `net/**/*.go`", "net/**/*.go", []string{"-g", "*.go", "net"}, search.MaxGlobLimit, true},
}

func benchGlob(rep *report, corpus string, rounds, warm int) error {
	fd, err := exec.LookPath("fdfind")
	if err != nil {
		if fd, err = exec.LookPath("fd"); err != nil {
			return fmt.Errorf("fd is needed for the Glob comparison (apt-get install fd-find): %w", err)
		}
	}
	ver, _ := exec.Command(fd, "--version").Output()
	peerDesc["fd"] = strings.TrimSpace(string(ver))
	say("glob: ours (in-process) vs %s", peerDesc["fd"])
	ctx := context.Background()
	for _, c := range globCases {
		opts := search.GlobOptions{Root: corpus, Pattern: c.pattern, Limit: c.limit}
		res, err := search.Glob(ctx, opts)
		if err != nil {
			return fmt.Errorf("glob %s: %w", c.name, err)
		}
		theirs, err := fdList(fd, corpus, c)
		if err != nil {
			return err
		}
		ours := slices.Sorted(slices.Values(res.Files))
		if c.exact {
			if !slices.Equal(ours, theirs) || res.Truncated {
				return fmt.Errorf("glob %s: %d files, fd lists %d", c.name, len(ours), len(theirs))
			}
		} else {
			all, err := fdList(fd, corpus, globCase{fd: c.fd[2:]}) // without --max-results
			if err != nil {
				return err
			}
			for _, f := range ours {
				if _, ok := slices.BinarySearch(all, f); !ok {
					return fmt.Errorf("glob %s: we list %s, fd does not", c.name, f)
				}
			}
			if len(ours) != len(theirs) {
				return fmt.Errorf("glob %s: %d files, fd --max-results lists %d", c.name, len(ours), len(theirs))
			}
		}
		oursFn := func() time.Duration {
			t0 := time.Now()
			r, err := search.Glob(ctx, opts)
			if err != nil {
				panic(err)
			}
			search.FormatGlob(r, func(s string) string { return s })
			return time.Since(t0)
		}
		peerFn := func() time.Duration {
			t0 := time.Now()
			cmd := exec.Command(fd, fdArgs(c)...)
			cmd.Dir = corpus
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				panic(err)
			}
			io.Copy(io.Discard, out)
			cmd.Wait()
			return time.Since(t0)
		}
		s := interleave(rounds, warm, oursFn, peerFn)
		q := ratio(s[0], s[1])
		check := "same files as fd"
		if !c.exact {
			check = "all in fd's list"
		}
		rep.add(row{section: "Glob", figure: fmt.Sprintf("Glob %s (%d files, %s)", c.name, len(ours), check),
			ours: fmtSample(s[0]), peer: fmtSample(s[1]), ratio: fmt.Sprintf("%.2f×", q), budget: "≤ 1.0×", meets: verdict(q <= 1.0)})
	}
	return nil
}

// fdArgs: regular files only, fd's own visibility rules (hidden skipped,
// .gitignore honoured in the git work tree), no config, as a user runs it.
func fdArgs(c globCase) []string {
	return append([]string{"--type", "f", "--case-sensitive", "--color", "never"}, c.fd...)
}

func fdList(fd, corpus string, c globCase) ([]string, error) {
	cmd := exec.Command(fd, fdArgs(c)...)
	cmd.Dir = corpus
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("fd %v: %w", fdArgs(c), err)
	}
	var files []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		files = append(files, strings.TrimPrefix(sc.Text(), "./"))
	}
	slices.Sort(files)
	return files, nil
}
