package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
)

// TestOnlyShowableFilesAreTagged: a result with more files than any output
// can show tags exactly the first maxTaggedFiles (each with its file's
// digest), in both engines and every rg plan, and the text and tags the
// model gets are those of a fully tagged result.
func TestOnlyShowableFilesAreTagged(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range maxTaggedFiles + 30 {
		files[fmt.Sprintf("d%02d/f%04d.txt", i%7, i)] = fmt.Sprintf("needle %d\nplain\nneedle again\n", i)
	}
	files["d00/binary.txt"] = "needle\x00\n"
	writeTree(t, root, files)
	for _, mode := range []string{ModeCount, ModeFilesWithMatches, ModeContent} {
		t.Run(mode, func(t *testing.T) {
			res := grepBoth(t, GrepOptions{Root: root, Pattern: "needle", Mode: mode, HeadLimit: 1 << 30})
			if len(res.Files) != maxTaggedFiles+30 {
				t.Fatalf("%d files; want %d (the binary one dropped)", len(res.Files), maxTaggedFiles+30)
			}
			full := res
			full.Files = append([]GrepFile(nil), res.Files...)
			for i, f := range res.Files {
				data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
				if err != nil {
					t.Fatal(err)
				}
				d := hashline.DigestOf(data)
				switch {
				case i < maxTaggedFiles && (f.Tag != d.Tag() || f.Digest != d):
					t.Fatalf("file %d %s: tag %q; want %q", i, f.Path, f.Tag, d.Tag())
				case i >= maxTaggedFiles && f.Tag != "":
					t.Fatalf("file %d %s is past what an output shows but has tag %q", i, f.Path, f.Tag)
				}
				full.Files[i].Digest, full.Files[i].Tag = d, d.Tag()
			}
			id := func(s string) string { return s }
			text, tags, trunc, notice := FormatGrep(res, id)
			wText, wTags, wTrunc, wNotice := FormatGrep(full, id)
			if text != wText || trunc != wTrunc || notice != wNotice || fmt.Sprint(tags) != fmt.Sprint(wTags) {
				t.Fatalf("output differs from a fully tagged result's:\n%s\n---\n%s", tail(text), tail(wText))
			}
			if len(tags) == 0 || !strings.Contains(notice, "Output cut") {
				t.Fatalf("expected a cut output with tags; notice %q, %d tags", notice, len(tags))
			}
		})
	}
}

func tail(s string) string { return s[max(0, len(s)-300):] }
