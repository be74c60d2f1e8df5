package tools

import (
	"bufio"
	"strconv"
	"strings"
	"testing"
)

// The streamed rows of a file too large to hold are the rows renderLine
// gives for the whole line, however the reader's buffer splits it. (The
// count of dropped characters is exact for UTF-8 text; for invalid bytes
// past the cap it counts sequence starts.)
func TestLineStreamerRendersLikeWholeLines(t *testing.T) {
	inputs := []string{
		"",
		"a",
		"abc\ndefgh\n",
		"crlf line\r\nnext\r\n",
		"lone\rcr\nx\r",
		"ééééééééééé\n世界世界世界世界世界\nz",
		strings.Repeat("y", 70) + "\r\n" + strings.Repeat("é", 40) + "\n\n\r\n",
		"\r\n\r\n",
		"abcdefghijklmn\xe4\xb8", // ends inside a rune
	}
	for _, in := range inputs {
		for _, lineCap := range []int{1, 3, 4, 9} {
			t.Run(strconv.Quote(in)+"/"+strconv.Itoa(lineCap), func(t *testing.T) {
				want := wholeRows(in, lineCap)
				ls := lineStreamer{br: bufio.NewReaderSize(strings.NewReader(in), 16)} // the smallest buffer: many chunks
				var got []string
				for i := 1; ; i++ {
					l, ok, err := ls.next(lineCap)
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						break
					}
					row, clipped := renderStreamLine([]byte(strconv.Itoa(i)), l, lineCap)
					got = append(got, row+map[bool]string{true: " (clipped)"}[clipped])
				}
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("streamed rows\n got %q\nwant %q", got, want)
				}
				skip := lineStreamer{br: bufio.NewReaderSize(strings.NewReader(in), 16)}
				n := 0
				for {
					_, ok, err := skip.next(0) // lines outside the window are only counted
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						break
					}
					n++
				}
				if n != len(want) {
					t.Errorf("skipping counted %d lines, want %d", n, len(want))
				}
			})
		}
	}
}

// wholeRows is what Read renders with the whole lines in memory.
func wholeRows(in string, lineCap int) []string {
	var rows []string
	br := bufio.NewReader(strings.NewReader(in))
	for i := 1; ; i++ {
		line, err := br.ReadString('\n')
		if line == "" {
			return rows
		}
		line = strings.ToValidUTF8(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), "\uFFFD")
		row, clipped := renderLine([]byte(strconv.Itoa(i)), line, lineCap)
		rows = append(rows, row+map[bool]string{true: " (clipped)"}[clipped])
		if err != nil {
			return rows
		}
	}
}
