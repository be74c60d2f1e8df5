package search

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/names"
)

// MaxFileBytes is the largest file Grep searches, in both engines (rg
// gets it as --max-filesize). It is the text limit of the edit contract: a
// larger file has no tag and cannot be Edited, and searching it whole
// would cost memory in proportion to its size. Larger files are not
// searched but named in the result (GrepResult.Skipped), so a search never
// answers "No matches" for a file it did not look at.
const MaxFileBytes = hashline.MaxTextBytes

// maxSkippedNamed is how many skipped files the notice names one by one.
const maxSkippedNamed = 10

// SkippedFile is a file Grep did not search because it is larger than
// MaxFileBytes.
type SkippedFile struct {
	Path string // as GrepFile.Path
	Size int64
}

// tooLargeError reports a file over MaxFileBytes.
type tooLargeError struct{ size int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("file of %d bytes is larger than the %d-byte search limit", e.size, MaxFileBytes)
}

// readBounded reads the file open opens whole when it is within
// MaxFileBytes, and fails with *tooLargeError, without reading it, when it
// is not (or when it has grown past the limit since it was measured).
func readBounded(open func() (*os.File, error)) ([]byte, error) {
	f, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxFileBytes {
		return nil, &tooLargeError{st.Size()}
	}
	var b bytes.Buffer
	b.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(f, MaxFileBytes+1)); err != nil {
		return nil, err
	}
	if b.Len() > MaxFileBytes {
		return nil, &tooLargeError{int64(b.Len())}
	}
	return b.Bytes(), nil
}

// sizeOf returns the size of a *tooLargeError, or -1.
func sizeOf(err error) int64 {
	var big *tooLargeError
	if errors.As(err, &big) {
		return big.size
	}
	return -1
}

// walkLess reports whether a comes before b in walk order (entries sorted
// by name within each directory, depth first: rg --sort path), for
// '/'-separated relative paths.
func walkLess(a, b string) bool {
	for {
		ac, arest, amore := strings.Cut(a, "/")
		bc, brest, bmore := strings.Cut(b, "/")
		if ac != bc {
			return ac < bc
		}
		if !amore || !bmore {
			return !amore && bmore
		}
		a, b = arest, brest
	}
}

// walkCompare is walkLess as a comparison, for slices.SortFunc.
func walkCompare(a, b string) int {
	switch {
	case a == b:
		return 0
	case walkLess(a, b):
		return -1
	}
	return 1
}

// skippedNotice is the part of the notice that names the skipped files.
func skippedNotice(skipped []SkippedFile, display func(string) string) string {
	if len(skipped) == 0 {
		return ""
	}
	limit := fmt.Sprintf("%d MiB", MaxFileBytes>>20)
	if len(skipped) == 1 {
		s := skipped[0]
		return fmt.Sprintf("Skipped %s (%s): larger than the %s search limit, so it was not searched; Read it with offset/limit, or search it with Bash (rg, grep).", names.Escape(display(s.Path)), humanSize(s.Size), limit)
	}
	named := make([]string, 0, min(len(skipped), maxSkippedNamed))
	for _, s := range skipped[:min(len(skipped), maxSkippedNamed)] {
		named = append(named, names.Escape(display(s.Path))+" ("+humanSize(s.Size)+")")
	}
	list := strings.Join(named, ", ")
	if more := len(skipped) - len(named); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("Skipped %d files larger than the %s search limit, so they were not searched: %s; Read them with offset/limit, or search them with Bash (rg, grep).", len(skipped), limit, list)
}

// humanSize renders a size in binary units, as the limit is given.
func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// errRgSkipped: rg's log of the files it skipped for their size could not
// be read with certainty, so the builtin engine answers instead.
var errRgSkipped = errors.New("rg: cannot tell which files were skipped for their size")

// skip records a file skipped for its size, unless the collector already
// has all it needs (as for a hit, so both engines list the same files).
func (c *collector) skip(f SkippedFile) {
	if !c.done {
		c.skipped = append(c.skipped, f)
	}
}

// skipBefore records the files rg skipped, those before stopAt in walk
// order when the search stopped there ("" = it did not stop): the files
// the builtin engine reaches before it stops too.
func (c *collector) skipBefore(skipped []SkippedFile, stopAt string) {
	// rg logs them as its threads meet them; the builtin engine lists them
	// in walk order.
	slices.SortStableFunc(skipped, func(a, b SkippedFile) int { return walkCompare(a.Path, b.Path) })
	for _, f := range skipped {
		if stopAt == "" || walkLess(f.Path, stopAt) {
			c.skipped = append(c.skipped, f)
		}
	}
}
