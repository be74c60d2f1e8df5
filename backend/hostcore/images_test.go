package hostcore_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// pngOf is a real w×h PNG whose pixels depend on seed (distinct bytes).
func pngOf(t testing.TB, w, h int, seed uint8) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = seed + uint8(i)
	}
	img.Set(0, 0, color.NRGBA{seed, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pictures is a tool that answers with the raw images it was given.
type pictures struct {
	raw     []tools.RawImage
	content string
}

func (p pictures) Spec() tools.Spec {
	return tools.Spec{Name: "Pictures", Class: permission.ClassRead, Risk: permission.Low, Timeout: time.Minute,
		Schema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
}

func (p pictures) Run(context.Context, *tools.Call) tools.Result {
	content := p.content
	if content == "" {
		content = "here they are"
	}
	return tools.Result{OK: true, Content: content, RawImages: p.raw}
}

// Raw images become stored references in Execute: at most 8 per result,
// a broken one a note, never a failed call; the bytes stay out of the
// result's JSON (which the database and the UI event carry).
func TestExecuteStoresImagesAsReferences(t *testing.T) {
	var raw []tools.RawImage
	raw = append(raw, tools.RawImage{MediaType: "image/png", Data: []byte("not a picture at all")})
	big := pngOf(t, 1600, 40, 7)
	raw = append(raw, tools.RawImage{MediaType: "image/png", Data: big})
	for i := range 9 {
		raw = append(raw, tools.RawImage{MediaType: "image/jpeg", Data: pngOf(t, 10+i, 5, uint8(i))}) // declared wrongly
	}
	e := newEnv(t, pictures{raw: raw})
	res := e.call(e.session.ID, "Pictures", map[string]any{})
	if !res.OK {
		t.Fatalf("the call failed: %+v", res)
	}
	if len(res.RawImages) != 0 {
		t.Error("raw bytes left in the result")
	}
	if len(res.Images) != 8 {
		t.Fatalf("%d images kept, want 8", len(res.Images))
	}
	first := res.Images[0]
	if first.Width != 1568 || first.Height != 39 || first.MediaType != "image/png" {
		t.Errorf("the big picture = %+v, want 1568×39 PNG", first)
	}
	if res.Images[1].MediaType != "image/png" || res.Images[1].Width != 10 {
		t.Errorf("a PNG declared as JPEG = %+v", res.Images[1])
	}
	wantNotes := []string{
		"here they are\n[image 1 (image/png, 20 bytes) not kept: IMAGE_UNSUPPORTED ",
		"\n[2 more image(s) were not examined: at most 8 images are kept and 12 examined per tool result]",
	}
	for _, w := range wantNotes {
		if !strings.Contains(res.Content, w) {
			t.Errorf("content %q lacks %q", res.Content, w)
		}
	}
	dir := filepath.Join(filepath.Dir(e.project), "data", "attachments")
	for _, ref := range res.Images {
		data, err := os.ReadFile(filepath.Join(dir, ref.SHA256))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != ref.SHA256 || len(data) != ref.Bytes {
			t.Errorf("stored file does not match its reference %+v", ref)
		}
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 4096 || !strings.Contains(string(out), `"images":[{"sha256":"`) {
		t.Errorf("result JSON (%d bytes) should carry references only: %.300s", len(out), out)
	}
}

// A result with thousands of images that cannot be kept, each declaring
// a long media type, after text already near the bound: a few notes and a
// summary line, and the whole stays within the result bound.
func TestExecuteBoundsImageNotes(t *testing.T) {
	raw := make([]tools.RawImage, 2000)
	for i := range raw {
		raw[i] = tools.RawImage{MediaType: "image/" + strings.Repeat("x", 1000), Data: []byte("not a picture")}
	}
	line := strings.Repeat("t", 99) + "\n"
	text := strings.Repeat(line, (tools.ResultMaxBytes-100)/len(line))
	e := newEnv(t, pictures{raw: raw, content: text})
	res := e.call(e.session.ID, "Pictures", map[string]any{})
	if !res.OK {
		t.Fatalf("the call failed: %+v", res)
	}
	if len(res.Content) > tools.ResultMaxBytes || strings.Count(res.Content, "\n") >= tools.ResultMaxLines {
		t.Fatalf("content is %d bytes, %d lines: over the bound", len(res.Content), strings.Count(res.Content, "\n"))
	}
	if n := strings.Count(res.Content, "not kept: IMAGE_UNSUPPORTED"); n != 3 {
		t.Errorf("%d notes of their own, want 3", n)
	}
	for _, w := range []string{
		"[image 1 (image/" + strings.Repeat("x", 34) + "…, 13 bytes) not kept: IMAGE_UNSUPPORTED ",
		"\n[9 more image(s) could not be kept either]\n[1988 more image(s) were not examined: at most 8 images are kept and 12 examined per tool result]",
		"[truncated: kept the first ",
	} {
		if !strings.Contains(res.Content, w) {
			t.Errorf("content lacks %q; its end: %q", w, res.Content[max(len(res.Content)-800, 0):])
		}
	}
	if !strings.HasPrefix(res.Content, line) || !res.Truncated {
		t.Errorf("the tool's text should come first, cut and marked (truncated=%v)", res.Truncated)
	}
}
