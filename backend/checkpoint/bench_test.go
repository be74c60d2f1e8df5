package checkpoint_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// BenchmarkCheckpoint: a warm checkpoint of a 10,000-file repository with 10
// changed files, against what a user would run for the same snapshot —
// `git add -A && git write-tree` with a separate index — in interleaved
// rounds; then the disk the shadow repository takes for those 100
// checkpoints. Run with -benchtime 1x: one run is the figure.
func BenchmarkCheckpoint(b *testing.B) {
	const files, rounds, changed = 10_000, 100, 10
	ws := b.TempDir()
	for i := range files {
		p := filepath.Join(ws, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("f%05d.txt", i))
		if i%100 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(p, fmt.Appendf(nil, "file %d\n%s", i, make([]byte, 200)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	gitRun(b, ws, nil, "init", "-q", ".")
	gitRun(b, ws, nil, "add", "-A")
	gitRun(b, ws, nil, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "-m", "init")

	data := b.TempDir()
	st, err := store.Open(b.Context(), filepath.Join(data, "pi.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().ExecContext(b.Context(), "INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s', 't', 0, 0)"); err != nil {
		b.Fatal(err)
	}
	g, err := worktree.NewGit(filepath.Join(data, "hooks"))
	if err != nil {
		b.Fatal(err)
	}
	shadows := filepath.Join(data, "checkpoints")
	svc := checkpoint.New(st.DB(), g, shadows, checkpoint.Options{Cap: 30 * time.Minute})
	take := func() {
		cp, err := svc.Take(b.Context(), checkpoint.Point{SessionID: "s", Kind: checkpoint.AfterBash, Workspace: ws})
		if err != nil || !cp.Captured {
			b.Fatalf("%v %+v", err, cp)
		}
	}
	baseEnv := []string{"GIT_INDEX_FILE=" + filepath.Join(data, "baseline-index")}
	baseline := func() { gitRun(b, ws, baseEnv, "add", "-A"); gitRun(b, ws, baseEnv, "write-tree") }
	take() // cold: the first snapshot hashes everything
	baseline()
	sizeBefore := du(b, shadows)

	edit := func(round, which int) {
		for k := range changed {
			i := (round*2*changed + which*changed + k) * 37 % files
			p := filepath.Join(ws, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("f%05d.txt", i))
			if err := os.WriteFile(p, fmt.Appendf(nil, "round %d edit %d\n", round, which), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	var ours, theirs []time.Duration
	b.ResetTimer()
	for range b.N {
		for r := range rounds {
			edit(r, 0)
			start := time.Now()
			take()
			ours = append(ours, time.Since(start))
			edit(r, 1)
			start = time.Now()
			baseline()
			theirs = append(theirs, time.Since(start))
		}
	}
	b.StopTimer()
	p50 := func(d []time.Duration) float64 { s := slices.Sorted(slices.Values(d)); return float64(s[len(s)/2]) }
	b.ReportMetric(p50(ours), "p50-ns")
	b.ReportMetric(p50(theirs), "baseline-p50-ns")
	b.ReportMetric(p50(ours)/p50(theirs), "ratio")
	total := du(b, shadows)
	b.ReportMetric(float64(total)/(1<<20), "shadow-MB")
	b.ReportMetric(float64(total-sizeBefore)/float64(rounds*b.N)/1024, "KB/checkpoint")
}

// gitRun runs plain git (the user's, for the baseline and the fixture).
func gitRun(b *testing.B, dir string, env []string, args ...string) {
	b.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// du is the bytes of the files under dir.
func du(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}
