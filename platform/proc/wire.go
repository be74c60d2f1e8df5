package proc

import (
	"errors"
	"io"
	"strconv"
)

// The host ↔ runner protocol encodes frames by hand: a big-endian uint32
// length, then fields as varints and length-prefixed strings. The runner
// links no encoding/json, fmt or reflect this way, which keeps it small
// (its memory while a command runs is mostly its own binary's pages).

// wireVersion starts every header; a runner of another version refuses it
// (a stale pi-desktop-runner next to a newer app) instead of misreading it.
const wireVersion = 2

// maxFrame bounds a frame (a header carries the environment).
const maxFrame = 64 << 20

var errBadFrame = errors.New("malformed frame")

type wireEnc struct{ b []byte }

func (e *wireEnc) uint(v uint64) {
	for v >= 0x80 {
		e.b = append(e.b, byte(v)|0x80)
		v >>= 7
	}
	e.b = append(e.b, byte(v))
}

func (e *wireEnc) int(v int64) { e.uint(uint64(v<<1) ^ uint64(v>>63)) }

func (e *wireEnc) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *wireEnc) strs(l []string) {
	e.uint(uint64(len(l)))
	for _, s := range l {
		e.str(s)
	}
}

func (e *wireEnc) bool(v bool) {
	if v {
		e.uint(1)
	} else {
		e.uint(0)
	}
}

// frame returns the length-prefixed payload.
func (e *wireEnc) frame() []byte {
	n := len(e.b)
	return append([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, e.b...)
}

type wireDec struct {
	b   []byte
	err error
}

func (d *wireDec) uint() uint64 {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if len(d.b) == 0 {
			break
		}
		c := d.b[0]
		d.b = d.b[1:]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	d.err = errBadFrame
	return 0
}

func (d *wireDec) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *wireDec) str() string {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errBadFrame
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *wireDec) strs() []string {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.b)) { // every string takes a byte at least
		d.err = errBadFrame
		return nil
	}
	l := make([]string, 0, n)
	for range n {
		l = append(l, d.str())
	}
	return l
}

func (d *wireDec) bool() bool { return d.uint() != 0 }

// readFrame reads one length-prefixed payload.
func readFrame(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := uint32(n[0])<<24 | uint32(n[1])<<16 | uint32(n[2])<<8 | uint32(n[3])
	if size > maxFrame {
		return nil, errors.New("frame too large (" + strconv.FormatUint(uint64(size), 10) + " bytes)")
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

func (h header) encode() []byte {
	var e wireEnc
	e.uint(wireVersion)
	e.str(h.Path)
	e.strs(h.Args)
	e.str(h.CmdLine)
	e.str(h.Dir)
	e.strs(h.Env)
	e.int(h.GraceMs)
	e.str(h.Cgroup)
	return e.frame()
}

// readHeader reads the runner's command header from r.
func readHeader(r io.Reader) (header, error) {
	var h header
	b, err := readFrame(r)
	if err != nil {
		return h, err
	}
	d := wireDec{b: b}
	if v := d.uint(); d.err == nil && v != wireVersion {
		return h, errors.New("protocol version " + strconv.FormatUint(v, 10) + ", this runner speaks " +
			strconv.Itoa(wireVersion) + ": install the " + RunnerName + " that came with this app")
	}
	h.Path, h.Args, h.CmdLine, h.Dir, h.Env = d.str(), d.strs(), d.str(), d.str(), d.strs()
	h.GraceMs, h.Cgroup = d.int(), d.str()
	if d.err == nil && len(d.b) != 0 {
		d.err = errBadFrame
	}
	return h, d.err
}

func (st status) encode() []byte {
	var e wireEnc
	e.int(int64(st.Pid))
	e.str(st.SpawnErr)
	e.uint(st.Errno)
	e.bool(st.Exit != nil)
	if st.Exit != nil {
		e.int(int64(*st.Exit))
	}
	e.int(int64(st.Signal))
	e.bool(st.Killed)
	e.int(int64(st.Survivors))
	return e.frame()
}

func readStatusFrame(r io.Reader) (status, error) {
	var st status
	b, err := readFrame(r)
	if err != nil {
		return st, err
	}
	d := wireDec{b: b}
	st.Pid, st.SpawnErr, st.Errno = int(d.int()), d.str(), d.uint()
	if d.bool() {
		code := int(d.int())
		st.Exit = &code
	}
	st.Signal, st.Killed, st.Survivors = int(d.int()), d.bool(), int(d.int())
	if d.err == nil && len(d.b) != 0 {
		d.err = errBadFrame
	}
	return st, d.err
}
