package main

import (
	"fmt"
	"slices"
	"time"
)

// sample is the timings of one side of a comparison, one per round.
type sample []time.Duration

func (s sample) sorted() sample { c := slices.Clone(s); slices.Sort(c); return c }

func (s sample) median() time.Duration {
	c := s.sorted()
	if len(c) == 0 {
		return 0
	}
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

func (s sample) minMax() (time.Duration, time.Duration) {
	c := s.sorted()
	if len(c) == 0 {
		return 0, 0
	}
	return c[0], c[len(c)-1]
}

// fmtDur prints a duration with three significant digits.
func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3g s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3g ms", float64(d)/1e6)
	case d >= time.Microsecond:
		return fmt.Sprintf("%.3g µs", float64(d)/1e3)
	}
	return fmt.Sprintf("%d ns", d.Nanoseconds())
}

// fmtSample is "median (min–max)".
func fmtSample(s sample) string {
	lo, hi := s.minMax()
	return fmt.Sprintf("%s (%s–%s)", fmtDur(s.median()), fmtDur(lo), fmtDur(hi))
}

// ratio is ours over the peer's median: below 1 we are faster.
func ratio(ours, peer sample) float64 {
	p := peer.median()
	if p == 0 {
		return 0
	}
	return float64(ours.median()) / float64(p)
}

// interleave runs every function once per round, alternating which goes
// first so neither side always runs on a cache the other just warmed, after
// warm runs that are not recorded.
func interleave(rounds, warm int, fns ...func() time.Duration) []sample {
	out := make([]sample, len(fns))
	for range warm {
		for _, f := range fns {
			f()
		}
	}
	for r := range rounds {
		for i := range fns {
			j := i
			if r%2 == 1 {
				j = len(fns) - 1 - i
			}
			out[j] = append(out[j], fns[j]())
		}
	}
	return out
}
