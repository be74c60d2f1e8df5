package agent

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
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

// A long session's images: the newest go as bytes, within the request's
// count and size bounds; older ones become a line, the conversation stays
// as it was.
func TestRequestImageBudget(t *testing.T) {
	h := imageHost{images: map[string][]byte{}}
	ref := func(i, size int) tools.ImageRef {
		sha := fmt.Sprintf("%064x", i)
		h.images[sha] = []byte{byte(i)}
		return tools.ImageRef{SHA256: sha, MediaType: "image/png", Width: 10, Height: 10, Bytes: size}
	}
	var msgs []provider.Message
	for i := range 25 {
		msgs = append(msgs, provider.Message{Role: provider.RoleUser, Content: []provider.Block{toolResult(fmt.Sprint(i), "r", false, []tools.ImageRef{ref(i, 1000)})}})
	}
	count := func(out []provider.Message) (sent []int, omitted int) {
		for i, m := range out {
			b := m.Content[0]
			if len(b.Images) > 0 {
				sent = append(sent, i)
			}
			omitted += strings.Count(b.Text, "left out of this request: only the newest 20 images are sent")
		}
		return sent, omitted
	}
	// The count bound: the newest 20 go.
	sent, omitted := count(withImages(t.Context(), msgs, true, h))
	if len(sent) != maxRequestImages || sent[0] != 5 || omitted != 5 {
		t.Errorf("count bound: sent %v, omitted %d", sent, omitted)
	}
	// The byte bound: a newest result of two images whose first nearly
	// fills it sends that one, not the second, then only as many older
	// small ones as still fit.
	msgs = append(msgs, provider.Message{Role: provider.RoleUser, Content: []provider.Block{
		toolResult("big", "r", false, []tools.ImageRef{ref(100, maxRequestImageBytes-5000), ref(101, 10_000)})}})
	out := withImages(t.Context(), msgs, true, h)
	sent, omitted = count(out)
	if last := out[len(out)-1].Content[0]; len(last.Images) != 1 || last.Images[0].Data[0] != 100 {
		t.Errorf("the big result sent %d images", len(last.Images))
	}
	if len(sent) != 6 || sent[0] != 20 || omitted != 21 {
		t.Errorf("byte bound: sent %v, omitted %d", sent, omitted)
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
