package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

var errStreamEnded = errors.New("the stream ended before the response was complete")

func aborted() *errs.Error {
	return errs.New(errs.TurnAborted, "The turn was stopped before the model finished; what streamed so far is kept.")
}

// classify maps an error from starting a stream to a stable code.
func (b base) classify(ctx context.Context, err error, c *capture) failure {
	if ctx.Err() != nil {
		return failure{err: aborted()}
	}
	var ce callerError
	if errors.As(err, &ce) {
		return failure{err: errs.Wrap(ce.err, errs.Internal, "internal error")}
	}
	status, msg, kind := 0, "", ""
	var header http.Header
	var aerr *anthropic.Error
	var oerr *openai.Error
	switch {
	case errors.As(err, &aerr):
		status, msg, kind = aerr.StatusCode, aerr.Message, string(aerr.Type())
		if aerr.Response != nil {
			header = aerr.Response.Header
		}
	case errors.As(err, &oerr):
		status, msg, kind = oerr.StatusCode, oerr.Message, oerr.Code
		if kind == "" {
			kind = oerr.Type
		}
		if oerr.Response != nil {
			header = oerr.Response.Header
		}
	}
	if c != nil && c.status != 0 {
		status = c.status
		header = c.header
		if bm, bk := errorBody(c.body); bm != "" {
			if msg == "" {
				msg = bm
			}
			if kind == "" {
				kind = bk
			}
		}
	}
	msg = b.redact(msg)
	if status == 0 {
		// No HTTP answer: a connection failure (retried), or an error of
		// the SDK itself.
		var uerr *url.Error
		var nerr net.Error
		if errors.As(err, &uerr) || errors.As(err, &nerr) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			e := errs.New(errs.ProviderError, "Could not reach %s at %s: %s. Check the base URL in Settings → Models, that the server is running, and the network.",
				b.label(), b.host(), b.redact(netReason(err)))
			return failure{err: e, retryable: true, network: true}
		}
		return failure{err: errs.New(errs.ProviderError, "%s request failed: %s", b.label(), b.redact(err.Error()))}
	}
	f := failure{status: status, message: msg}
	detail := ""
	if msg != "" {
		detail = ": " + msg
	}
	withStatus := func(e *errs.Error) *errs.Error {
		e = e.With("status", status)
		if kind != "" {
			e = e.With("type", kind)
		}
		return e
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		hint := fmt.Sprintf("Check the API key in Settings → Models or %s.", KeyEnv(b.cfg.API))
		f.err = withStatus(errs.New(errs.ProviderUnauthorized, "%s rejected the API key (HTTP %d)%s. %s", b.label(), status, detail, hint))
	case isContextTooLarge(status, msg, kind):
		f.err = withStatus(errs.New(errs.ContextTooLarge, "The conversation is too large for %s's context window%s. Start a new context (new_context) or shorten the request, then send again.", b.cfg.Model, detail))
	case status == http.StatusTooManyRequests && kind == "insufficient_quota":
		f.err = withStatus(errs.New(errs.ProviderError, "%s reports the account is out of quota (HTTP 429)%s. Check billing for this key.", b.label(), detail))
	case status == http.StatusTooManyRequests:
		f.retryable, f.rateLimited = true, true
		f.retryAfter, f.hasRetryAfter = retryAfter(header, b.opts.now)
	case status == http.StatusRequestTimeout || status == http.StatusConflict || status >= 500:
		f.retryable = true
		f.retryAfter, f.hasRetryAfter = retryAfter(header, b.opts.now)
		f.err = withStatus(errs.New(errs.ProviderError, "%s is unavailable or overloaded (HTTP %d)%s. Try again in a moment.", b.label(), status, detail))
	case status == http.StatusNotFound:
		f.err = withStatus(errs.New(errs.ProviderError, "%s answered 404 Not Found%s. Check the model id %q and the base URL in Settings → Models.", b.label(), detail, b.cfg.Model))
	default:
		f.err = withStatus(errs.New(errs.ProviderError, "%s refused the request (HTTP %d)%s", b.label(), status, detail))
	}
	return f
}

// streamFailure maps an error that ended a started stream.
func (b base) streamFailure(ctx context.Context, err error) error {
	var ce callerError
	if errors.As(err, &ce) {
		return ce.err
	}
	if ctx.Err() != nil {
		return aborted()
	}
	reason := ""
	var aerr *anthropic.Error
	var serr *ssestream.StreamError
	switch {
	case errors.As(err, &aerr):
		reason = aerr.Message
		if t := string(aerr.Type()); t != "" {
			reason = t + ": " + reason
		}
		if reason == "" {
			reason = aerr.RawJSON()
		}
	case errors.As(err, &serr):
		reason = serr.Message
		if m, k := errorBody(serr.Event.Data); m != "" {
			reason = m
			if k != "" {
				reason = k + ": " + m
			}
		}
	case errors.Is(err, errStreamEnded):
		reason = err.Error()
	default:
		reason = "the connection broke: " + netReason(err)
	}
	return errs.New(errs.StreamFailed, "%s's response stream failed mid-way (%s). The partial reply was kept; retry the turn.", b.label(), truncate.BytesEllipsis(b.redact(reason), maxProviderMessage))
}

func netReason(err error) string {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err // the URL may carry secrets in a query string
	}
	return err.Error()
}

func (b base) host() string {
	if b.cfg.BaseURL == "" {
		return "its default endpoint"
	}
	u, err := url.Parse(b.cfg.BaseURL)
	if err != nil || u.Host == "" {
		return "the configured base URL"
	}
	return u.Host
}

var keyLike = regexp.MustCompile(`\b(sk|rk|pk)-[A-Za-z0-9_\-*.]{6,}`)

// redact removes the key and anything that looks like one, and bounds the
// message.
func (b base) redact(s string) string {
	if k := b.cfg.APIKey; len(k) >= 4 {
		s = strings.ReplaceAll(s, k, "[redacted]")
	}
	s = keyLike.ReplaceAllString(s, "[redacted]")
	return truncate.BytesEllipsis(strings.TrimSpace(s), maxProviderMessage)
}

// errorBody reads a message and a type/code from the error shapes seen in
// the wild: {"error":{"message","type","code"}}, {"error":"…"},
// {"message":"…"} and {"detail":"…"}.
func errorBody(body []byte) (msg, kind string) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
		Type    string          `json:"type"`
		Code    any             `json:"code"`
	}
	if json.Unmarshal(bytes.TrimSpace(body), &v) != nil {
		return strings.TrimSpace(string(body)), ""
	}
	if len(v.Error) > 0 {
		var s string
		if json.Unmarshal(v.Error, &s) == nil {
			return s, ""
		}
		var o struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		}
		if json.Unmarshal(v.Error, &o) == nil {
			if c, ok := o.Code.(string); ok && c != "" {
				return o.Message, c
			}
			return o.Message, o.Type
		}
	}
	if v.Message != "" {
		if c, ok := v.Code.(string); ok && c != "" {
			return v.Message, c
		}
		return v.Message, v.Type
	}
	if v.Detail != nil {
		if s, ok := v.Detail.(string); ok {
			return s, ""
		}
		enc, _ := json.Marshal(v.Detail)
		return string(enc), ""
	}
	return "", ""
}

var contextTooLarge = regexp.MustCompile(`(?i)(context[ _-]?(length|window)|maximum context|prompt is too long|too many tokens|input is too long|exceeds? the (model'?s? )?(maximum|max|context)|input length.*exceed|reduce the length of the (messages|prompt)|request too large)`)

func isContextTooLarge(status int, msg, kind string) bool {
	if kind == "context_length_exceeded" || kind == "request_too_large" || status == http.StatusRequestEntityTooLarge {
		return true
	}
	if status != http.StatusBadRequest && status != http.StatusUnprocessableEntity && status != 413 {
		return false
	}
	return contextTooLarge.MatchString(msg)
}
