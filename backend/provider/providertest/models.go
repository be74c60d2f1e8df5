package providertest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// protocolOllama is Ollama's native API (GET /api/tags only).
const protocolOllama = "ollama"

// ListedModel is a model a fake server lists.
type ListedModel struct {
	ID          string
	DisplayName string // Anthropic's display_name (default: the id)
}

// anthropicPageSize is the models API's default page (limit 20).
const anthropicPageSize = 20

// SetModels makes the server answer its list endpoint, as the real API
// does: GET /v1/models with {"object":"list","data":[{"id","object":"model",
// "created","owned_by"}]} (OpenAI, both wire APIs), or with Anthropic's
// pages {"data":[{"type":"model","id","display_name","created_at"}],
// "has_more","first_id","last_id"} (limit, default 20, and after_id
// honoured); an Ollama server's GET /api/tags with {"models":[{"name",
// "model","modified_at","size","digest","details"}]}. Without SetModels a
// list request is answered 404, as by a server that has no list.
func (s *Server) SetModels(models ...ListedModel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]ListedModel(nil), models...)
	s.listing = true
}

// SetModelsStatus answers list requests with this HTTP status and the
// protocol's error JSON (401, 500, …).
func (s *Server) SetModelsStatus(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modelsStatus = status
}

// NewOllamaServer is an Ollama that serves only its native GET /api/tags
// (an Ollama older than its OpenAI-compatible /v1/models): models are
// listed there, /v1/models is 404. Its Config is openai-compatible with
// base URL <root>/v1.
func NewOllamaServer(t testing.TB, models ...string) *Server {
	s := newServer(t, protocolOllama, nil)
	for _, m := range models {
		s.models = append(s.models, ListedModel{ID: m})
	}
	s.listing = true
	return s
}

// serveList answers a list request; ok is false when r is not one.
func (s *Server) serveList(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	listPath := "/v1/models"
	if s.protocol == protocolOllama {
		listPath = "/api/tags"
	}
	if r.URL.Path != listPath && r.URL.Path != "/v1/models" && r.URL.Path != "/api/tags" {
		return false
	}
	s.mu.Lock()
	models, listing, status := append([]ListedModel(nil), s.models...), s.listing, s.modelsStatus
	s.mu.Unlock()
	if status != 0 {
		s.writeError(w, Turn{Status: status})
		return true
	}
	if r.URL.Path != listPath || !listing {
		http.NotFound(w, r)
		return true
	}
	created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var body any
	switch s.protocol {
	case provider.APIAnthropic:
		body = anthropicPage(models, r, created)
	case protocolOllama:
		var out []map[string]any
		for i, m := range models {
			out = append(out, map[string]any{"name": m.ID, "model": m.ID, "modified_at": created.Add(time.Duration(i) * time.Hour).Format(time.RFC3339Nano),
				"size": 4_661_224_676, "digest": "sha256:" + strconv.Itoa(i), "details": map[string]any{"format": "gguf", "family": "llama", "parameter_size": "8.0B", "quantization_level": "Q4_K_M"}})
		}
		body = map[string]any{"models": out}
	default:
		data := []map[string]any{}
		for _, m := range models {
			data = append(data, map[string]any{"id": m.ID, "object": "model", "created": created.Unix(), "owned_by": "providertest"})
		}
		body = map[string]any{"object": "list", "data": data}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
	return true
}

func anthropicPage(models []ListedModel, r *http.Request, created time.Time) map[string]any {
	limit := anthropicPageSize
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 {
		limit = n
	}
	start := 0
	if after := r.URL.Query().Get("after_id"); after != "" {
		for i, m := range models {
			if m.ID == after {
				start = i + 1
			}
		}
	}
	end := min(start+limit, len(models))
	data := []map[string]any{}
	for _, m := range models[start:end] {
		name := m.DisplayName
		if name == "" {
			name = m.ID
		}
		data = append(data, map[string]any{"type": "model", "id": m.ID, "display_name": name, "created_at": created.Format(time.RFC3339)})
	}
	page := map[string]any{"data": data, "has_more": end < len(models), "first_id": nil, "last_id": nil}
	if len(data) > 0 {
		page["first_id"], page["last_id"] = data[0]["id"], data[len(data)-1]["id"]
	}
	return page
}
