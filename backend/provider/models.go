package provider

import (
	"context"
	"encoding/json"
	"errors"

	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// ListedModel is one model a server lists for the model picker.
type ListedModel struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName,omitempty"` // Anthropic's display_name; "" elsewhere
}

// maxListedModels bounds a list (gateways list hundreds; a picker needs
// no more) and the pages followed to build it.
const maxListedModels = 1000

// maxTagsBody bounds Ollama's /api/tags answer.
const maxTagsBody = 4 << 20

// ListModels asks cfg's server which models it serves, through the
// official SDKs: Anthropic's models API (every page), OpenAI's and
// OpenAI-compatible servers' GET /models (LM Studio, vLLM, OpenRouter and
// Ollama speak it). An OpenAI-compatible server without that endpoint is
// asked Ollama's own GET /api/tags at the root of its base URL (an older
// Ollama, or a base URL ending in /api): a user who points PI-Desktop at
// Ollama expects its pulled models, whatever port it listens on. The model
// id is not needed. Errors: MODEL_NOT_CONFIGURED (no key or base URL),
// PROVIDER_UNAUTHORIZED, PROVIDER_UNREACHABLE (no answer within timeout,
// 0 = DefaultCheckTimeout), MODEL_LIST_UNAVAILABLE (the server lists
// nothing: the model id is typed instead), PROVIDER_ERROR.
func ListModels(ctx context.Context, cfg Config, timeout time.Duration, opts ...Option) ([]ListedModel, error) {
	if timeout <= 0 {
		timeout = DefaultCheckTimeout
	}
	o := options{httpClient: &http.Client{}}
	for _, opt := range opts {
		opt(&o)
	}
	cfg.API = strings.ToLower(strings.TrimSpace(cfg.API))
	cfg.BaseURL = strings.TrimSpace(cfg.BaseURL)
	cfg.APIKey = strings.TrimSpace(cfg.APIKey)
	switch {
	case cfg.API != APIAnthropic && cfg.API != APIOpenAI && cfg.API != APIOpenAICompatible:
		return nil, notConfigured("Unknown provider API %q. Choose anthropic, openai or openai-compatible.", cfg.API)
	case cfg.APIKey == "" && cfg.API != APIOpenAICompatible:
		return nil, notConfigured("Enter the API key for %s to list its models.", base{cfg: cfg}.label())
	case cfg.API == APIOpenAICompatible && cfg.BaseURL == "":
		return nil, notConfigured("Enter the server's base URL (for example http://localhost:11434/v1 for Ollama) to list its models.")
	}
	b := base{cfg: cfg, opts: o}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var (
		out []ListedModel
		err error
	)
	switch {
	case cfg.API == APIAnthropic:
		out, err = b.anthropicModels(tctx)
	case cfg.API == APIOpenAICompatible && ollamaNative(cfg.BaseURL):
		out, err = b.ollamaTags(tctx)
	default:
		out, err = b.openaiModels(tctx)
		if cfg.API == APIOpenAICompatible && errs.Is(err, errs.ModelListUnavailable) {
			if tags, terr := b.ollamaTags(tctx); terr == nil {
				out, err = tags, nil
			} else if !errs.Is(terr, errs.ModelListUnavailable) {
				err = terr
			}
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, aborted()
		}
		if errors.Is(tctx.Err(), context.DeadlineExceeded) {
			return nil, errs.New(errs.ProviderUnreachable, "%s did not answer within %s. Check the base URL and that the server is running.",
				b.label(), timeout.Round(time.Millisecond)).With("timeout", true)
		}
		return nil, err
	}
	return out, nil
}

func (b base) anthropicModels(ctx context.Context) ([]ListedModel, error) {
	pager := newAnthropic(b).client.Models.ListAutoPaging(ctx, anthropic.ModelListParams{})
	var out []ListedModel
	for len(out) < maxListedModels && pager.Next() {
		m := pager.Current()
		out = append(out, ListedModel{ID: m.ID, DisplayName: m.DisplayName})
	}
	if err := pager.Err(); err != nil {
		return nil, b.listFailure(err)
	}
	return dedupe(out), nil
}

func (b base) openaiModels(ctx context.Context) ([]ListedModel, error) {
	svc := openai.NewModelService(openaiOptions(b)...)
	pager := svc.ListAutoPaging(ctx)
	var out []ListedModel
	for len(out) < maxListedModels && pager.Next() {
		out = append(out, ListedModel{ID: pager.Current().ID})
	}
	if err := pager.Err(); err != nil {
		return nil, b.listFailure(err)
	}
	return dedupe(out), nil
}

// ollamaNative reports whether baseURL is Ollama's native API (…/api), where
// GET /models means nothing.
func ollamaNative(baseURL string) bool {
	u, err := url.Parse(baseURL)
	return err == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/api")
}

// ollamaTagsURL is Ollama's /api/tags for a base URL given as the
// OpenAI-compatible endpoint (…/v1) or the native one (…/api).
func ollamaTagsURL(baseURL string) (string, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return "", err
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/api"):
		p += "/tags"
	default:
		p = strings.TrimSuffix(p, "/v1") + "/api/tags"
	}
	u.Path, u.RawPath, u.RawQuery, u.Fragment = p, "", "", ""
	return u.String(), nil
}

// ollamaTags lists Ollama's pulled models ({"models":[{"name","model",…}]}).
// The SDKs do not speak this API; it is one GET.
func (b base) ollamaTags(ctx context.Context) ([]ListedModel, error) {
	target, err := ollamaTagsURL(b.cfg.BaseURL)
	if err != nil {
		return nil, notConfigured("The base URL %q is not a URL.", b.cfg.BaseURL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, notConfigured("The base URL %q is not a URL.", b.cfg.BaseURL)
	}
	if b.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+b.cfg.APIKey)
	}
	resp, err := b.opts.httpClient.Do(req)
	if err != nil {
		return nil, b.listFailure(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTagsBody))
	if err != nil {
		return nil, b.listFailure(err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, b.listStatus(resp.StatusCode, body)
	}
	var tags struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if json.Unmarshal(body, &tags) != nil || tags.Models == nil {
		return nil, noList(b)
	}
	out := make([]ListedModel, 0, len(tags.Models))
	for _, m := range tags.Models {
		id := m.Model
		if id == "" {
			id = m.Name
		}
		out = append(out, ListedModel{ID: id})
	}
	return dedupe(out), nil
}

// listFailure maps an SDK or transport error of a list request.
func (b base) listFailure(err error) error {
	var aerr *anthropic.Error
	var oerr *openai.Error
	switch {
	case errors.As(err, &aerr):
		return b.listStatus(aerr.StatusCode, []byte(aerr.RawJSON()))
	case errors.As(err, &oerr):
		return b.listStatus(oerr.StatusCode, []byte(oerr.RawJSON()))
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return errs.New(errs.ProviderUnreachable, "Could not reach %s at %s: %s. Check the base URL, that the server is running, and the network.",
			b.label(), b.host(), b.redact(netReason(err)))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errs.New(errs.ProviderUnreachable, "%s closed the connection while listing its models (%s). Check that the server is running.",
			b.label(), b.redact(err.Error()))
	}
	// What is left is a 200 that the SDK could not read as a model list
	// (a web page, another API's JSON): the server does not list models.
	return noList(b).With("reason", b.redact(err.Error()))
}

func (b base) listStatus(status int, body []byte) error {
	msg, _ := errorBody(body)
	detail := ""
	if msg = b.redact(msg); msg != "" {
		detail = ": " + msg
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return errs.New(errs.ProviderUnauthorized, "%s rejected the API key (HTTP %d)%s. Check the key.", b.label(), status, detail).With("status", status)
	case status == http.StatusNotFound || status == http.StatusMethodNotAllowed || status == http.StatusNotImplemented:
		return noList(b).With("status", status)
	}
	return errs.New(errs.ProviderError, "%s could not list its models (HTTP %d)%s", b.label(), status, detail).With("status", status)
}

func noList(b base) *errs.Error {
	return errs.New(errs.ModelListUnavailable, "%s does not list its models; type the model id.", b.label())
}

// dedupe drops empty and repeated ids, keeping the server's order.
func dedupe(in []ListedModel) []ListedModel {
	seen := make(map[string]bool, len(in))
	out := in[:0]
	for _, m := range in {
		if m.ID = strings.TrimSpace(m.ID); m.ID != "" && !seen[m.ID] {
			seen[m.ID] = true
			out = append(out, m)
		}
	}
	return out
}
