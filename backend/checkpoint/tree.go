package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Git modes of tree entries.
const (
	modeNone    = "000000"
	modeFile    = "100644"
	modeExec    = "100755"
	modeLink    = "120000"
	modeGitlink = "160000"
)

// entryDiff is one path that differs between two trees: the "from" side
// and the "to" side, each "" (modeNone) when absent.
type entryDiff struct {
	path             string
	fromMode, toMode string
	fromBlob, toBlob string
}

// diffTrees lists the paths whose entry differs between trees from and to
// (recursive, no rename detection, no external diff or textconv).
func (s *shadow) diffTrees(ctx context.Context, from, to string) ([]entryDiff, error) {
	out, err := s.run(ctx, nil, "diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-ext-diff", "--no-textconv", from, to)
	if err != nil {
		return nil, err
	}
	return parseRaw(out)
}

// parseRaw reads `git diff-tree -z --raw` output:
// ":<from mode> <to mode> <from blob> <to blob> <status>\0<path>\0".
func parseRaw(out string) ([]entryDiff, error) {
	var list []entryDiff
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		head, path := fields[i], fields[i+1]
		parts := strings.Fields(strings.TrimPrefix(head, ":"))
		if !strings.HasPrefix(head, ":") || len(parts) != 5 || path == "" {
			return nil, fmt.Errorf("checkpoint: unexpected diff-tree line %q", head)
		}
		list = append(list, entryDiff{path: path, fromMode: parts[0], toMode: parts[1], fromBlob: parts[2], toBlob: parts[3]})
	}
	return list, nil
}

// readBlobs returns the content of each blob id (cat-file runs no filter).
func (s *shadow) readBlobs(ctx context.Context, ids []string, maxEach int64) (map[string][]byte, error) {
	out := map[string][]byte{}
	const group = 16
	for start := 0; start < len(ids); start += group {
		chunk := ids[start:min(start+group, len(ids))]
		in := strings.NewReader(strings.Join(chunk, "\n") + "\n")
		limit := int(int64(len(chunk))*(maxEach+128)) + 4096
		raw, err := s.git.RunWith(ctx, invocation(s, in, limit), append(hardening(), "cat-file", "--batch")...)
		if err != nil {
			return nil, err
		}
		if err := parseBatch([]byte(raw), out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parseBatch reads `git cat-file --batch` output into blobs.
func parseBatch(raw []byte, blobs map[string][]byte) error {
	for len(raw) > 0 {
		nl := bytes.IndexByte(raw, '\n')
		if nl < 0 {
			return fmt.Errorf("checkpoint: truncated cat-file header")
		}
		parts := strings.Fields(string(raw[:nl]))
		if len(parts) != 3 {
			return fmt.Errorf("checkpoint: cat-file: %q", raw[:nl])
		}
		size, err := strconv.Atoi(parts[2])
		if err != nil || nl+1+size+1 > len(raw) {
			return fmt.Errorf("checkpoint: truncated cat-file body for %s", parts[0])
		}
		blobs[parts[0]] = raw[nl+1 : nl+1+size]
		raw = raw[nl+1+size+1:]
	}
	return nil
}

// blobID is the git (SHA-1) blob id of what is at path now, as a snapshot
// would store it: a regular file's bytes or a link's target. ok is false
// when nothing (or a folder) is there.
func blobID(root *os.Root, path string) (id, mode string, ok bool, err error) {
	fi, err := root.Lstat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return "", modeNone, false, nil
		}
		return "", "", false, err
	}
	var data []byte
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := root.Readlink(path)
		if err != nil {
			return "", "", false, err
		}
		data, mode = []byte(target), modeLink
	case fi.Mode().IsRegular():
		if data, err = root.ReadFile(path); err != nil {
			return "", "", false, err
		}
		mode = modeFile
		if fi.Mode().Perm()&0o100 != 0 {
			mode = modeExec
		}
	default:
		return "", modeNone, false, nil
	}
	return blobOf(data), mode, true, nil
}

// landedBlob is blobID of a regular file whose bytes the agent's tool
// read back after writing it (nil: read them now): only its mode is looked
// up now, and id hashes those bytes when called. Those bytes, not what is
// there a moment later, are the agent's: an edit someone makes in between
// stays theirs.
func landedBlob(root *os.Root, path string, data []byte) (mode string, id func() string, ok bool, err error) {
	if data != nil {
		if fi, err := root.Lstat(path); err == nil && fi.Mode().IsRegular() {
			mode = modeFile
			if fi.Mode().Perm()&0o100 != 0 {
				mode = modeExec
			}
			return mode, func() string { return blobOf(data) }, true, nil
		}
	}
	// No bytes given, or no longer a file: what is there now.
	blob, mode, ok, err := blobID(root, path)
	return mode, func() string { return blob }, ok, err
}

// blobOf is the git (SHA-1) blob id of data.
func blobOf(data []byte) string { return objectID("blob", data) }

// objectHeader is what git puts before an object's body: "blob 12\x00".
func objectHeader(kind string, size int) []byte {
	return []byte(kind + " " + strconv.Itoa(size) + "\x00")
}

// objectID is the git (SHA-1) id of an object of kind with body: the hash
// of its header and body.
func objectID(kind string, body []byte) string {
	h := sha1.New()
	h.Write(objectHeader(kind, len(body)))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}
