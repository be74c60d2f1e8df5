package provider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// The retry policy: which failures of starting a stream are retried, how
// often and after how long. classify (stream.go) says what a failure is.

// capture records the HTTP failure of one attempt, whatever the SDK makes
// of the body (compatible servers send all kinds of error shapes).
type capture struct {
	status int
	header http.Header
	body   []byte
	sent   bool // a response arrived (the request reached the server)
}

func (c *capture) do(r *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(r)
	if err != nil || res == nil {
		return res, err
	}
	c.sent = true
	if res.StatusCode >= 400 {
		c.status = res.StatusCode
		c.header = res.Header.Clone()
		body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		_ = res.Body.Close()
		c.body = body
		res.Body = io.NopCloser(bytes.NewReader(body))
	}
	return res, nil
}

// openStream opens an SDK stream through retry: open sends the request
// through the capture's middleware, and a stream whose request failed is
// closed before the next attempt.
func openStream[S interface {
	Err() error
	Close() error
}](ctx context.Context, b base, open func(c *capture) S) (S, error) {
	var stream S
	err := b.retry(ctx, func(c *capture) error {
		s := open(c)
		if err := s.Err(); err != nil {
			_ = s.Close()
			return err
		}
		stream = s
		return nil
	})
	return stream, err
}

// retry starts a stream, silently retrying rate limits, overloads and
// connection failures before any output (at most maxRetries times, at most
// two for connection failures), honouring retry-after-ms / retry-after.
func (b base) retry(ctx context.Context, start func(c *capture) error) error {
	netRetries := 0
	for attempt := 0; ; attempt++ {
		c := &capture{}
		err := start(c)
		if err == nil {
			return nil
		}
		f := b.classify(ctx, err, c)
		if !f.retryable || attempt >= b.opts.maxRetries {
			return f.final(b, attempt)
		}
		if f.network {
			if netRetries >= 2 {
				return f.final(b, attempt)
			}
			netRetries++
		}
		d := backoff(attempt)
		if f.hasRetryAfter {
			if f.retryAfter > maxHonouredRetryAfter {
				return f.final(b, attempt)
			}
			d = f.retryAfter
		}
		if err := b.opts.sleep(ctx, d); err != nil || ctx.Err() != nil {
			return aborted()
		}
	}
}

func backoff(attempt int) time.Duration {
	d := time.Duration(float64(defaultBackoffBase) * math.Pow(2, float64(attempt)))
	return min(d, defaultBackoffMax)
}

// failure is a classified error of one attempt.
type failure struct {
	err           *errs.Error
	retryable     bool
	network       bool
	rateLimited   bool
	hasRetryAfter bool
	retryAfter    time.Duration
	status        int
	message       string
}

func (f failure) final(b base, retries int) error {
	if !f.rateLimited {
		if f.retryable && retries > 0 && f.err != nil {
			return f.err.With("retries", retries)
		}
		return f.err
	}
	msg := fmt.Sprintf("%s is rate limiting requests (HTTP 429)", b.label())
	if retries > 0 {
		msg += fmt.Sprintf(" and %d silent retries did not get through", retries)
	}
	if f.message != "" {
		msg += ": " + f.message
	}
	if f.hasRetryAfter && f.retryAfter > 0 {
		msg += fmt.Sprintf(". It asks to wait %s; send the message again then, or check your plan's rate limits.", f.retryAfter.Round(time.Second))
	} else {
		msg += ". Wait a minute and send the message again, or check your plan's rate limits."
	}
	e := errs.New(errs.ProviderRateLimited, "%s", msg).With("status", 429).With("retries", retries)
	if f.hasRetryAfter {
		e = e.With("retryAfterMs", f.retryAfter.Milliseconds())
	}
	return e
}

// retryAfter reads retry-after-ms (milliseconds) or retry-after (seconds
// or an HTTP date).
func retryAfter(h http.Header, now func() time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now())
		return max(d, 0), true
	}
	return 0, false
}
