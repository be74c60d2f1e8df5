package attachments

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

const pngSignature = "\x89PNG\r\n\x1a\n"

// withoutDamagedAncillary drops the ancillary chunks (colour profile,
// text, EXIF: a lower-case first letter) whose checksum is wrong, as
// libpng and browsers do; Go's decoder refuses the whole image instead.
// The reference MCP server's own sample image has such an iCCP chunk. The
// pixels are untouched; critical chunks are left for the decoder to judge.
// data comes back unchanged when nothing is dropped or it cannot be walked.
func withoutDamagedAncillary(data []byte) []byte {
	if !bytes.HasPrefix(data, []byte(pngSignature)) {
		return data
	}
	var out []byte // allocated at the first dropped chunk
	i := len(pngSignature)
	for i+12 <= len(data) {
		n := binary.BigEndian.Uint32(data[i:])
		if uint64(n) > uint64(len(data)-i-12) {
			return data // a chunk running past the end: the decoder will say so
		}
		end := i + 12 + int(n)
		typ := data[i+4 : i+8]
		ancillary := typ[0]&0x20 != 0
		damaged := crc32.ChecksumIEEE(data[i+4:end-4]) != binary.BigEndian.Uint32(data[end-4:])
		if ancillary && damaged {
			if out == nil {
				out = append(make([]byte, 0, len(data)), data[:i]...)
			}
		} else if out != nil {
			out = append(out, data[i:end]...)
		}
		i = end
	}
	if out == nil {
		return data
	}
	return append(out, data[i:]...)
}
