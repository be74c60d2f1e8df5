package hostcore_test

// Benchmarks of the host pipeline itself (make bench; not run by make test,
// which passes no -bench flag). Budgets: shared/design/decisions.md,
// "Performance budgets".

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// benchNoop is a tool whose body does nothing: timing Execute with it is
// the host's own cost (validation, session binding, path resolution,
// policy, admission, bounding, audit queueing).
type benchNoop struct {
	name  string
	shape tools.PathShape
}

func (n benchNoop) Spec() tools.Spec {
	s := tools.Spec{Name: n.name, Class: permission.ClassRead, Risk: permission.Low, Timeout: time.Minute, Shape: n.shape,
		Schema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
	if n.shape != tools.NoPath {
		s.PathArg = "path"
		s.Schema = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)
	}
	return s
}

func (benchNoop) Run(context.Context, *tools.Call) tools.Result { return tools.Result{OK: true} }

// benchHost is a core with one auto-mode session on a project folder.
func benchHost(b *testing.B) (core *hostcore.Core, sessionID, project string) {
	b.Helper()
	dir := b.TempDir()
	project = filepath.Join(dir, "proj")
	if err := os.MkdirAll(project, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "big.go"), benchTenK(), 0o644); err != nil {
		b.Fatal(err)
	}
	core, err := hostcore.New(context.Background(), hostcore.Config{DataDir: filepath.Join(dir, "data"), RgPath: "-",
		ExtraTools: []tools.Tool{benchNoop{"BenchNoop", tools.NoPath}, benchNoop{"BenchNoopPath", tools.ExistingFile}}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { core.Close() })
	ctx := context.Background()
	p, err := core.AddProject(ctx, project)
	if err != nil {
		b.Fatal(err)
	}
	s, err := core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := core.ConfigureSession(ctx, s.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		b.Fatal(err)
	}
	return core, s.ID, project
}

// benchTenK is the 10,000-line file of the hashline benchmarks.
func benchTenK() []byte {
	var sb strings.Builder
	for i := 1; i <= 10_000; i++ {
		n := strconv.Itoa(i)
		sb.WriteString("\tx" + n + " := compute(" + n + ", \"some text to make the line realistic\")\n")
	}
	return []byte(sb.String())
}

// timeCalls runs Execute once per iteration, and reports the per-call
// p50 and p99 beside the mean ns/op.
func timeCalls(b *testing.B, core *hostcore.Core, sessionID, tool string, args json.RawMessage) {
	b.Helper()
	ctx := context.Background()
	call := func(i int) tools.Result {
		return core.Execute(ctx, hostcore.ToolRequest{SessionID: sessionID, TurnID: "bench", ToolCallID: "c" + strconv.Itoa(i), Tool: tool, Args: args})
	}
	for i := range 50 { // warm-up: caches, the audit writer, the session binding
		if r := call(-i); !r.OK {
			b.Fatalf("%s: %+v", tool, r)
		}
	}
	durs := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		r := call(i)
		durs = append(durs, time.Since(t0))
		if !r.OK {
			b.Fatalf("%s: %+v", tool, r)
		}
		i++
	}
	b.StopTimer()
	slices.Sort(durs)
	pct := func(p float64) float64 {
		return float64(durs[min(len(durs)-1, int(p*float64(len(durs))))].Nanoseconds())
	}
	b.ReportMetric(pct(0.50), "p50-ns")
	b.ReportMetric(pct(0.99), "p99-ns")
}

// BenchmarkHostOverhead is Execute with a tool whose body is empty: the
// pipeline's cost per call (budget p50 ≤ 50 µs, p99 ≤ 500 µs).
func BenchmarkHostOverhead(b *testing.B) {
	b.Run("nopath", func(b *testing.B) {
		core, sid, _ := benchHost(b)
		timeCalls(b, core, sid, "BenchNoop", json.RawMessage(`{}`))
	})
	b.Run("path", func(b *testing.B) {
		core, sid, _ := benchHost(b)
		timeCalls(b, core, sid, "BenchNoopPath", json.RawMessage(`{"path":"main.go"}`))
	})
}

// BenchmarkRead10k is a Read of a 10,000-line file through the whole
// pipeline: the file is read, decoded, digested and tagged, the window
// numbered (budget p50 ≤ 1.5 ms, allocations fixed).
func BenchmarkRead10k(b *testing.B) {
	for _, limit := range []int{500, 2000} {
		b.Run(fmt.Sprintf("limit%d", limit), func(b *testing.B) {
			core, sid, _ := benchHost(b)
			timeCalls(b, core, sid, "Read", json.RawMessage(fmt.Sprintf(`{"path":"big.go","limit":%d}`, limit)))
		})
	}
}

// BenchmarkAuditInsert is the audit writer's cost per row: "single" waits
// for each row to be written in its own transaction, "batched" queues 128
// rows and waits once (what Execute's background writer does under load).
func BenchmarkAuditInsert(b *testing.B) {
	row := audit.Row{TraceID: "0123456789abcdef", SessionID: "s1", TurnID: "t1", ToolCallID: "c1", Tool: "Read",
		ArgsHash: strings.Repeat("a", 64), ArgsPreview: `{"path":"main.go"}`, PathRoot: "workspace",
		PermissionMode: "ask", OperatingMode: "agent", Decision: "allow", OK: true, CreatedAt: time.Now().UnixMilli()}
	open := func(b *testing.B) *audit.Writer {
		st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "pi.sqlite"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		w := audit.NewWriter(st.DB(), func(err error) { b.Error(err) })
		b.Cleanup(func() { w.Close(); st.Close() })
		return w
	}
	b.Run("single", func(b *testing.B) {
		w := open(b)
		for b.Loop() {
			w.Record(row)
			w.Flush()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/row")
	})
	b.Run("batched128", func(b *testing.B) {
		w := open(b)
		for b.Loop() {
			for range 128 {
				w.Record(row)
			}
			w.Flush()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*128), "ns/row")
	})
}
