package bash

import "fmt"

// Ring keeps the last Size bytes written to it. Memory grows with the data
// up to Size and then stays there. It is not safe for concurrent use; its
// owners lock around it.
type Ring struct {
	size     int
	buf      []byte // linear phase: the data; ring phase: len(buf) == size
	w        int    // ring phase: next write position, also the oldest byte
	full     bool   // ring phase
	total    int64
	prev     byte // ring phase: the byte just before the oldest kept byte
	havePrev bool
}

// NewRing returns a Ring that keeps the last size bytes (size > 0).
func NewRing(size int) *Ring {
	if size <= 0 {
		panic(fmt.Sprintf("bash.NewRing: size %d", size))
	}
	return &Ring{size: size}
}

// Write appends p, dropping the oldest bytes beyond the ring's size. It
// never fails.
func (r *Ring) Write(p []byte) (int, error) {
	n := len(p)
	if n == 0 {
		return 0, nil
	}
	r.total += int64(n)
	if !r.full {
		if len(r.buf)+n <= r.size {
			r.buf = appendCapped(r.buf, p, r.size)
			return n, nil
		}
		if n >= r.size {
			r.setWhole(p)
			return n, nil
		}
		// Fill up to size, then continue as a ring from position 0.
		k := r.size - len(r.buf)
		r.buf = appendCapped(r.buf, p[:k], r.size)
		p = p[k:]
		r.full, r.w = true, 0
	}
	if len(p) >= r.size {
		r.setWhole(p)
		return n, nil
	}
	// Overwrite the len(p) oldest bytes; the last of them becomes prev.
	r.prev = r.buf[(r.w+len(p)-1)%r.size]
	r.havePrev = true
	c := copy(r.buf[r.w:], p)
	copy(r.buf, p[c:])
	r.w = (r.w + len(p)) % r.size
	return n, nil
}

func (r *Ring) setWhole(p []byte) {
	if len(p) > r.size {
		r.prev, r.havePrev = p[len(p)-r.size-1], true
	} else if l := r.Len(); l > 0 {
		r.prev, r.havePrev = r.at(l-1), true
	}
	if cap(r.buf) < r.size {
		r.buf = make([]byte, r.size)
	}
	r.buf = r.buf[:r.size]
	copy(r.buf, p[len(p)-r.size:])
	r.full, r.w = true, 0
}

// at returns the i-th kept byte, oldest first.
func (r *Ring) at(i int) byte {
	if !r.full {
		return r.buf[i]
	}
	return r.buf[(r.w+i)%r.size]
}

// Len is the number of bytes kept.
func (r *Ring) Len() int {
	if r.full {
		return r.size
	}
	return len(r.buf)
}

// Total is the number of bytes ever written.
func (r *Ring) Total() int64 { return r.total }

// Dropped is the number of bytes written but no longer kept.
func (r *Ring) Dropped() int64 { return r.total - int64(r.Len()) }

// PrevByte returns the last dropped byte, the one just before the oldest
// kept byte; ok is false when nothing was dropped.
func (r *Ring) PrevByte() (b byte, ok bool) {
	if r.Dropped() == 0 {
		return 0, false
	}
	return r.prev, r.havePrev
}

// AppendTail appends the last max bytes kept (all of them if max < 0 or
// max > Len) to dst, oldest first.
func (r *Ring) AppendTail(dst []byte, max int) []byte {
	l := r.Len()
	if max < 0 || max > l {
		max = l
	}
	if !r.full {
		return append(dst, r.buf[len(r.buf)-max:]...)
	}
	start := (r.w + l - max) % r.size
	if start+max <= r.size {
		return append(dst, r.buf[start:start+max]...)
	}
	dst = append(dst, r.buf[start:]...)
	return append(dst, r.buf[:max-(r.size-start)]...)
}

// appendCapped appends p to b, growing b's capacity geometrically but never
// beyond limit (len(b)+len(p) must not exceed limit).
func appendCapped(b, p []byte, limit int) []byte {
	need := len(b) + len(p)
	if need > cap(b) {
		c := 2 * cap(b)
		if c < 4096 {
			c = 4096
		}
		if c < need {
			c = need
		}
		if c > limit {
			c = limit
		}
		nb := make([]byte, len(b), c)
		copy(nb, b)
		b = nb
	}
	return append(b, p...)
}
