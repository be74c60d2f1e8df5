package worktree

import (
	"hash/fnv"
	"net"
	"strconv"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Port blocks for isolated sessions: PI_PORT is the first of ten
// consecutive ports inside [PortRangeFirst, PortRangeLast].
const (
	PortRangeFirst = 41000
	PortRangeLast  = 48999
	PortBlockSize  = 10
)

// Ports hands out 10-port blocks to sessions. A block is assigned only when
// none of its ports is held by another session and each of them can be
// bound on 127.0.0.1 at that moment. A session keeps its block (Block
// returns the same one again) until Release. The first block tried is
// derived from the session id, so a session usually gets the same block
// after a restart too. Safe for concurrent use.
type Ports struct {
	first, last int
	free        func(port int) bool

	mu        sync.Mutex
	bySession map[string]int
	taken     map[int]string // block start → session
}

// NewPorts returns an allocator over 41000–48999.
func NewPorts() *Ports {
	return &Ports{first: PortRangeFirst, last: PortRangeLast, free: portFree,
		bySession: map[string]int{}, taken: map[int]string{}}
}

// Block returns the first port of the session's block, assigning one when
// the session has none. WORKTREE_PORTS_EXHAUSTED when no block is free.
func (p *Ports) Block(sessionID string) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if start, ok := p.bySession[sessionID]; ok {
		return start, nil
	}
	blocks := (p.last - p.first + 1) / PortBlockSize
	h := fnv.New32a()
	h.Write([]byte(sessionID))
	first := int(h.Sum32() % uint32(blocks))
	for i := range blocks {
		start := p.first + ((first+i)%blocks)*PortBlockSize
		if _, held := p.taken[start]; held {
			continue
		}
		if p.blockFree(start) {
			p.bySession[sessionID] = start
			p.taken[start] = sessionID
			return start, nil
		}
	}
	return 0, errs.New(errs.WorktreePortsExhausted,
		"no block of %d free ports is left in %d–%d; stop some dev servers or delete isolated sessions", PortBlockSize, p.first, p.last)
}

// Assigned returns the session's block without assigning one.
func (p *Ports) Assigned(sessionID string) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	start, ok := p.bySession[sessionID]
	return start, ok
}

// Release forgets the session's block.
func (p *Ports) Release(sessionID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if start, ok := p.bySession[sessionID]; ok {
		delete(p.bySession, sessionID)
		delete(p.taken, start)
	}
}

func (p *Ports) blockFree(start int) bool {
	for port := start; port < start+PortBlockSize; port++ {
		if !p.free(port) {
			return false
		}
	}
	return true
}

// portFree reports whether 127.0.0.1:port can be bound right now.
func portFree(port int) bool {
	l, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}
