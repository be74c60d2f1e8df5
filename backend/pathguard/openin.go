package pathguard

import "os"

// OpenIn returns the folder an operation on res runs in, opened as an
// os.Root after the same re-check as OpenFile, and res's name relative to
// it. Searches walk from it, so no link swapped in meanwhile can lead them
// out of res's root. The caller closes the folder.
func (r *Resolver) OpenIn(res Resolved) (*os.Root, string, error) {
	return r.prepare(res)
}
