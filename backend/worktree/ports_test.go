package worktree

import (
	"net"
	"strconv"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestPortBlockSkipsBlockWithHeldPort(t *testing.T) {
	p := NewPorts()
	first, err := p.Block("s1")
	if err != nil {
		t.Fatal(err)
	}
	if first < PortRangeFirst || first+PortBlockSize-1 > PortRangeLast || (first-PortRangeFirst)%PortBlockSize != 0 {
		t.Fatalf("block %d outside the range or misaligned", first)
	}
	if again, _ := p.Block("s1"); again != first {
		t.Fatalf("block not stable: %d then %d", first, again)
	}
	p.Release("s1")

	// Another program listens on one port of that block: the session
	// (whose preferred block it is) must get a different, fully free one.
	l, err := net.Listen("tcp4", "127.0.0.1:"+strconv.Itoa(first+7))
	if err != nil {
		t.Skipf("cannot hold port %d: %v", first+7, err)
	}
	defer l.Close()
	got, err := p.Block("s1")
	if err != nil {
		t.Fatal(err)
	}
	if got == first {
		t.Fatalf("assigned block %d although port %d is held", got, first+7)
	}
	for port := got; port < got+PortBlockSize; port++ {
		if port >= first && port < first+PortBlockSize {
			t.Fatalf("block %d overlaps the held block", got)
		}
	}

	// a second session never gets the same block
	other, err := p.Block("s2")
	if err != nil {
		t.Fatal(err)
	}
	if other == got {
		t.Fatalf("two sessions share block %d", got)
	}
}

func TestPortBlockExhausted(t *testing.T) {
	p := NewPorts()
	p.free = func(port int) bool { return port >= 48990 } // only the last block is free
	got, err := p.Block("a")
	if err != nil || got != 48990 {
		t.Fatalf("Block = %d, %v; want 48990", got, err)
	}
	_, err = p.Block("b")
	wantCode(t, err, errs.WorktreePortsExhausted)
	p.Release("a")
	if got, err := p.Block("b"); err != nil || got != 48990 {
		t.Fatalf("after release: %d, %v", got, err)
	}
}
