//go:build dev

package desktop

import (
	"encoding/json"
	"sync"
	"testing"
)

func TestDevEventsAreNumberedInEmissionOrder(t *testing.T) {
	var o EventOrder
	name, data := o.Wrap("agent:text", map[string]string{"delta": "a"})
	if name != orderedEvent {
		t.Fatalf("name = %q, want %q", name, orderedEvent)
	}
	got, _ := json.Marshal(data)
	if want := `{"seq":1,"name":"agent:text","data":{"delta":"a"}}`; string(got) != want {
		t.Errorf("envelope = %s, want %s", got, want)
	}

	// Concurrent emitters still get distinct, gap-free numbers.
	var wg sync.WaitGroup
	seen := make(chan uint64, 100)
	for range 100 {
		wg.Go(func() {
			_, d := o.Wrap("x", nil)
			seen <- d.(devEnvelope).Seq
		})
	}
	wg.Wait()
	close(seen)
	nums := map[uint64]bool{}
	for s := range seen {
		nums[s] = true
	}
	for s := uint64(2); s <= 101; s++ {
		if !nums[s] {
			t.Fatalf("seq %d missing from %v", s, nums)
		}
	}
}
