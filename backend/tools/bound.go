package tools

import (
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// ResultMaxLines is the line cap of a Read/Glob/Grep result.
const ResultMaxLines = 2000

// Bound is the pipeline's backstop on what reaches the model: content over
// 48 KB or 2,000 lines is cut at a whole line and marked. Tools bound their
// own output first, with a notice that names their next step; this catches
// any that did not.
func Bound(r Result) Result {
	if len(r.Content) <= ResultMaxBytes && strings.Count(r.Content, "\n") < ResultMaxLines {
		return r
	}
	total := strings.Count(r.Content, "\n") + 1
	cut, lines := 0, 0
	for cut < len(r.Content) && lines < ResultMaxLines {
		i := strings.IndexByte(r.Content[cut:], '\n')
		if i < 0 || cut+i+1 > ResultMaxBytes {
			break
		}
		cut += i + 1
		lines++
	}
	r.Content = r.Content[:cut] + fmt.Sprintf("[truncated: kept the first %d of %d lines; limit %d lines / %d KB]", lines, total, ResultMaxLines, ResultMaxBytes>>10)
	r.Truncated = true
	r.Notice = joinNotice(r.Notice, "the result was cut to the size limit; narrow the request to see the rest")
	return r
}

// AppendBounded adds tail (a few lines the host writes, such as notes on a
// result's images) on lines of its own after r's content, cutting the
// content first, at a whole line and marked, so the whole stays within the
// result bound and the tail is never the part that is cut. tail itself is
// expected to be short; beyond a quarter of the bound it is cut too.
func AppendBounded(r Result, tail string) Result {
	if tail == "" {
		return r
	}
	tail = truncate.BytesEllipsis(tail, ResultMaxBytes/4)
	tailLines := strings.Count(tail, "\n") + 1
	content := r.Content
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	if len(content)+len(tail) <= ResultMaxBytes && strings.Count(content, "\n")+tailLines < ResultMaxLines {
		r.Content = content + tail
		return r
	}
	total := strings.Count(content, "\n")
	// Room for the marker line as well as the tail.
	cut := headCut(content, ResultMaxBytes-len(tail)-256, ResultMaxLines-tailLines-2)
	kept := strings.Count(content[:cut], "\n")
	r.Content = content[:cut]
	if !strings.HasSuffix(r.Content, "\n") {
		r.Content += "\n"
	}
	r.Content += fmt.Sprintf("[truncated: kept the first %d of %d lines to leave room for the notes below; limit %d lines / %d KB]\n", kept, total, ResultMaxLines, ResultMaxBytes>>10) + tail
	r.Truncated = true
	r.Notice = joinNotice(r.Notice, "the result was cut to the size limit; narrow the request to see the rest")
	return r
}
