package search

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// rgSizeArgs make rg skip files over MaxFileBytes (bounding its memory as
// the builtin engine's is bounded) and log each one it skips: the only
// place rg names them is its debug log ("ignoring ./big.txt: 209715200
// bytes", from the ignore crate's walker).
func rgSizeArgs() []string {
	return []string{"--max-filesize", strconv.Itoa(MaxFileBytes), "--debug"}
}

// maxStderrLine bounds one line of rg's stderr held in memory.
const maxStderrLine = 16 << 10

// rgStderr receives rg's stderr under --debug: it keeps the files rg
// skipped for their size, and the tail of the lines that are not debug
// output (rg's own error messages) to explain a failure.
type rgStderr struct {
	dir string // where rg ran: skipped paths are checked there
	// fs, when set, is dir opened: paths are checked through it, so a name
	// rg logged through a link swapped in is never taken (see rgcheck.go);
	// leave reports the names to drop silently (the host's data folder).
	fs      *os.Root
	leave   func(rel string) bool
	line    []byte
	long    bool // the current line was cut at maxStderrLine
	skipped []SkippedFile
	// unsure is set by a size line that could not be read or checked (a
	// name holding a newline, a name rg printed lossily): the caller then
	// trusts the builtin engine, which names every skipped file.
	unsure bool
	tail   tailBuffer
}

func newRgStderr(dir string) *rgStderr {
	return &rgStderr{dir: dir, tail: tailBuffer{max: 4 << 10}}
}

func (s *rgStderr) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := maxStderrLine - len(s.line); len(chunk) > room {
			s.line, s.long = append(s.line, chunk[:room]...), true
		} else {
			s.line = append(s.line, chunk...)
		}
		if i < 0 {
			break
		}
		s.endLine()
		p = p[i+1:]
	}
	return n, nil
}

// finish handles a last line without a newline.
func (s *rgStderr) finish() {
	if len(s.line) > 0 {
		s.endLine()
	}
}

func (s *rgStderr) endLine() {
	line, long := strings.TrimSuffix(string(s.line), "\r"), s.long
	s.line, s.long = s.line[:0], false
	const walkLog, ignoring = "|ignore::walk|", ": ignoring "
	w := strings.Index(line, walkLog)
	if w < 0 {
		if strings.HasSuffix(line, " bytes") || long {
			s.unsure = true // the rest of a size line split by a newline in a name
		}
		if !strings.Contains(line, "DEBUG|") {
			s.tail.Write([]byte(line + "\n"))
		}
		return
	}
	rest := line[w+len(walkLog):]
	i := strings.Index(rest, ignoring)
	if i < 0 {
		return
	}
	rest = rest[i+len(ignoring):]
	if long {
		s.unsure = true
		return
	}
	if !strings.HasSuffix(rest, " bytes") {
		return // ignored by a rule ("ignoring ./x: Ignore(…)"), not for its size
	}
	k := strings.LastIndex(rest, ": ")
	if k < 0 {
		s.unsure = true
		return
	}
	size, err := strconv.ParseInt(strings.TrimSuffix(rest[k+2:], " bytes"), 10, 64)
	rel := normRgPath(rest[:k])
	if s.leave != nil && s.leave(rel) {
		return
	}
	if err != nil || size <= MaxFileBytes || !s.bigFile(rel) {
		s.unsure = true
		return
	}
	s.skipped = append(s.skipped, SkippedFile{Path: rel, Size: size})
}

// bigFile reports whether rel names a regular file over the limit: the
// name read from the log is the one on disk.
func (s *rgStderr) bigFile(rel string) bool {
	lstat := os.Lstat
	name := filepath.Join(s.dir, filepath.FromSlash(rel))
	if s.fs != nil {
		lstat, name = s.fs.Lstat, filepath.FromSlash(rel)
	}
	st, err := lstat(name)
	return err == nil && st.Mode().IsRegular() && st.Size() > MaxFileBytes
}
