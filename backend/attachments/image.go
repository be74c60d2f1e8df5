package attachments

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Image media types the store prepares and providers accept.
const (
	PNG  = "image/png"
	JPEG = "image/jpeg"
	GIF  = "image/gif"
	WebP = "image/webp"
)

// Limits an image is brought within. The defaults follow Anthropic's
// guidance, the strictest of the providers: a long edge of at most 1568 px
// (larger is downscaled by the API anyway, at full token cost) and 5 MB of
// base64 per image, which is 3.75 MB of bytes.
const (
	MaxEdge  = 1568
	MaxBytes = 5 << 20 * 3 / 4
	// MaxPixels is the declared size above which an image is refused
	// undecoded: a 16-bit RGBA PNG costs 8 bytes a pixel, so 33 MP is about
	// 270 MB while decoding (50 MP let a 7000×7000 one take 720 MB).
	MaxPixels = 33_000_000
	// MaxInputBytes bounds what PrepareImage reads at all.
	MaxInputBytes = 32 << 20
	jpegQuality   = 85
)

// Prepared is an image ready to store and send: re-encoded where needed,
// within MaxEdge and MaxBytes.
type Prepared struct {
	Data      []byte
	MediaType string // PNG or JPEG
	Width     int
	Height    int
}

type limits struct {
	edge, bytes, pixels, input int
}

var defaultLimits = limits{edge: MaxEdge, bytes: MaxBytes, pixels: MaxPixels, input: MaxInputBytes}

// PrepareImage checks what data really is (the declared media type is
// never trusted), refuses anything but PNG, JPEG, GIF and WebP
// (IMAGE_UNSUPPORTED) and images whose declared size is absurd or that
// cannot be brought under MaxBytes (IMAGE_TOO_LARGE), and downscales,
// keeping the aspect ratio, until the long edge is at most MaxEdge. A PNG
// or JPEG already within the limits keeps its bytes; a GIF (its first
// frame) becomes PNG, a WebP JPEG, and a PNG that stays too big JPEG.
func PrepareImage(data []byte) (Prepared, error) {
	return prepare(data, defaultLimits)
}

func prepare(data []byte, lim limits) (Prepared, error) {
	if len(data) > lim.input {
		return Prepared{}, errs.New(errs.ImageTooLarge, "the image is %d MB, above the %d MB PI-Desktop reads; save a smaller version (a screenshot of the part that matters) and use that", len(data)>>20, lim.input>>20)
	}
	kind := http.DetectContentType(data)
	if kind == PNG {
		data = withoutDamagedAncillary(data)
	}
	var decodeConfig func([]byte) (image.Config, error)
	var decode func([]byte) (image.Image, error)
	switch kind {
	case PNG:
		decodeConfig = func(b []byte) (image.Config, error) { return png.DecodeConfig(bytes.NewReader(b)) }
		decode = func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }
	case JPEG:
		decodeConfig = func(b []byte) (image.Config, error) { return jpeg.DecodeConfig(bytes.NewReader(b)) }
		decode = func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) }
	case GIF:
		decodeConfig = func(b []byte) (image.Config, error) { return gif.DecodeConfig(bytes.NewReader(b)) }
		decode = func(b []byte) (image.Image, error) { return gif.Decode(bytes.NewReader(b)) } // the first frame
	case WebP:
		decodeConfig = func(b []byte) (image.Config, error) { return webp.DecodeConfig(bytes.NewReader(b)) }
		decode = func(b []byte) (image.Image, error) { return webp.Decode(bytes.NewReader(b)) }
	default:
		return Prepared{}, errs.New(errs.ImageUnsupported, "the data is %s, not a PNG, JPEG, GIF or WebP image; convert it to PNG or JPEG and try again", kind).With("detected", kind)
	}
	// The header first: an image that would take gigabytes to decode is
	// refused before a single pixel is.
	cfg, err := decodeConfig(data)
	if err != nil {
		return Prepared{}, unreadable(kind, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Prepared{}, errs.New(errs.ImageUnsupported, "the %s image declares no pixels (%d×%d); save it again with an image editor and retry", kind, cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > int64(lim.pixels) {
		return Prepared{}, errs.New(errs.ImageTooLarge, "the image declares %d×%d pixels, more than the %d megapixels PI-Desktop decodes; crop or scale it down first", cfg.Width, cfg.Height, lim.pixels/1_000_000).
			With("width", cfg.Width).With("height", cfg.Height)
	}
	img, err := decode(data)
	if err != nil {
		return Prepared{}, unreadable(kind, err)
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return Prepared{}, errs.New(errs.ImageUnsupported, "the %s image has no pixels; save it again with an image editor and retry", kind)
	}
	fits := w <= lim.edge && h <= lim.edge
	if fits && len(data) <= lim.bytes && (kind == PNG || kind == JPEG) {
		return Prepared{Data: data, MediaType: kind, Width: w, Height: h}, nil
	}
	w, h = fitEdge(w, h, lim.edge)
	// Screenshots and drawings stay lossless; photos go to JPEG.
	lossless := kind == PNG || kind == GIF
	for attempt := 0; attempt < 8; attempt++ {
		scaled := scale(img, w, h)
		if lossless {
			if out, err := encodePNG(scaled); err == nil && len(out) <= lim.bytes {
				return Prepared{Data: out, MediaType: PNG, Width: w, Height: h}, nil
			}
		}
		if out, err := encodeJPEG(scaled); err == nil && len(out) <= lim.bytes {
			return Prepared{Data: out, MediaType: JPEG, Width: w, Height: h}, nil
		}
		// Still too big: three quarters of the size, and again.
		if w == 1 && h == 1 {
			break
		}
		w, h = max(w*3/4, 1), max(h*3/4, 1)
	}
	return Prepared{}, errs.New(errs.ImageTooLarge, "the image could not be brought under %d KB even scaled down; save a smaller or simpler version and use that", lim.bytes>>10)
}

func unreadable(kind string, err error) error {
	return errs.Wrap(err, errs.ImageUnsupported, "the %s image cannot be decoded (%v); it may be damaged: save it again with an image editor and retry", kind, err)
}

// fitEdge scales w×h down, keeping the aspect ratio, so neither side
// exceeds edge; an image already within it is unchanged.
func fitEdge(w, h, edge int) (int, int) {
	if w <= edge && h <= edge {
		return w, h
	}
	if w >= h {
		return edge, max(int(int64(h)*int64(edge)/int64(w)), 1)
	}
	return max(int(int64(w)*int64(edge)/int64(h)), 1), edge
}

// scale resamples img to w×h with Catmull-Rom (sharp text in screenshots
// survives better than with bilinear).
func scale(img image.Image, w, h int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	b := img.Bounds()
	if b.Dx() == w && b.Dy() == h {
		draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
		return dst
	}
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encodeJPEG flattens transparency onto white (JPEG has no alpha; black,
// the encoder's default, would hide dark text).
func encodeJPEG(img *image.NRGBA) ([]byte, error) {
	flat := image.NewRGBA(img.Bounds())
	draw.Draw(flat, flat.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(flat, flat.Bounds(), img, img.Bounds().Min, draw.Over)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, flat, &jpeg.Options{Quality: jpegQuality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
