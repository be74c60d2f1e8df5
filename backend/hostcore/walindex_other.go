//go:build !unix

package hostcore

// walMark and walIndex stand in where the -shm file is not mapped (Windows):
// the generation is then read from the database on every call.
type walMark struct{}

type walIndex struct{}

func openWALIndex(string) *walIndex       { return nil }
func (*walIndex) header() (walMark, bool) { return walMark{}, false }
func (*walIndex) unmap()                  {}
func (*walIndex) closeFile()              {}
