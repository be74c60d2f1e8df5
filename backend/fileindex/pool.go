package fileindex

import (
	"errors"
	"path/filepath"
	"sync"
)

// Pool shares one Index per root between holders (sessions): the first
// holder of a root starts its index, the last one to let go closes it.
type Pool struct {
	opts Options

	mu     sync.Mutex
	byRoot map[string]*pooled
	held   map[string]string // holder -> root
	closed bool
}

type pooled struct {
	idx     *Index
	holders map[string]bool
}

// NewPool returns an empty pool whose indexes use opts.
func NewPool(opts Options) *Pool {
	return &Pool{opts: opts, byRoot: map[string]*pooled{}, held: map[string]string{}}
}

// errPoolClosed: the app is shutting down.
var errPoolClosed = errors.New("fileindex: pool closed")

// Acquire returns the index of root for holder, starting it if no one
// holds it yet. A holder holds one root at a time: acquiring another root
// lets go of the previous one.
func (p *Pool) Acquire(root, holder string) (*Index, error) {
	root = filepath.Clean(root)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errPoolClosed
	}
	var stale *Index
	if old, ok := p.held[holder]; ok && old != root {
		stale = p.letGo(holder)
	}
	e := p.byRoot[root]
	if e == nil {
		e = &pooled{idx: New(root, p.opts), holders: map[string]bool{}}
		p.byRoot[root] = e
	}
	e.holders[holder] = true
	p.held[holder] = root
	p.mu.Unlock()
	if stale != nil {
		stale.Close()
	}
	return e.idx, nil
}

// Release lets go of holder's index; the index closes when it was the
// last holder. Releasing a holder that holds nothing does nothing.
func (p *Pool) Release(holder string) {
	p.mu.Lock()
	idx := p.letGo(holder)
	p.mu.Unlock()
	if idx != nil {
		idx.Close()
	}
}

// Drop closes root's index whatever holds it, so the next Acquire walks
// again (after its first walk failed, say).
func (p *Pool) Drop(root string) {
	root = filepath.Clean(root)
	p.mu.Lock()
	e := p.byRoot[root]
	if e != nil {
		delete(p.byRoot, root)
		for h := range e.holders {
			delete(p.held, h)
		}
	}
	p.mu.Unlock()
	if e != nil {
		e.idx.Close()
	}
}

// letGo removes holder and returns its index if no one holds it any more.
// p.mu is held.
func (p *Pool) letGo(holder string) *Index {
	root, ok := p.held[holder]
	if !ok {
		return nil
	}
	delete(p.held, holder)
	e := p.byRoot[root]
	delete(e.holders, holder)
	if len(e.holders) > 0 {
		return nil
	}
	delete(p.byRoot, root)
	return e.idx
}

// Open is the number of indexes running.
func (p *Pool) Open() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byRoot)
}

// Close closes every index; Acquire fails afterwards.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	all := p.byRoot
	p.byRoot, p.held = map[string]*pooled{}, map[string]string{}
	p.mu.Unlock()
	for _, e := range all {
		e.idx.Close()
	}
	return nil
}
