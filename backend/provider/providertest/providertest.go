// Package providertest runs scripted fake model servers that speak the
// Anthropic Messages SSE, the OpenAI Chat Completions SSE and the OpenAI
// Responses SSE protocols, so
// tests drive the real SDK clients (and everything above them) through
// whole turns, and then look at the requests the server received.
//
//	srv := providertest.NewAnthropicServer(t,
//		providertest.Turn{Text: "Reading it.", ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "a.go"}}}},
//		providertest.Turn{Text: "Done."},
//	)
//	p, _ := provider.New(srv.Config(), provider.WithSleeper(providertest.NoSleep))
//	...
//	reqs := srv.Requests() // what the client sent, in order
//
// Each request consumes the next Turn. A Turn renders to the protocol's
// events (text and thinking split into word deltas, tool inputs split into
// partial-JSON pieces), or to an HTTP error (Status), an error event mid-way
// (StreamError), a dropped connection (Drop, DropAfter), a stalled stream
// (Hang, HangAfter), or a verbatim body (Raw).
package providertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// Key is the API key of Server.Config. Tests can check it appears only in
// the auth header of the requests.
const Key = "sk-providertest-0123456789abcdef"

// Model is the model id of Server.Config.
const Model = "test-model"

// Call is a tool call the model makes.
type Call struct {
	ID   string // default: toolu_NN (Anthropic) / call_NN (OpenAI)
	Name string
	// Input is the call's JSON input: a string or json.RawMessage is sent
	// verbatim (so it can be invalid on purpose); anything else is encoded
	// with encoding/json; nil is {}.
	Input any
}

// Turn is one scripted response.
type Turn struct {
	// Thinking is streamed first: an Anthropic thinking block signed with
	// Signature (default "sig-<request number>"), or OpenAI-style
	// reasoning_content deltas.
	Thinking  string
	Signature string
	Text      string
	ToolCalls []Call
	// Stop is "end_turn", "tool_use" or "max_tokens" (mapped to stop,
	// tool_calls and length for OpenAI), or any wire value. Default:
	// tool_use when there are calls, else end_turn.
	Stop                      string
	InputTokens, OutputTokens int // usage; defaults 10 and 5
	// CacheReadTokens and CacheWriteTokens are the prompt-cache figures:
	// Anthropic's cache_read_input_tokens and cache_creation_input_tokens
	// (InputTokens is then the uncached rest, as that API counts), OpenAI's
	// prompt_tokens_details.cached_tokens (part of InputTokens there; that
	// API reports no writes).
	CacheReadTokens, CacheWriteTokens int

	// InterleaveCalls (OpenAI) interleaves the argument chunks of the calls
	// by index instead of sending one call after another.
	InterleaveCalls bool

	// Status, when non-zero, answers with this HTTP status and the
	// protocol's error JSON (ErrorType: Anthropic error type or OpenAI error
	// code; default by status) instead of a stream.
	Status       int
	ErrorType    string
	ErrorMessage string
	// Header adds response headers (e.g. "retry-after": "3").
	Header map[string]string

	// StreamError sends, after the content, the protocol's error event with
	// this message (type/code ErrorType, default overloaded_error /
	// server_error) and ends the stream without a stop.
	StreamError string
	// Drop cuts the connection after the content, before the stop events;
	// DropAfter (> 0) cuts it after that many events instead.
	Drop      bool
	DropAfter int
	// Hang stalls after the content until the client goes away (or the
	// server closes); HangAfter (> 0) stalls after that many events.
	Hang      bool
	HangAfter int

	// Raw is written verbatim as the body (text/event-stream) with Status,
	// or 200: the escape hatch for anything the fields cannot say.
	Raw string

	// Times serves this turn for this many requests (0 and 1: once; -1:
	// every request from here on).
	Times int
}

// Request is one request the server received.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// JSON decodes the body as a generic JSON object.
func (r Request) JSON() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

// Decode decodes the body into v.
func (r Request) Decode(v any) error { return json.Unmarshal(r.Body, v) }

// Server is a scripted fake provider.
type Server struct {
	URL string // the server's root URL

	t        testing.TB
	protocol string // provider.APIAnthropic, provider.APIOpenAI or protocolResponses
	srv      *httptest.Server
	closing  chan struct{}
	closed   sync.Once

	mu    sync.Mutex
	turns []Turn
	reqs  []Request
	// The list endpoint (models.go).
	models       []ListedModel
	listing      bool
	modelsStatus int
}

// NewAnthropicServer serves POST /v1/messages from turns.
func NewAnthropicServer(t testing.TB, turns ...Turn) *Server {
	return newServer(t, provider.APIAnthropic, turns)
}

// NewOpenAIServer serves POST /v1/chat/completions from turns.
func NewOpenAIServer(t testing.TB, turns ...Turn) *Server {
	return newServer(t, provider.APIOpenAI, turns)
}

func newServer(t testing.TB, protocol string, turns []Turn) *Server {
	t.Helper()
	s := &Server{t: t, protocol: protocol, closing: make(chan struct{}), turns: append([]Turn(nil), turns...)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// Close releases stalled streams and stops the server (also done by
// t.Cleanup).
func (s *Server) Close() {
	s.closed.Do(func() {
		close(s.closing)
		s.srv.Close()
	})
}

// Push appends turns to the script.
func (s *Server) Push(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Count is the number of requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// Remaining is the number of turns not served yet (-1: a turn repeats
// forever).
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, t := range s.turns {
		if t.Times < 0 {
			return -1
		}
		n += max(t.Times, 1)
	}
	return n
}

// Config is a provider config for this server (API anthropic or openai,
// model Model, key Key; OpenAIAPI the server's wire API). Set API to
// openai-compatible for that preset.
func (s *Server) Config() provider.Config {
	cfg := provider.Config{API: s.protocol, BaseURL: s.URL, Model: Model, APIKey: Key}
	switch s.protocol {
	case provider.APIOpenAI:
		cfg.BaseURL, cfg.OpenAIAPI = s.URL+"/v1", provider.OpenAIChat
	case protocolResponses:
		cfg.API, cfg.BaseURL, cfg.OpenAIAPI = provider.APIOpenAI, s.URL+"/v1", provider.OpenAIResponses
	case protocolOllama:
		cfg.API, cfg.BaseURL, cfg.APIKey = provider.APIOpenAICompatible, s.URL+"/v1", ""
	}
	return cfg
}

// NoSleep is a provider.Sleeper that returns at once (unless ctx is done).
func NoSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// Sleeps records the retry waits a provider asked for, without waiting.
type Sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

// Sleep is the provider.Sleeper.
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

// Durations are the waits so far.
func (s *Sleeps) Durations() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func (s *Server) next() (Turn, int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.reqs)
	if len(s.turns) == 0 {
		return Turn{}, n, false
	}
	t := s.turns[0]
	switch {
	case t.Times < 0:
	case t.Times > 1:
		s.turns[0].Times--
	default:
		s.turns = s.turns[1:]
	}
	return t, n, true
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()

	if s.serveList(w, r) {
		return
	}
	want := map[string]string{provider.APIAnthropic: "/v1/messages", provider.APIOpenAI: "/v1/chat/completions", protocolResponses: "/v1/responses"}[s.protocol]
	if r.Method != http.MethodPost || r.URL.Path != want {
		s.t.Errorf("providertest: unexpected %s %s (want POST %s)", r.Method, r.URL.Path, want)
		http.NotFound(w, r)
		return
	}
	turn, n, ok := s.next()
	if !ok {
		s.t.Errorf("providertest: request %d has no scripted turn left", n)
		s.writeError(w, Turn{Status: 500, ErrorMessage: "providertest: the script has no turn left"})
		return
	}
	for k, v := range turn.Header {
		w.Header().Set(k, v)
	}
	if turn.Raw != "" {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(max(turn.Status, 200))
		_, _ = io.WriteString(w, turn.Raw)
		return
	}
	if turn.Status != 0 {
		s.writeError(w, turn)
		return
	}
	var req struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	_ = json.Unmarshal(body, &req)
	var frames []string
	var contentEnd int
	switch s.protocol {
	case provider.APIAnthropic:
		frames, contentEnd = anthropicFrames(turn, n+1)
	case protocolResponses:
		frames, contentEnd = responsesFrames(turn, n+1)
	default:
		frames, contentEnd = openaiFrames(turn, n+1, req.StreamOptions.IncludeUsage)
	}
	s.stream(w, r, turn, frames, contentEnd)
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request, turn Turn, frames []string, contentEnd int) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}
	dropAt, hangAt := -1, -1
	if turn.Drop {
		dropAt = contentEnd
	}
	if turn.DropAfter > 0 {
		dropAt = turn.DropAfter
	}
	if turn.Hang {
		hangAt = contentEnd
	}
	if turn.HangAfter > 0 {
		hangAt = turn.HangAfter
	}
	for i := 0; ; i++ {
		if i == hangAt {
			select {
			case <-r.Context().Done():
			case <-s.closing:
			}
			return
		}
		if i == dropAt {
			panic(http.ErrAbortHandler) // closes the connection mid-body
		}
		if i == len(frames) {
			return
		}
		if _, err := io.WriteString(w, frames[i]); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

func (s *Server) writeError(w http.ResponseWriter, t Turn) {
	msg := t.ErrorMessage
	if msg == "" {
		msg = http.StatusText(t.Status)
	}
	var body any
	if s.protocol == provider.APIAnthropic {
		typ := t.ErrorType
		if typ == "" {
			typ = anthropicErrorType(t.Status)
		}
		w.Header().Set("request-id", "req_providertest")
		body = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": "req_providertest"}
	} else {
		typ := "invalid_request_error"
		if t.Status >= 500 {
			typ = "server_error"
		}
		var code any
		if t.ErrorType != "" {
			code = t.ErrorType
		} else if c := openaiErrorCode(t.Status); c != "" {
			code = c
		}
		body = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(t.Status)
	_ = json.NewEncoder(w).Encode(body)
}

func anthropicErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

func openaiErrorCode(status int) string {
	switch status {
	case 401:
		return "invalid_api_key"
	case 429:
		return "rate_limit_exceeded"
	}
	return ""
}

// words splits s into deltas that keep their spaces.
func words(s string) []string {
	if s == "" {
		return nil
	}
	return strings.SplitAfter(s, " ")
}

// pieces splits a JSON text into three parts, as streamed arguments come.
func pieces(s string) []string {
	if len(s) < 3 {
		return []string{s}
	}
	n := (len(s) + 2) / 3
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

func inputJSON(in any) string {
	switch v := in.(type) {
	case nil:
		return "{}"
	case string:
		return v
	case json.RawMessage:
		return string(v)
	case []byte:
		return string(v)
	}
	b, err := json.Marshal(in)
	if err != nil {
		panic(fmt.Sprintf("providertest: tool input: %v", err))
	}
	return string(b)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func defaults(t Turn) Turn {
	if t.InputTokens == 0 {
		t.InputTokens = 10
	}
	if t.OutputTokens == 0 {
		t.OutputTokens = 5
	}
	if t.Stop == "" {
		t.Stop = "end_turn"
		if len(t.ToolCalls) > 0 {
			t.Stop = "tool_use"
		}
	}
	return t
}
