package hostcore

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func imageCore(t *testing.T) *Core {
	return &Core{log: slog.New(slog.NewTextHandler(io.Discard, nil)), attachments: attachments.New(t.TempDir()),
		imageSlots: make(chan struct{}, maxImagePreparations)}
}

func tinyPNGOf(t *testing.T, w int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, 1))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A Stop during preparation ends it before the next image: nothing more
// is decoded, and the result says how many were not examined.
func TestStoreImagesStopsBetweenImages(t *testing.T) {
	c := imageCore(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res := c.storeImages(ctx, tools.Result{OK: true, Content: "shots", RawImages: []tools.RawImage{{Data: tinyPNGOf(t, 1)}, {Data: tinyPNGOf(t, 2)}}})
	if len(res.Images) != 0 || res.Content != "shots\n[2 more image(s) were not examined: the call was stopped]" {
		t.Errorf("stopped: %d images, %q", len(res.Images), res.Content)
	}
}

// At most maxImagePreparations decodes run at once: with every slot held
// a preparation waits, and goes on once one is free; a Stop while it
// waits ends it.
func TestStoreImagesWaitsForASlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := imageCore(t)
		for range maxImagePreparations {
			c.imageSlots <- struct{}{}
		}
		raw := []tools.RawImage{{Data: tinyPNGOf(t, 3)}}
		done := make(chan tools.Result, 1)
		go func() { done <- c.storeImages(t.Context(), tools.Result{OK: true, RawImages: raw}) }()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("an image was prepared with every slot taken")
		default:
		}
		<-c.imageSlots
		synctest.Wait()
		if res := <-done; len(res.Images) != 1 {
			t.Fatalf("after a slot was freed: %+v", res)
		}

		c.imageSlots <- struct{}{} // all taken again
		ctx, cancel := context.WithCancel(t.Context())
		go func() { done <- c.storeImages(ctx, tools.Result{OK: true, RawImages: raw}) }()
		synctest.Wait()
		cancel()
		res := <-done
		if len(res.Images) != 0 || !strings.Contains(res.Content, "TOOL_ABORTED") {
			t.Errorf("stopped while waiting: %+v", res)
		}
	})
}
