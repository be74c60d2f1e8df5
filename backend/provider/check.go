package provider

import (
	"context"
	"errors"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// DefaultCheckTimeout bounds a connection test.
const DefaultCheckTimeout = 20 * time.Second

// checkMaxTokens keeps a connection test cheap: the answer is cut off as
// soon as anything streams, and asks for a few tokens at most.
const checkMaxTokens = 16

var errAnswered = errors.New("the model answered")

// Check tests cfg with one minimal real request ("ping", a few output
// tokens, no tools, no thinking, no retries) through the same client a turn
// uses, and stops reading at the first streamed event. It returns nil when
// the model answered, else an error with the turn's stable codes:
// MODEL_NOT_CONFIGURED, PROVIDER_UNAUTHORIZED, PROVIDER_RATE_LIMITED,
// PROVIDER_ERROR (also for no answer within timeout: details.timeout),
// CONTEXT_TOO_LARGE or STREAM_FAILED. timeout 0 is DefaultCheckTimeout.
func Check(ctx context.Context, cfg Config, timeout time.Duration, opts ...Option) error {
	if timeout <= 0 {
		timeout = DefaultCheckTimeout
	}
	cfg.Thinking = false  // a thinking budget would need a larger answer
	cfg.Temperature = nil // some models refuse any temperature
	p, err := New(cfg, append(opts, WithMaxRetries(0))...)
	if err != nil {
		return err
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err = p.Stream(tctx, Request{
		Messages:  []Message{{Role: RoleUser, Content: []Block{{Type: BlockText, Text: "ping"}}}},
		MaxTokens: checkMaxTokens,
	}, func(Event) error { return errAnswered })
	switch {
	case err == nil, errors.Is(err, errAnswered), errs.Is(err, errs.EmptyModelResponse):
		// A well-formed answer, even an empty one, proves the endpoint, the
		// key and the model id.
		return nil
	case ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded):
		label := base{cfg: cfg}.label()
		wait := timeout.String()
		if timeout >= time.Second {
			wait = timeout.Round(time.Second).String()
		}
		return errs.New(errs.ProviderError, "%s did not answer within %s. Check the base URL and that the server is running, then test again.",
			label, wait).With("timeout", true)
	}
	return err
}
