package attachments

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"testing"

	"golang.org/x/image/webp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// gradient is a smooth test picture (compresses well, like a screenshot).
func gradient(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{uint8(x * 255 / max(w-1, 1)), uint8(y * 255 / max(h-1, 1)), 128, 255})
		}
	}
	return img
}

// noise does not compress: the size limit bites.
func noise(w, h int, seed uint64) *image.NRGBA {
	r := rand.New(rand.NewPCG(seed, seed))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.Uint32())
	}
	return img
}

func encPNG(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encJPEG(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encGIF(t testing.TB, frames int) []byte {
	pal := color.Palette{color.Black, color.White, color.NRGBA{255, 0, 0, 255}}
	a := &gif.GIF{}
	for i := 0; i < frames; i++ {
		p := image.NewPaletted(image.Rect(0, 0, 40, 20), pal)
		for x := 0; x < 40; x++ {
			p.SetColorIndex(x, 10, uint8(1+i%2))
		}
		a.Image = append(a.Image, p)
		a.Delay = append(a.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, a); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeaderOnly is a PNG signature and an IHDR chunk declaring w×h, with
// no pixel data: what a decompression bomb looks like to DecodeConfig.
func pngHeaderOnly(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func readFile(t testing.TB, name string) []byte {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestPrepareImage(t *testing.T) {
	smallPNG := encPNG(t, gradient(64, 48))
	smallJPEG := encJPEG(t, gradient(200, 100))
	webpLossy := readFile(t, "testdata/blue-purple-pink.lossy.webp")
	webpCfg, err := decodeWebPConfig(webpLossy)
	if err != nil {
		t.Fatal(err)
	}
	small := limits{edge: 200, bytes: MaxBytes, pixels: MaxPixels, input: MaxInputBytes}
	tests := []struct {
		name      string
		data      []byte
		lim       limits
		wantType  string
		wantW     int
		wantH     int
		sameBytes bool // kept as given
	}{
		{"small png kept", smallPNG, defaultLimits, PNG, 64, 48, true},
		{"small jpeg kept", smallJPEG, defaultLimits, JPEG, 200, 100, true},
		{"wide png downscaled to the long edge, aspect kept", encPNG(t, gradient(800, 255)), small, PNG, 200, 63, false},
		{"tall jpeg downscaled, stays jpeg", encJPEG(t, gradient(100, 800)), small, JPEG, 25, 200, false},
		{"png with a damaged colour profile chunk (the MCP reference server's)", readFile(t, "testdata/mcp-tiny-image.png"), defaultLimits, PNG, 0, 0, false},
		{"gif: first frame as png", encGIF(t, 3), defaultLimits, PNG, 40, 20, false},
		{"webp becomes jpeg", webpLossy, defaultLimits, JPEG, webpCfg.Width, webpCfg.Height, false},
		{"webp lossless", readFile(t, "testdata/gopher-doc.1bpp.lossless.webp"), defaultLimits, JPEG, 0, 0, false},
		{"png over the byte limit falls back to jpeg", encPNG(t, noise(200, 200, 1)), limits{edge: MaxEdge, bytes: 60 << 10, pixels: MaxPixels, input: MaxInputBytes}, JPEG, 200, 200, false},
		{"noise shrinks until it fits", encPNG(t, noise(300, 300, 2)), limits{edge: MaxEdge, bytes: 20 << 10, pixels: MaxPixels, input: MaxInputBytes}, JPEG, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := prepare(tt.data, tt.lim)
			if err != nil {
				t.Fatal(err)
			}
			if p.MediaType != tt.wantType {
				t.Errorf("type %s, want %s", p.MediaType, tt.wantType)
			}
			if tt.wantW > 0 && (p.Width != tt.wantW || p.Height != tt.wantH) {
				t.Errorf("size %d×%d, want %d×%d", p.Width, p.Height, tt.wantW, tt.wantH)
			}
			if len(p.Data) > tt.lim.bytes || p.Width > tt.lim.edge || p.Height > tt.lim.edge {
				t.Errorf("over the limits: %d bytes, %d×%d", len(p.Data), p.Width, p.Height)
			}
			if got := bytes.Equal(p.Data, tt.data); got != tt.sameBytes {
				t.Errorf("kept the given bytes = %v, want %v", got, tt.sameBytes)
			}
			// What is returned decodes as what it claims, at the size it claims.
			cfg, format, err := image.DecodeConfig(bytes.NewReader(p.Data))
			if err != nil || "image/"+format != p.MediaType || cfg.Width != p.Width || cfg.Height != p.Height {
				t.Errorf("output decodes as %s %d×%d (%v), claims %s %d×%d", format, cfg.Width, cfg.Height, err, p.MediaType, p.Width, p.Height)
			}
		})
	}
}

func TestPrepareImageRefuses(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		lim  limits
		want errs.Code
	}{
		{"empty", nil, defaultLimits, errs.ImageUnsupported},
		{"text", []byte("hello, I am not an image"), defaultLimits, errs.ImageUnsupported},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), defaultLimits, errs.ImageUnsupported},
		{"pdf", []byte("%PDF-1.7\n"), defaultLimits, errs.ImageUnsupported},
		{"bmp", append([]byte("BM"), make([]byte, 60)...), defaultLimits, errs.ImageUnsupported},
		{"truncated png", encPNG(t, gradient(64, 64))[:80], defaultLimits, errs.ImageUnsupported},
		{"zero-size png", pngHeaderOnly(0, 10), defaultLimits, errs.ImageUnsupported},
		{"bomb: 100k×100k declared", pngHeaderOnly(100_000, 100_000), defaultLimits, errs.ImageTooLarge},
		{"just over the megapixels", pngHeaderOnly(6_000, 5_501), defaultLimits, errs.ImageTooLarge},
		{"7000×7000: 720 MB as 16-bit RGBA", pngHeaderOnly(7_000, 7_000), defaultLimits, errs.ImageTooLarge},
		{"input too big", encPNG(t, gradient(10, 10)), limits{edge: MaxEdge, bytes: MaxBytes, pixels: MaxPixels, input: 50}, errs.ImageTooLarge},
		{"cannot fit", encPNG(t, noise(64, 64, 3)), limits{edge: MaxEdge, bytes: 100, pixels: MaxPixels, input: MaxInputBytes}, errs.ImageTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := prepare(tt.data, tt.lim)
			if !errs.Is(err, tt.want) {
				t.Fatalf("err = %v (got %d bytes), want %s", err, len(p.Data), tt.want)
			}
		})
	}
}

func TestPrepareImageIgnoresTheDeclaredType(t *testing.T) {
	// PrepareImage takes no declared type at all: JPEG bytes a tool called
	// image/png come out as JPEG.
	p, err := PrepareImage(encJPEG(t, gradient(30, 30)))
	if err != nil || p.MediaType != JPEG {
		t.Fatalf("%s %v", p.MediaType, err)
	}
}

func TestWithoutDamagedAncillary(t *testing.T) {
	tiny := readFile(t, "testdata/mcp-tiny-image.png")
	fixed := withoutDamagedAncillary(tiny)
	if len(fixed) != len(tiny)-(2736+12) || bytes.Contains(fixed, []byte("iCCP")) {
		t.Errorf("repaired %d bytes of %d; iCCP left: %v", len(fixed), len(tiny), bytes.Contains(fixed, []byte("iCCP")))
	}
	if _, err := png.Decode(bytes.NewReader(fixed)); err != nil {
		t.Errorf("still undecodable: %v", err)
	}
	good := encPNG(t, gradient(4, 4))
	if got := withoutDamagedAncillary(good); !bytes.Equal(got, good) {
		t.Error("an intact PNG was changed")
	}
	// A damaged critical chunk is left for the decoder to refuse.
	bad := bytes.Clone(good)
	bad[len(pngSignature)+8+13] ^= 0xff // IHDR's checksum
	if got := withoutDamagedAncillary(bad); !bytes.Equal(got, bad) {
		t.Error("a critical chunk was dropped")
	}
	if _, err := prepare(bad, defaultLimits); !errs.Is(err, errs.ImageUnsupported) {
		t.Errorf("damaged IHDR: %v", err)
	}
}

func TestFitEdge(t *testing.T) {
	for _, tt := range []struct{ w, h, edge, ww, wh int }{
		{100, 50, 1568, 100, 50},
		{1568, 1568, 1568, 1568, 1568},
		{3000, 3000, 1568, 1568, 1568},
		{4000, 1, 1568, 1568, 1}, // never 0
		{1, 4000, 1568, 1, 1568},
		{1920, 1080, 1568, 1568, 882},
	} {
		if w, h := fitEdge(tt.w, tt.h, tt.edge); w != tt.ww || h != tt.wh {
			t.Errorf("fitEdge(%d, %d) = %d×%d, want %d×%d", tt.w, tt.h, w, h, tt.ww, tt.wh)
		}
	}
}

func FuzzPrepareImage(f *testing.F) {
	f.Add(encPNG(f, gradient(8, 8)))
	f.Add(encJPEG(f, gradient(8, 8)))
	f.Add(encGIF(f, 2))
	f.Add(readFile(f, "testdata/gopher-doc.1bpp.lossless.webp"))
	f.Add(pngHeaderOnly(100_000, 100_000))
	f.Add(readFile(f, "testdata/mcp-tiny-image.png"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	lim := limits{edge: 64, bytes: 16 << 10, pixels: 1 << 20, input: 1 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := prepare(data, lim)
		if err != nil {
			if c := errs.CodeOf(err); c != errs.ImageUnsupported && c != errs.ImageTooLarge {
				t.Fatalf("unexpected code %s: %v", c, err)
			}
			return
		}
		if len(p.Data) == 0 || len(p.Data) > lim.bytes || p.Width < 1 || p.Height < 1 || p.Width > lim.edge || p.Height > lim.edge {
			t.Fatalf("out of limits: %d bytes %d×%d", len(p.Data), p.Width, p.Height)
		}
		if p.MediaType != PNG && p.MediaType != JPEG {
			t.Fatalf("media type %s", p.MediaType)
		}
	})
}

func decodeWebPConfig(b []byte) (image.Config, error) { return webp.DecodeConfig(bytes.NewReader(b)) }
