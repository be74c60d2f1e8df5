package bash

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestRingKeepsTheTail(t *testing.T) {
	for _, size := range []int{1, 2, 7, 64, 4096} {
		rng := rand.New(rand.NewPCG(uint64(size), 1))
		r := NewRing(size)
		var all []byte
		for i := 0; i < 300; i++ {
			n := rng.IntN(3 * size)
			if i%17 == 0 {
				n = size // exactly one ring
			}
			p := make([]byte, n)
			for j := range p {
				p[j] = byte(rng.IntN(256))
			}
			r.Write(p)
			all = append(all, p...)
			want := all[max(0, len(all)-size):]
			if got := r.AppendTail(nil, -1); !bytes.Equal(got, want) {
				t.Fatalf("size %d step %d: ring holds %d bytes, want %d (equal=%v)", size, i, len(got), len(want), bytes.Equal(got, want))
			}
			if k := size / 2; true {
				if got := r.AppendTail(nil, k); !bytes.Equal(got, want[max(0, len(want)-k):]) {
					t.Fatalf("size %d step %d: AppendTail(%d) wrong", size, i, k)
				}
			}
			if r.Total() != int64(len(all)) || r.Len() != len(want) {
				t.Fatalf("size %d: Total %d Len %d; want %d %d", size, r.Total(), r.Len(), len(all), len(want))
			}
			b, ok := r.PrevByte()
			if dropped := len(all) - len(want); dropped > 0 {
				if !ok || b != all[dropped-1] {
					t.Fatalf("size %d step %d: PrevByte = %q,%v; want %q", size, i, b, ok, all[dropped-1])
				}
			} else if ok {
				t.Fatalf("size %d: PrevByte reported with nothing dropped", size)
			}
		}
		if cap(r.buf) > size {
			t.Errorf("size %d: buffer capacity %d exceeds the bound", size, cap(r.buf))
		}
	}
}
