// Command winestub writes a minimal PE32+ bcryptprimitives.dll whose only
// export, ProcessPrng, forwards to advapi32.SystemFunction036 (RtlGenRandom).
//
// Debian 12's Wine 8.0 has no bcryptprimitives.dll, and every Go >= 1.22
// Windows binary dies at start-up without it ("fatal error:
// bcryptprimitives.dll not found"). With this stub in the prefix's
// system32, `GOOS=windows go test -exec wine64` runs the Windows tests of
// platform/proc and platform/shells:
//
//	export WINEPREFIX=$HOME/.wine WINEDEBUG=-all PATH=/usr/lib/wine:$PATH
//	wine64 wineboot --init
//	go run ./platform/proc/internal/winestub "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
//	GOOS=windows go test -exec wine64 ./platform/proc ./platform/shells
//
// Test tooling only; nothing ships it.
package main

import (
	"encoding/binary"
	"fmt"
	"os"
)

func main() {
	const fileAlign, sectAlign, rva = 0x200, 0x1000, 0x1000
	// Export data (at rva).
	ed := make([]byte, 40)
	eat := len(ed)
	ed = append(ed, make([]byte, 4)...)
	npt := len(ed)
	ed = append(ed, make([]byte, 4)...)
	ot := len(ed)
	ed = append(ed, make([]byte, 2)...)
	dllName := len(ed)
	ed = append(ed, "bcryptprimitives.dll\x00"...)
	fnName := len(ed)
	ed = append(ed, "ProcessPrng\x00"...)
	fwd := len(ed)
	ed = append(ed, "advapi32.SystemFunction036\x00"...)
	le := binary.LittleEndian
	le.PutUint32(ed[12:], uint32(rva+dllName))
	le.PutUint32(ed[16:], 1) // ordinal base
	le.PutUint32(ed[20:], 1) // functions
	le.PutUint32(ed[24:], 1) // names
	le.PutUint32(ed[28:], uint32(rva+eat))
	le.PutUint32(ed[32:], uint32(rva+npt))
	le.PutUint32(ed[36:], uint32(rva+ot))
	le.PutUint32(ed[eat:], uint32(rva+fwd)) // inside the export range: a forwarder
	le.PutUint32(ed[npt:], uint32(rva+fnName))
	le.PutUint16(ed[ot:], 0)

	img := make([]byte, fileAlign+fileAlign)
	copy(img, "MZ")
	le.PutUint32(img[0x3c:], 0x40)
	copy(img[0x40:], "PE\x00\x00")
	coff := img[0x44:]
	le.PutUint16(coff[0:], 0x8664)
	le.PutUint16(coff[2:], 1)
	le.PutUint16(coff[16:], 240)
	le.PutUint16(coff[18:], 0x2022) // EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE | DLL
	opt := img[0x58:]
	le.PutUint16(opt[0:], 0x20b)
	le.PutUint32(opt[8:], fileAlign) // SizeOfInitializedData
	le.PutUint32(opt[20:], rva)      // BaseOfCode
	le.PutUint64(opt[24:], 0x180000000)
	le.PutUint32(opt[32:], sectAlign)
	le.PutUint32(opt[36:], fileAlign)
	le.PutUint16(opt[40:], 6) // OS version
	le.PutUint16(opt[48:], 6) // subsystem version
	le.PutUint32(opt[56:], rva+sectAlign)
	le.PutUint32(opt[60:], fileAlign) // SizeOfHeaders
	le.PutUint16(opt[68:], 3)         // console subsystem
	le.PutUint16(opt[70:], 0x0100)    // NX_COMPAT
	le.PutUint64(opt[72:], 0x100000)
	le.PutUint64(opt[80:], 0x1000)
	le.PutUint64(opt[88:], 0x100000)
	le.PutUint64(opt[96:], 0x1000)
	le.PutUint32(opt[108:], 16)
	le.PutUint32(opt[112:], rva) // export directory
	le.PutUint32(opt[116:], uint32(len(ed)))
	sec := img[0x58+240:]
	copy(sec, ".edata")
	le.PutUint32(sec[8:], uint32(len(ed)))
	le.PutUint32(sec[12:], rva)
	le.PutUint32(sec[16:], fileAlign)
	le.PutUint32(sec[20:], fileAlign)
	le.PutUint32(sec[36:], 0x40000040)
	copy(img[fileAlign:], ed)
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: winestub PATH/bcryptprimitives.dll")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], img, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "winestub:", err)
		os.Exit(1)
	}
}
