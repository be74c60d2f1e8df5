package provider_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

func ids(models []provider.ListedModel) []string {
	var out []string
	for _, m := range models {
		out = append(out, m.ID)
	}
	return out
}

func paths(reqs []providertest.Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

func TestListModelsOpenAI(t *testing.T) {
	for _, api := range []string{provider.OpenAIChat, provider.OpenAIResponses} {
		t.Run(api, func(t *testing.T) {
			srv := providertest.NewOpenAIServer(t)
			if api == provider.OpenAIResponses {
				srv = providertest.NewResponsesServer(t)
			}
			srv.SetModels(providertest.ListedModel{ID: "gpt-5"}, providertest.ListedModel{ID: "gpt-4o"}, providertest.ListedModel{ID: "gpt-5"})
			cfg := srv.Config()
			cfg.Model = "" // not needed to list
			got, err := provider.ListModels(t.Context(), cfg, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), []string{"gpt-5", "gpt-4o"}) {
				t.Errorf("models = %v, want the server's order without repeats", ids(got))
			}
			reqs := srv.Requests()
			if !slices.Equal(paths(reqs), []string{"GET /v1/models"}) || reqs[0].Header.Get("Authorization") != "Bearer "+providertest.Key {
				t.Errorf("requests = %v, auth %q", paths(reqs), reqs[0].Header.Get("Authorization"))
			}
		})
	}
}

// LM Studio and vLLM: a compatible server without a key, /v1/models.
func TestListModelsCompatibleWithoutKey(t *testing.T) {
	srv := providertest.NewOpenAIServer(t)
	srv.SetModels(providertest.ListedModel{ID: "qwen2.5-coder-7b-instruct"}, providertest.ListedModel{ID: "text-embedding-nomic-embed-text-v1.5"})
	cfg := srv.Config()
	cfg.API, cfg.APIKey = provider.APIOpenAICompatible, ""
	got, err := provider.ListModels(t.Context(), cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "qwen2.5-coder-7b-instruct" {
		t.Errorf("models = %v", ids(got))
	}
	if h := srv.Requests()[0].Header.Get("Authorization"); h != "" {
		t.Errorf("Authorization = %q without a key", h)
	}
}

// Anthropic lists 20 a page; every page is read through the SDK's pager.
func TestListModelsAnthropicPages(t *testing.T) {
	srv := providertest.NewAnthropicServer(t)
	var want []providertest.ListedModel
	for i := range 25 {
		want = append(want, providertest.ListedModel{ID: fmt.Sprintf("claude-test-%02d", i), DisplayName: fmt.Sprintf("Claude Test %d", i)})
	}
	srv.SetModels(want...)
	got, err := provider.ListModels(t.Context(), srv.Config(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 25 || got[0] != (provider.ListedModel{ID: "claude-test-00", DisplayName: "Claude Test 0"}) || got[24].ID != "claude-test-24" {
		t.Fatalf("models = %+v", got)
	}
	reqs := srv.Requests()
	// 25 distinct models from pages of 20: the second page was asked
	// after the first's last_id (the fake honours after_id).
	if auth := reqs[1].Header.Get("X-Api-Key") + reqs[1].Header.Get("Authorization"); len(reqs) != 2 || !strings.Contains(auth, providertest.Key) {
		t.Fatalf("requests = %v, headers %v", paths(reqs), reqs[1].Header)
	}
}

// Ollama without /v1/models (older versions): its own /api/tags, at the
// root of a /v1 base URL, or under a base URL given as …/api.
func TestListModelsOllama(t *testing.T) {
	tests := []struct {
		name, suffix string
		want         []string
	}{
		{"v1 base URL falls back to /api/tags", "/v1", []string{"GET /v1/models", "GET /api/tags"}},
		{"native base URL", "/api", []string{"GET /api/tags"}},
		{"native base URL with a slash", "/api/", []string{"GET /api/tags"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewOllamaServer(t, "llama3.1:8b", "qwen3:32b")
			cfg := srv.Config()
			cfg.BaseURL = srv.URL + tt.suffix
			got, err := provider.ListModels(t.Context(), cfg, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), []string{"llama3.1:8b", "qwen3:32b"}) {
				t.Errorf("models = %v", ids(got))
			}
			if p := paths(srv.Requests()); !slices.Equal(p, tt.want) {
				t.Errorf("requests = %v, want %v", p, tt.want)
			}
		})
	}
}

func TestListModelsErrors(t *testing.T) {
	unauthorized := func(api string) provider.Config {
		srv := providertest.NewOpenAIServer(t)
		if api == provider.APIAnthropic {
			srv = providertest.NewAnthropicServer(t)
		}
		srv.SetModelsStatus(http.StatusUnauthorized)
		return srv.Config()
	}
	noList := providertest.NewOpenAIServer(t) // answers 404 to /v1/models and /api/tags
	noListCfg := noList.Config()
	noListCfg.API = provider.APIOpenAICompatible
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>Welcome</body></html>"))
	}))
	t.Cleanup(html.Close)
	failing := providertest.NewOpenAIServer(t)
	failing.SetModelsStatus(http.StatusInternalServerError)

	tests := []struct {
		name string
		cfg  provider.Config
		want errs.Code
	}{
		{"anthropic key rejected", unauthorized(provider.APIAnthropic), errs.ProviderUnauthorized},
		{"openai key rejected", unauthorized(provider.APIOpenAI), errs.ProviderUnauthorized},
		{"no list endpoint", noListCfg, errs.ModelListUnavailable},
		{"a web page, not a list", provider.Config{API: provider.APIOpenAICompatible, BaseURL: html.URL + "/v1"}, errs.ModelListUnavailable},
		{"server error", failing.Config(), errs.ProviderError},
		{"nothing listening", provider.Config{API: provider.APIOpenAICompatible, BaseURL: "http://127.0.0.1:1/v1"}, errs.ProviderUnreachable},
		{"no key", provider.Config{API: provider.APIOpenAI}, errs.ModelNotConfigured},
		{"no base URL", provider.Config{API: provider.APIOpenAICompatible}, errs.ModelNotConfigured},
		{"unknown API", provider.Config{API: "soap", APIKey: "k"}, errs.ModelNotConfigured},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := provider.ListModels(t.Context(), tt.cfg, 0, provider.WithMaxRetries(0))
			if got := errs.CodeOf(err); got != tt.want {
				t.Fatalf("ListModels = %v (%s), want %s", err, got, tt.want)
			}
			if strings.Contains(err.Error(), providertest.Key) {
				t.Errorf("the error shows the key: %v", err)
			}
		})
	}
}

func TestListModelsTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	_, err := provider.ListModels(t.Context(), provider.Config{API: provider.APIOpenAICompatible, BaseURL: srv.URL + "/v1"}, 50*time.Millisecond)
	e := errs.As(err)
	if e == nil || e.Code != errs.ProviderUnreachable || e.Details["timeout"] != true {
		t.Fatalf("ListModels = %v, want PROVIDER_UNREACHABLE with details.timeout", err)
	}
}
