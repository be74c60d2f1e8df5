package hashline

import (
	"strings"
	"sync"
	"testing"
)

// tenK is a 10,000-line Go-ish file.
func tenK() []byte {
	var b strings.Builder
	for i := 1; i <= 10_000; i++ {
		b.WriteString("\tx" + itoa(i) + " := compute(" + itoa(i) + ", \"some text to make the line realistic\")\n")
	}
	return []byte(b.String())
}

// BenchmarkDecodeTag10k is the Read path: decode, digest and tag a
// 10,000-line file.
func BenchmarkDecodeTag10k(b *testing.B) {
	data := tenK()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		t := Decode(data)
		if t.Digest().Tag() == "" {
			b.Fatal("no tag")
		}
	}
}

// fiftyOps is a 50-op edit spread over the file: replacements, inserts and
// cuts, with one register move.
func fiftyOps() string {
	var b strings.Builder
	for i := 0; i < 48; i++ {
		n := 100 + i*200
		switch i % 3 {
		case 0:
			b.WriteString("PUT " + itoa(n) + ".=" + itoa(n+1) + ":\n+\treplaced " + itoa(n) + "\n")
		case 1:
			b.WriteString("PUT >" + itoa(n) + ":\n+\tinserted " + itoa(n) + "\n+\tand another\n")
		default:
			b.WriteString("CUT " + itoa(n) + ".=" + itoa(n+2) + " @r" + itoa(i) + "\n")
		}
	}
	b.WriteString("CUT 9990.=9995\nPUT <5 @\n")
	return b.String()
}

// BenchmarkPlan50Ops plans a 50-op edit on the 10,000-line file (version
// check, lowering, provenance, apply, encode, preview).
func BenchmarkPlan50Ops(b *testing.B) {
	data := tenK()
	s := newTestStore()
	tag := read(s, "f.go", data, nil)
	ops := fiftyOps()
	if _, err := edit(s, "f.go", tag, ops, data); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := edit(s, "f.go", tag, ops, data); err != nil {
			b.Fatal(err)
		}
	}
}

func TestFiftyOpsPlan(t *testing.T) {
	data := tenK()
	s := newTestStore()
	tag := read(s, "f.go", data, nil)
	p := mustPlan(t, s, "f.go", tag, fiftyOps(), data)
	if len(p.Changed) == 0 || p.Branch != "A" {
		t.Fatal(p.Changed)
	}
}

// TestStoreConcurrent exercises the store from many goroutines (run with
// -race): producers record while plans read.
func TestStoreConcurrent(t *testing.T) {
	s := NewStore(Limits{Paths: 4, Versions: 2, TextBytes: 1 << 12, Registers: 2}, fixedNow)
	src := []byte(greetSrc)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			key := "k" + itoa(g%5)
			for i := 0; i < 200; i++ {
				read(s, key, src, nil)
				if p, err := edit(s, key, "A093", ex2Ops, src); err == nil {
					s.Commit(key, p, "")
				}
				s.Candidates(key, "A093")
				if i%50 == 0 {
					s.Invalidate(key)
				}
			}
		}(g)
	}
	wg.Wait()
	g := NewGuard()
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				g.Fail("p", "f", "EDIT_PARSE_FAILED")
				g.Succeed("p", "f")
				g.FailShellPatch("p")
			}
		}()
	}
	wg.Wait()
}
