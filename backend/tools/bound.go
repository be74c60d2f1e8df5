package tools

import (
	"fmt"
	"strings"
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
