package cmdrule

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// script50 is a 50-command script of the kinds an agent sends.
func script50() string {
	lines := []string{
		"cd backend && go test ./... 2>&1 | tail -20",
		"git status --short && git diff --stat",
		"rg -n 'func Classify' backend | head -5",
		"timeout 60 npm run test -- --watch=false > /tmp/out.txt",
		"for f in $(ls *.go); do wc -l \"$f\"; done",
		"find . -name '*.go' -not -path './vendor/*' | xargs grep -l TODO",
		"if [[ -f go.mod ]]; then go vet ./...; fi",
		"cat <<EOF > notes.md\n# notes\n$(date)\nEOF",
		"sed -n '1,20p' README.md",
		"awk '{print $1}' access.log | sort | uniq -c | sort -rn | head",
	}
	var b strings.Builder
	for i := 0; len(Classify(b.String(), nil).Commands) < 50; i++ {
		b.WriteString(lines[i%len(lines)] + "\n")
	}
	return b.String()
}

func TestScript50HasFiftyCommands(t *testing.T) {
	if n := len(Classify(script50(), corpusRules).Commands); n < 50 || n > 53 {
		t.Fatalf("the benchmark script has %d commands, want about 50", n)
	}
}

// BenchmarkClassify50 classifies a script of about 50 simple commands and
// reports the median time of one classification (decisions.md: p50 ≤ 200 µs;
// reported, never asserted).
func BenchmarkClassify50(b *testing.B) {
	src := script50()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		Classify(src, corpusRules)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
}
