package hostcore_test

import (
	"slices"
	"testing"
	"time"
)

// benchPaired times viaHost and viaSDK alternately, one call of each per
// iteration (which goes first alternates too), and reports the median of
// each and their ratio. On a machine shared with other work the load
// drifts between two sub-benchmarks run one after the other; paired calls
// see the same load, so the ratio is the host's share, not the noise.
func benchPaired(b *testing.B, viaHost, viaSDK func(i int)) {
	b.Helper()
	host := make([]time.Duration, 0, b.N)
	direct := make([]time.Duration, 0, b.N)
	timed := func(f func(int), i int) time.Duration {
		start := time.Now()
		f(i)
		return time.Since(start)
	}
	for i := range b.N {
		if i%2 == 0 {
			host = append(host, timed(viaHost, i))
			direct = append(direct, timed(viaSDK, i))
		} else {
			direct = append(direct, timed(viaSDK, i))
			host = append(host, timed(viaHost, i))
		}
	}
	h, d := medianOf(host), medianOf(direct)
	b.ReportMetric(float64(h.Nanoseconds()), "execute-p50-ns")
	b.ReportMetric(float64(d.Nanoseconds()), "sdk-p50-ns")
	if d > 0 {
		b.ReportMetric(float64(h)/float64(d), "ratio")
	}
}

func medianOf(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(d))
	return s[len(s)/2]
}
