package tools

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// streamLine is one line of a file too large to hold: at most keep runes
// of its text, and how many runes were dropped after them.
type streamLine struct {
	text    string
	omitted int
}

// lineStreamer reads a file line by line without ever holding more of a
// line than it keeps: a 200 MB line costs the reader's buffer plus the
// kept prefix, not 200 MB (issue 13, bounded memory).
type lineStreamer struct {
	br *bufio.Reader
}

// next reads one line (its "\n" and the "\r" of a "\r\n" removed). With
// keep > 0 it returns the first keep runes of it and counts the rest; with
// keep == 0 it only skips the line. ok is false at the end of the input.
func (s *lineStreamer) next(keep int) (line streamLine, ok bool, err error) {
	var (
		kept  []byte
		runes int  // runes kept
		any   bool // read at least one byte of this line
		last  byte // the last byte of the line's text so far
		split []byte
	)
	for {
		chunk, rerr := s.br.ReadSlice('\n')
		if len(chunk) > 0 {
			any = true
			body := chunk
			ended := body[len(body)-1] == '\n'
			if ended {
				body = body[:len(body)-1]
			}
			if len(body) > 0 {
				last = body[len(body)-1]
			}
			if len(split) > 0 {
				body = append(split, body...) // at most 3 bytes carried over
				split = nil
			}
			for len(body) > 0 && runes < keep {
				if errors.Is(rerr, bufio.ErrBufferFull) && !utf8.FullRune(body) {
					split = append(split, body...) // a rune cut by the buffer's end
					body = nil
					break
				}
				_, size := utf8.DecodeRune(body)
				kept = append(kept, body[:size]...)
				body = body[size:]
				runes++
			}
			if keep > 0 {
				line.omitted += runeStarts(body) // the rest of a shown line; a skipped one is not counted
			}
			if ended {
				break
			}
		}
		if rerr == nil || errors.Is(rerr, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(rerr, io.EOF) {
			if !any {
				return streamLine{}, false, nil
			}
			break
		}
		return streamLine{}, false, rerr
	}
	if last == '\r' && keep > 0 {
		// The "\r" of a "\r\n" (or a final "\r"), trimmed as before.
		if line.omitted > 0 {
			line.omitted--
		} else {
			kept = kept[:len(kept)-1]
		}
	}
	line.text = strings.ToValidUTF8(string(kept), "\uFFFD")
	return line, true, nil
}

// runeStarts counts the bytes of b that start a UTF-8 sequence: the rune
// count of valid text however it was split into chunks.
func runeStarts(b []byte) int {
	n := 0
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 == 0 {
			n += 8 // eight ASCII bytes: each starts a rune
		} else {
			n += runeStartsSlow(b[:8])
		}
		b = b[8:]
	}
	return n + runeStartsSlow(b)
}

func runeStartsSlow(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// renderStreamLine renders a line read by lineStreamer: as renderLine does
// when nothing was dropped, else as a clipped row whose count includes the
// dropped runes.
func renderStreamLine(num []byte, l streamLine, lineCap int) (string, bool) {
	if l.omitted == 0 {
		return renderLine(num, l.text, lineCap)
	}
	shown := strings.ReplaceAll(l.text, "\r", "␍")
	cut, runes := len(shown), 0
	for i := range shown {
		if runes == lineCap {
			cut = i
			break
		}
		runes++
	}
	rest := utf8.RuneCountInString(shown[cut:]) + l.omitted
	return string(num) + "~:" + shown[:cut] + " …[+" + strconv.Itoa(rest) + " chars]", true
}
