package hostcore_test

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// waitTurns waits until srv answered n requests and no turn runs.
func (e attachEnv) waitTurns(t *testing.T, srv *providertest.Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); srv.Count() < n || e.core.TurnRunningForTest(e.session.ID); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the turn did not finish (%d of %d requests)", srv.Count(), n)
		}
	}
}

// Retry of a failed turn sends the prompt's stored attachments again (as
// the window reads them back from the transcript): the model gets the
// same image block and @ paths. Once the scratch copy changed, the same
// Retry is refused with ATTACHMENT_CHANGED and reaches no model.
func TestAttachmentsRetryResendsThem(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Status: 400, ErrorType: "invalid_request_error", ErrorMessage: "scripted failure"},
		providertest.Turn{Text: "I see it now."})
	e := newAttachEnv(t, srv, provider.APIAnthropic, "claude-sonnet-4-5", nil, false)
	shot, err := e.core.AttachData(t.Context(), e.session.ID, "shot.png", widePNG(t), api.AttachmentBudget{})
	if err != nil {
		t.Fatal(err)
	}
	notes, err := e.core.AttachData(t.Context(), e.session.ID, "notes.txt", []byte("remember the milk\n"), api.AttachmentBudget{Count: 1, Bytes: shot.Size})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.core.StartTurnWith(t.Context(), e.session.ID, "what is this?", api.PromptOptions{Attachments: []api.Attachment{shot, notes}}); err != nil {
		t.Fatal(err)
	}
	e.waitTurns(t, srv, 1)

	// What the window's Retry has: the failed prompt's references, reloaded.
	page, err := e.core.TranscriptPage(t.Context(), e.session.ID, agent.PageQuery{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	again := page.Messages[0].Content[0].Attachments
	if len(again) != 2 {
		t.Fatalf("the failed prompt kept %d attachments, want 2: %+v", len(again), page.Messages[0].Content)
	}
	if err := e.core.StartTurnWith(t.Context(), e.session.ID, "what is this?", api.PromptOptions{Attachments: again}); err != nil {
		t.Fatal(err)
	}
	e.waitTurns(t, srv, 2)
	prepared, err := attachments.New(e.core.AttachmentsDir()).Read(shot.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	for i, want := range []string{base64.StdEncoding.EncodeToString(prepared), "@" + shot.Path, "@" + notes.Path} {
		for n, r := range reqs {
			if !strings.Contains(string(r.Body), want) {
				t.Errorf("request %d lacks %d (%.60s…)", n+1, i, want)
			}
		}
	}

	if err := os.WriteFile(shot.Path, tinyPNG, 0o600); err != nil {
		t.Fatal(err)
	}
	err = e.core.StartTurnWith(t.Context(), e.session.ID, "what is this?", api.PromptOptions{Attachments: again})
	if !errs.Is(err, errs.AttachmentChanged) {
		t.Fatalf("Retry after the copy changed = %v, want ATTACHMENT_CHANGED", err)
	}
	if srv.Count() != 2 {
		t.Errorf("a changed attachment reached the model (%d requests)", srv.Count())
	}
}
