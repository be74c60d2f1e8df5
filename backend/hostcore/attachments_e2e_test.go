package hostcore_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// widePNG is a 2000×200 picture: above the 1568 px edge, so the copy the
// model gets is downscaled.
func widePNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 2000, 200))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(i), uint8(i>>9), 90, 255
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type attachEnv struct {
	core    *hostcore.Core
	data    string
	session api.Session
}

// newAttachEnv is a core whose default provider is srv speaking proto for
// model, with images switched by images (nil: the model's default), and
// a session: of a project, or temporary.
func newAttachEnv(t *testing.T, srv *providertest.Server, proto, model string, images *bool, temporary bool) attachEnv {
	t.Helper()
	root := t.TempDir()
	data := filepath.Join(root, "data")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: data, Sink: &events{cards: cards{reqs: make(chan permission.Request, 8)}},
		RgPath: "-", Keychain: providertest.NewKeychain()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	cfg := srv.Config()
	if _, err := core.SaveProvider(t.Context(), providers.Profile{Name: "p", API: proto, BaseURL: cfg.BaseURL, Model: model,
		SupportsImages: images, IsDefault: true}, cfg.APIKey); err != nil {
		t.Fatal(err)
	}
	in := api.CreateSessionInput{}
	if !temporary {
		proj := filepath.Join(root, "proj")
		if err := os.MkdirAll(proj, 0o755); err != nil {
			t.Fatal(err)
		}
		p, err := core.AddProject(t.Context(), proj)
		if err != nil {
			t.Fatal(err)
		}
		in.ProjectID = p.ID
	}
	s, err := core.CreateSession(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	return attachEnv{core: core, data: data, session: s}
}

// sendAndWait sends a prompt with attachments the way the composer does
// and waits for the turn to end.
func (e attachEnv) sendAndWait(t *testing.T, srv *providertest.Server, prompt string, atts []api.Attachment) {
	t.Helper()
	if err := e.core.StartTurnWith(t.Context(), e.session.ID, prompt, api.PromptOptions{Attachments: atts}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); srv.Count() < 1 || e.core.TurnRunningForTest(e.session.ID); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the turn did not finish")
		}
	}
}

// A pasted image and a dropped file reach the model: the image as an
// image block (downscaled) for a model that accepts images, as its @ path
// with a note for one that does not; the file as its @ path. The database
// holds references only, and the reloaded transcript shows them.
func TestAttachmentsReachTheModel(t *testing.T) {
	off := false
	for _, tc := range []struct {
		name, proto, model string
		images             *bool
		temporary          bool
		imageBlock         func(b64 string) string // "" when no image may be sent
	}{
		{"anthropic claude", provider.APIAnthropic, "claude-sonnet-4-5", nil, false,
			func(b64 string) string {
				return `{"source":{"data":"` + b64 + `","media_type":"image/png","type":"base64"}`
			}},
		{"openai gpt-4o in a temporary session", provider.APIOpenAI, "gpt-4o", nil, true,
			func(b64 string) string { return `"url":"data:image/png;base64,` + b64 + `"` }},
		{"anthropic with images off", provider.APIAnthropic, "claude-sonnet-4-5", &off, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srv *providertest.Server
			if tc.proto == provider.APIAnthropic {
				srv = providertest.NewAnthropicServer(t, providertest.Turn{Text: "I see it."})
			} else {
				srv = providertest.NewOpenAIServer(t, providertest.Turn{Text: "I see it."})
			}
			e := newAttachEnv(t, srv, tc.proto, tc.model, tc.images, tc.temporary)
			original := widePNG(t)
			shot, err := e.core.AttachData(t.Context(), e.session.ID, "image.png", original, api.AttachmentBudget{})
			if err != nil {
				t.Fatal(err)
			}
			notes := filepath.Join(t.TempDir(), "my notes.txt")
			if err := os.WriteFile(notes, []byte("remember the milk\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			dropped, err := e.core.AttachFiles(t.Context(), e.session.ID, []string{notes}, api.AttachmentBudget{Count: 1, Bytes: shot.Size})
			if err != nil {
				t.Fatal(err)
			}
			wantDir := filepath.Join(e.data, "scratch", e.session.ID, "pasted")
			if filepath.Dir(shot.Path) != wantDir || filepath.Dir(dropped[0].Path) != wantDir {
				t.Fatalf("copies at %s and %s, want in %s", shot.Path, dropped[0].Path, wantDir)
			}
			e.sendAndWait(t, srv, "what is in these?", []api.Attachment{shot, dropped[0]})

			prepared, err := attachments.New(e.core.AttachmentsDir()).Read(shot.SHA256)
			if err != nil {
				t.Fatal(err)
			}
			if cfg, err := png.DecodeConfig(bytes.NewReader(prepared)); err != nil || cfg.Width != attachments.MaxEdge {
				t.Fatalf("the stored image is %d wide (%v), want downscaled to %d", cfg.Width, err, attachments.MaxEdge)
			}
			b64 := base64.StdEncoding.EncodeToString(prepared)
			body := string(srv.Requests()[0].Body)
			for _, want := range []string{"what is in these?", "@" + shot.Path, `@\"` + dropped[0].Path + `\"`} {
				if !strings.Contains(body, want) {
					t.Errorf("the request lacks %s:\n%.3000s", want, body)
				}
			}
			if tc.imageBlock != nil {
				if !strings.Contains(body, tc.imageBlock(b64)) {
					t.Errorf("the request has no image block of the prepared image:\n%.1500s", body)
				}
			} else {
				if !strings.Contains(body, "the current model cannot see images") || strings.Contains(body, "base64") {
					t.Errorf("a model without images must get the note and no bytes:\n%.3000s", body)
				}
			}
			if strings.Contains(body, base64.StdEncoding.EncodeToString(original)) {
				t.Error("the original, not downscaled, image went to the model")
			}
			assertNoBinaryInDB(t, e.data, [][]byte{original[16:64], prepared[16:64], []byte(b64[:64])})

			page, err := e.core.TranscriptPage(t.Context(), e.session.ID, agent.PageQuery{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			got := page.Messages[0].Content[0].Attachments
			if !slices.Equal(got, []api.Attachment{shot, dropped[0]}) {
				t.Errorf("the reloaded prompt's attachments = %+v", got)
			}
		})
	}
}

// assertNoBinaryInDB scans the SQLite file and its WAL for any of chunks.
func assertNoBinaryInDB(t *testing.T, data string, chunks [][]byte) {
	t.Helper()
	for _, name := range []string{"pi.sqlite", "pi.sqlite-wal"} {
		b, err := os.ReadFile(filepath.Join(data, name))
		if err != nil && name == "pi.sqlite" {
			t.Fatal(err)
		}
		for _, c := range chunks {
			if bytes.Contains(b, c) {
				t.Errorf("%s holds attachment bytes", name)
			}
		}
	}
}

// The window's references are not trusted: a path outside the session's
// pasted folder (or a file of another session) is refused before the
// turn opens, and nothing is sent.
func TestAttachmentsForgedReferenceRefused(t *testing.T) {
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "no"})
	e := newAttachEnv(t, srv, provider.APIAnthropic, "claude-sonnet-4-5", nil, false)
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	other, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := e.core.AttachData(t.Context(), other.ID, "theirs.txt", []byte("theirs"), api.AttachmentBudget{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []api.Attachment{{Path: secret, Name: "id_rsa"}, theirs} {
		err := e.core.StartTurnWith(t.Context(), e.session.ID, "read it", api.PromptOptions{Attachments: []api.Attachment{ref}})
		if !errs.Is(err, errs.AttachmentInvalid) {
			t.Errorf("reference %s: %v, want ATTACHMENT_INVALID", ref.Path, err)
		}
	}
	if srv.Count() != 0 {
		t.Error("a turn with a forged attachment reached the model")
	}
}

// A prompt's image is what keeps it in the store: the sweep leaves it
// even when it is old.
func TestAttachmentsSweepKeepsPromptImages(t *testing.T) {
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "ok"})
	e := newAttachEnv(t, srv, provider.APIAnthropic, "claude-sonnet-4-5", nil, false)
	shot, err := e.core.AttachData(t.Context(), e.session.ID, "a.png", widePNG(t), api.AttachmentBudget{})
	if err != nil {
		t.Fatal(err)
	}
	orphan, err := e.core.AttachData(t.Context(), e.session.ID, "b.png", tinyPNG, api.AttachmentBudget{})
	if err != nil {
		t.Fatal(err)
	}
	e.sendAndWait(t, srv, "look", []api.Attachment{shot})
	old := time.Now().Add(-time.Hour)
	for _, sha := range []string{shot.SHA256, orphan.SHA256} {
		if err := os.Chtimes(filepath.Join(e.core.AttachmentsDir(), sha), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := e.core.SweepAttachments(t.Context()); err != nil || n != 1 {
		t.Fatalf("sweep = %d, %v; want the unsent image only", n, err)
	}
	if _, err := os.Stat(filepath.Join(e.core.AttachmentsDir(), shot.SHA256)); err != nil {
		t.Errorf("the sent image was swept: %v", err)
	}
}
