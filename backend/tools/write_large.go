package tools

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/names"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

// readLanded reads what a Write left on disk, at most hashline.MaxTextBytes+1
// bytes of it, and the file's real size: a file over the text limit is
// reported by its size, never by the length of the bounded read.
func readLanded(c *Call, target pathguard.Resolved) ([]byte, int64, error) {
	f, err := c.Resolver.OpenFile(target, readOnly, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	data, err := readSized(f, hashline.MaxTextBytes)
	if err != nil {
		return nil, 0, err
	}
	size := int64(len(data))
	if size > hashline.MaxTextBytes {
		// Counted, not Stat'ed: the size of the bytes this handle reads.
		n, err := io.Copy(io.Discard, f)
		if err != nil {
			return nil, 0, err
		}
		size += n
	}
	return data, size, nil
}

// largeWriteResult describes a Write whose file is over the 16 MiB text
// limit: it landed, but it has no tag (edit-contract §1) and, in the
// workspace, its review record keeps no snapshot (review.MaxSnapshotBytes),
// so the result says which limit applied and what the model can do next,
// instead of calling a large text file binary.
func largeWriteResult(res Result, fields map[string]any, display, verb string, size int64, head []byte, irreversible bool) Result {
	display = names.Escape(display)
	fields["bytes"] = size
	fields["tooLarge"] = true
	if len(head) > 8<<10 {
		head = head[:8<<10]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		fields["binary"] = true
	}
	res.Content = fmt.Sprintf("%s %s: %s bytes, no tag (larger than the %d MiB text limit)", verb, display, thousands(size), hashline.MaxTextBytes>>20)
	what := "no tag was issued, so Edit and Write cannot change it"
	if irreversible {
		what = fmt.Sprintf("this change cannot be rolled back (the review keeps snapshots up to %d MiB) and no tag was issued, so Edit and Write cannot change it", review.MaxSnapshotBytes>>20)
	}
	res.Notice = joinNotice(res.Notice, fmt.Sprintf("wrote %s bytes to %s; larger than the %d MiB (%s-byte) text limit, so %s. Read it with offset/limit, or change it with Bash",
		thousands(size), display, hashline.MaxTextBytes>>20, thousands(hashline.MaxTextBytes), what))
	res.Fields = fields
	return res
}

// thousands renders n with ',' between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
