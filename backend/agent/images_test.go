package agent

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// imageHost is the fake host with an image store.
type imageHost struct {
	*fakeHost
	images map[string][]byte
}

func (h imageHost) LoadImage(_ context.Context, sha string) ([]byte, error) {
	if data, ok := h.images[sha]; ok {
		return data, nil
	}
	return nil, errs.New(errs.AttachmentNotFound, "attachment %s is not in the attachments folder", sha)
}

var (
	shotRef = tools.ImageRef{SHA256: strings.Repeat("a", 64), MediaType: "image/png", Width: 640, Height: 480, Bytes: 9}
	goneRef = tools.ImageRef{SHA256: strings.Repeat("b", 64), MediaType: "image/jpeg", Width: 100, Height: 50, Bytes: 7}
)

func imageFixture(t *testing.T, steps ...step) *fixture {
	f := newFixture(t, steps...)
	ih := imageHost{fakeHost: f.host, images: map[string][]byte{shotRef.SHA256: []byte("PNG bytes")}}
	now := f.a.now
	f.a = New(f.db, ih, func(string) (provider.Provider, error) { return f.prov, nil }, f.rec.emit, now)
	f.host.behave = func(ctx context.Context, call ToolCall) tools.Result {
		return tools.Result{OK: true, Content: "two screenshots", Images: []tools.ImageRef{shotRef, goneRef}}
	}
	return f
}

// A tool result's images reach a model that accepts images as bytes (one
// that cannot be read is a note), and, when the session's model changes to
// one without images, the next request built from the stored transcript
// carries notes and no bytes: decided per request, never when recorded.
func TestToolResultImagesPerRequest(t *testing.T) {
	f := imageFixture(t,
		callTools(provider.StopToolUse, use{"tu1", "Shot", `{}`}),
		say("I see a window."),
		say("Noted."),
	)
	f.prov.info.SupportsImages = true
	if _, err := f.run("take a screenshot"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	res := lastResults(t, reqs[1])
	if len(res) != 1 || len(res[0].Images) != 1 || !bytes.Equal(res[0].Images[0].Data, []byte("PNG bytes")) || res[0].Images[0].MediaType != "image/png" {
		t.Fatalf("with images: %+v", res)
	}
	if len(res[0].ImageRefs) != 0 {
		t.Error("references left in the request")
	}
	withImagesText := res[0].Text

	f.prov.info.SupportsImages = false
	if _, err := f.run("and now?"); err != nil {
		t.Fatal(err)
	}
	reqs = f.prov.requests()
	var without provider.Block
	for _, m := range reqs[2].Messages {
		for _, b := range m.Content {
			if b.Type == provider.BlockToolResult && b.ToolUseID == "tu1" {
				without = b
			}
		}
	}
	if len(without.Images) != 0 || without.Text == "" {
		t.Fatalf("without images: %+v", without)
	}
	golden.Assert(t, filepath.Join("testdata", "image_notes.golden"),
		"model accepts images:\n"+withImagesText+"\n\nmodel cannot see images:\n"+without.Text+"\n")
	// The stored transcript keeps the references, not the bytes.
	tr := f.load()
	var rec ToolCallRecord
	for _, m := range tr.Messages {
		for _, c := range m.ToolCalls {
			rec = c
		}
	}
	if len(rec.images) != 2 || rec.images[0] != shotRef || bytes.Contains(rec.Result, []byte("PNG bytes")) {
		t.Errorf("stored call: images %+v, result %s", rec.images, rec.Result)
	}
}

func TestWithImagesLeavesTheContextAlone(t *testing.T) {
	msgs := []provider.Message{
		{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "hi"}}},
		{Role: provider.RoleUser, Content: []provider.Block{toolResult("tu", "out", false, []tools.ImageRef{shotRef})}},
	}
	h := imageHost{images: map[string][]byte{shotRef.SHA256: []byte("x")}}
	for _, supports := range []bool{true, false} {
		out := withImages(t.Context(), msgs, supports, h)
		if len(msgs[1].Content[0].ImageRefs) != 1 || msgs[1].Content[0].Text != "out" || msgs[1].Content[0].Images != nil {
			t.Fatalf("supports=%v: the context itself was changed: %+v", supports, msgs[1])
		}
		if got := len(out[1].Content[0].Images); got != map[bool]int{true: 1, false: 0}[supports] {
			t.Errorf("supports=%v: %d images", supports, got)
		}
		if &out[0].Content[0] != &msgs[0].Content[0] {
			t.Error("a message without images was copied")
		}
	}
	if out := withImages(t.Context(), msgs[:1], true, h); &out[0] != &msgs[0] {
		t.Error("a context without images was copied")
	}
	// No image store at all: a note, never bytes, never a failure.
	out := withImages(t.Context(), msgs, true, nil)
	if b := out[1].Content[0]; len(b.Images) != 0 || !strings.Contains(b.Text, "could not be loaded (ATTACHMENT_NOT_FOUND") {
		t.Errorf("no loader: %+v", b)
	}
}

// imageConversation is n tool results of one image each, sized by size(i).
func imageConversation(h imageHost, n int, size func(i int) int) []provider.Message {
	var msgs []provider.Message
	for i := range n {
		sha := fmt.Sprintf("%064x", i)
		h.images[sha] = []byte{byte(i)}
		ref := tools.ImageRef{SHA256: sha, MediaType: "image/png", Width: 10, Height: 10, Bytes: size(i)}
		msgs = append(msgs, provider.Message{Role: provider.RoleUser, Content: []provider.Block{toolResult(fmt.Sprint(i), "r", false, []tools.ImageRef{ref})}})
	}
	return msgs
}

// sentImages lists the messages whose first block sends an image and
// how many notes say the count or the size left one out.
func sentImages(out []provider.Message) (sent []int, byCount, bySize int) {
	for i, m := range out {
		b := m.Content[0]
		if len(b.Images) > 0 {
			sent = append(sent, i)
		}
		byCount += strings.Count(b.Text, "left out of this request: the limit of 20 images per request")
		bySize += strings.Count(b.Text, "left out of this request: the limit of 16 MB of images per request")
	}
	return sent, byCount, bySize
}

// A long session's images: the newest go as bytes, within the request's
// count and size bounds, the oldest are left out in steps (10 images,
// 8 MB) and a line says which limit applied; the conversation stays as it
// was.
func TestRequestImageBudget(t *testing.T) {
	h := imageHost{images: map[string][]byte{}}
	small := func(int) int { return 1000 }
	for _, tt := range []struct {
		n               int
		size            func(int) int
		first, sent     int // the first message sending its image, how many do
		byCount, bySize int
	}{
		{20, small, 0, 20, 0, 0},
		{21, small, 10, 11, 10, 0}, // one over: the first step of 10 goes
		{30, small, 10, 20, 10, 0},
		{31, small, 20, 11, 20, 0},
		// 3 MB each: 6 images are 18 MB, 2 MB over: a step of 8 MB, three images.
		{5, func(int) int { return 3 << 20 }, 0, 5, 0, 0},
		{6, func(int) int { return 3 << 20 }, 3, 3, 0, 3},
		{8, func(int) int { return 3 << 20 }, 3, 5, 0, 3},
		{9, func(int) int { return 3 << 20 }, 6, 3, 0, 6},
		// Both: 25 images of 1 MB are 10 over the count (10 go) and 9 MB
		// over the size (16 MB, 16 images, go): the first 10 name the count.
		{25, func(int) int { return 1 << 20 }, 16, 9, 10, 6},
	} {
		msgs := imageConversation(h, tt.n, tt.size)
		sent, byCount, bySize := sentImages(withImages(t.Context(), msgs, true, h))
		if len(sent) != tt.sent || (len(sent) > 0 && sent[0] != tt.first) || byCount != tt.byCount || bySize != tt.bySize {
			t.Errorf("%d images: sent %v, %d left out by count, %d by size; want %d from %d, %d, %d",
				tt.n, sent, byCount, bySize, tt.sent, tt.first, tt.byCount, tt.bySize)
		}
		total := 0
		for _, i := range sent {
			total += tt.size(i)
		}
		if len(sent) > maxRequestImages || total > maxRequestImageBytes {
			t.Errorf("%d images: %d sent, %d bytes: over the limits", tt.n, len(sent), total)
		}
	}
	// Within a result the earlier image is the older: a cut inside it
	// leaves the first out and sends the later one.
	msgs := imageConversation(h, 25, small)
	msgs = append(msgs, provider.Message{Role: provider.RoleUser, Content: []provider.Block{
		toolResult("big", "r", false, []tools.ImageRef{
			{SHA256: fmt.Sprintf("%064x", 100), MediaType: "image/png", Width: 10, Height: 10, Bytes: maxRequestImageBytes - 5000},
			{SHA256: fmt.Sprintf("%064x", 101), MediaType: "image/png", Width: 10, Height: 10, Bytes: 10_000}})}})
	h.images[fmt.Sprintf("%064x", 101)] = []byte{101}
	out := withImages(t.Context(), msgs, true, h)
	if last := out[len(out)-1].Content[0]; len(last.Images) != 1 || last.Images[0].Data[0] != 101 {
		t.Errorf("the big result sent %d images", len(last.Images))
	}
	golden.Assert(t, filepath.Join("testdata", "image_omitted_notes.golden"),
		out[0].Content[0].Text+"\n"+out[len(out)-1].Content[0].Text+"\n")
}

// Two consecutive requests, one new image between them, send their
// earlier blocks byte for byte alike, except when the new image crosses a
// step of the count or the size: the provider's cached prefix survives.
func TestRequestImageBudgetKeepsThePrefix(t *testing.T) {
	h := imageHost{images: map[string][]byte{}}
	for _, tt := range []struct {
		name    string
		size    func(int) int
		n       int
		changes int
	}{
		{"count", func(int) int { return 1000 }, 60, 4}, // at 21, 31, 41, 51 images
		// 1.5 MB each: over 16 MB from the 11th, then a step of 8 MB every
		// 5 or 6 images (at 11, 17, 22, 27, 33, 38); the count's steps (21,
		// 31) rename the limit of the images both cut.
		{"size", func(int) int { return 3 << 19 }, 40, 8},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msgs := imageConversation(h, tt.n, tt.size)
			prev := withImages(t.Context(), msgs[:1], true, h)
			changes := 0
			for n := 2; n <= tt.n; n++ {
				next := withImages(t.Context(), msgs[:n], true, h)
				if !reflect.DeepEqual(prev, next[:n-1]) {
					changes++
				}
				prev = next
			}
			if changes != tt.changes {
				t.Errorf("the earlier blocks changed in %d of %d requests, want %d", changes, tt.n-1, tt.changes)
			}
		})
	}
}

// Images count in the context estimate: their tokens for a model that
// sees them (width×height/750, at most 1,600), their note otherwise.
func TestImagesInTheContextEstimate(t *testing.T) {
	big := provider.ImageRef{Width: 1568, Height: 1568}
	for _, tt := range []struct {
		ref  provider.ImageRef
		want int
	}{
		{provider.ImageRef{Width: 640, Height: 480}, 409},
		{big, maxImageTokens},
		{provider.ImageRef{Width: 1, Height: 1}, 1},
	} {
		if got := imageTokens(tt.ref); got != tt.want {
			t.Errorf("imageTokens(%d×%d) = %d, want %d", tt.ref.Width, tt.ref.Height, got, tt.want)
		}
	}
	r := &run{model: provider.ModelInfo{SupportsImages: true}}
	plain := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{toolResult("tu", "out", false, nil)}}}
	with := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{toolResult("tu", "out", false, []tools.ImageRef{{Width: 1568, Height: 1568}})}}}
	if d := r.contextChars(with) - r.contextChars(plain); d != maxImageTokens*charsPerToken {
		t.Errorf("an image adds %d characters, want %d", d, maxImageTokens*charsPerToken)
	}
	r.model.SupportsImages = false
	if d := r.contextChars(with) - r.contextChars(plain); d != len(imageNote(big))+1 {
		t.Errorf("a note adds %d characters, want %d", d, len(imageNote(big))+1)
	}
}

// The summary keeps a result's text and says its image is not kept.
func TestCompactionSummaryNamesImages(t *testing.T) {
	msgs := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{toolResult("tu", "two screenshots", false, []tools.ImageRef{shotRef})}}}
	got := renderForSummary(msgs, 10_000)
	if !strings.Contains(got, "two screenshots\n[with an image image/png 640×480, not kept after this summary]\n") {
		t.Errorf("summary input = %q", got)
	}
}
