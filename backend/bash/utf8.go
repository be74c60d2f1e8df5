package bash

import "unicode/utf8"

// IncompleteSuffix returns how many bytes at the end of b form the beginning
// of a UTF-8 sequence that more bytes could still complete (0 to 3). Bytes
// that can never become valid are not held back: they are invalid whatever
// follows.
func IncompleteSuffix(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-(utf8.UTFMax-1); i-- {
		c := b[i]
		if c&0xC0 == 0x80 { // continuation byte: keep looking for its lead
			continue
		}
		if c < utf8.RuneSelf || utf8.FullRune(b[i:]) {
			return 0
		}
		return len(b) - i
	}
	return 0
}

// completePrefix returns the length of the longest prefix of b that does not
// end inside a UTF-8 sequence.
func completePrefix(b []byte) int { return len(b) - IncompleteSuffix(b) }

// skipContinuation returns the index of the first byte of b that is not a
// UTF-8 continuation byte, looking at most 3 bytes in: where a window was cut
// out of a longer stream, the bytes before it are gone and a partial
// sequence at its start cannot be decoded.
func skipContinuation(b []byte) int {
	i := 0
	for i < len(b) && i < utf8.UTFMax-1 && b[i]&0xC0 == 0x80 {
		i++
	}
	return i
}
