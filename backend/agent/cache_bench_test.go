package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	dbstore "github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// cacheSessionPrompts is how many prompts the scripted session has; each
// makes two requests (a Read, then the answer): 20 requests in all.
const cacheSessionPrompts = 10

// scriptedCacheSession runs a 20-request session through the agent
// against a fake server speaking proto and returns the request bodies.
// Each Read returns a different 3 KB file, so the conversation grows.
func scriptedCacheSession(tb testing.TB, proto string) []providertest.Request {
	tb.Helper()
	var turns []providertest.Turn
	for i := range cacheSessionPrompts {
		turns = append(turns,
			providertest.Turn{Text: "Let me read it.", ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": fmt.Sprintf("src/file%d.go", i)}}}},
			providertest.Turn{Text: strings.Repeat(fmt.Sprintf("File %d checks the token first, then the session. ", i), 6)})
	}
	srv := providertest.NewAnthropicServer(tb, turns...)
	if proto == provider.APIOpenAI {
		srv = providertest.NewOpenAIServer(tb, turns...)
	}
	p, err := provider.New(srv.Config(), provider.WithSleeper(providertest.NoSleep))
	if err != nil {
		tb.Fatal(err)
	}
	st, err := dbstore.Open(context.Background(), filepath.Join(tb.TempDir(), "pi.sqlite"), dbstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().Exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 'cache', 1, 1)`, sid); err != nil {
		tb.Fatal(err)
	}
	host := newHost()
	host.behave = func(_ context.Context, call ToolCall) tools.Result {
		var a struct{ Path string }
		_ = json.Unmarshal(call.Args, &a)
		return tools.Result{OK: true, Content: strings.Repeat(fmt.Sprintf("%s: if err := check(token); err != nil { return err }\n", a.Path), 50)}
	}
	now := func() time.Time { return time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC) }
	a := New(st.DB(), builtinToolsHost{host}, func(string) (provider.Provider, error) { return p, nil }, nil, now)
	for i := range cacheSessionPrompts {
		if _, err := a.Run(context.Background(), sid, fmt.Sprintf("Why does login fail for user %d? Read the handler.", i)); err != nil {
			tb.Fatal(err)
		}
	}
	return srv.Requests()
}

// builtinToolsHost offers the app's own builtin tool definitions (their
// real descriptions and schemas, the bulk of a real prompt's fixed start)
// where the fake host has one-line stand-ins.
type builtinToolsHost struct{ *fakeHost }

func (h builtinToolsHost) Tools(mode string) []OfferedTool {
	var out []OfferedTool
	for _, t := range tools.Builtins(tools.Options{RgPath: "-"}) {
		if s := t.Spec(); !s.Deferred {
			out = append(out, OfferedTool{Def: provider.ToolDef{Name: s.Name, Description: s.Description, Schema: s.Schema}, Parallel: s.Parallel})
		}
	}
	for _, o := range h.fakeHost.Tools(mode) {
		if !slices.ContainsFunc(out, func(b OfferedTool) bool { return b.Def.Name == o.Def.Name }) {
			out = append(out, o) // the runtime tools
		}
	}
	return out
}

// cachedPrompt is a request's prompt in the order the API caches it, as
// one byte string: Anthropic's tools, system and messages without the
// cache markers; OpenAI's tools and messages.
func cachedPrompt(tb testing.TB, proto string, body []byte) []byte {
	tb.Helper()
	if proto == provider.APIAnthropic {
		parts, _ := anthropicPromptParts(tb, body)
		return bytes.Join(parts, []byte("\n"))
	}
	var req struct {
		Tools    json.RawMessage   `json:"tools"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		tb.Fatal(err)
	}
	parts := [][]byte{req.Tools}
	for _, m := range req.Messages {
		parts = append(parts, m)
	}
	return bytes.Join(parts, []byte("\n"))
}

// cacheableShares is, per request from the third on, the share of its
// tokens (~chars/4) in the longest prefix it shares byte for byte with the
// request before: what a prompt cache can serve. On the Anthropic wire
// the API keeps only prefixes that end at a cache breakpoint, so the
// shared prefix counts only up to the previous request's last breakpoint
// inside it (a misplaced rolling breakpoint shows here). lost is the most
// tokens of a previous request (from the second on) that the next one did
// not repeat as its start: what the layout threw away (0 when every
// request only appends, and the unshared rest is all new content).
func cacheableShares(tb testing.TB, proto string, reqs []providertest.Request) (shares []float64, lost int) {
	var prev []byte
	var prevEntries []int
	for i, r := range reqs {
		cur := cachedPrompt(tb, proto, r.Body)
		if i >= 1 {
			n := commonPrefix(prev, cur)
			lost = max(lost, charTokens(len(prev)-n))
			if proto == provider.APIAnthropic {
				served := 0
				for _, e := range prevEntries {
					if e <= n {
						served = e
					}
				}
				n = served
			}
			if i >= 2 {
				shares = append(shares, float64(charTokens(n))/float64(charTokens(len(cur))))
			}
		}
		prev = cur
		if proto == provider.APIAnthropic {
			prevEntries = anthropicCacheEntries(tb, r.Body)
		}
	}
	return shares, lost
}

// commonPrefix is how many leading bytes a and b share.
func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// anthropicCacheEntries are the offsets in cachedPrompt's bytes where the
// request's cache breakpoints end a prefix (the API stores an entry
// there), in order.
func anthropicCacheEntries(tb testing.TB, body []byte) []int {
	tb.Helper()
	var req struct {
		Tools    json.RawMessage   `json:"tools"`
		System   json.RawMessage   `json:"system"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		tb.Fatal(err)
	}
	var out []int
	end := -1 // parts are joined by one byte
	for _, part := range append([]json.RawMessage{req.Tools, req.System}, req.Messages...) {
		end += len(cacheMarker.ReplaceAll(part, nil)) + 1
		if cacheMarker.Match(part) {
			out = append(out, end)
		}
	}
	return out
}

// charTokens estimates tokens as the provider does: ~4 characters each.
func charTokens(chars int) int { return (chars + 3) / 4 }

// BenchmarkPromptCacheShare reports the cacheable share of a scripted
// 20-request session's prompts over both wires: the lowest, the mean and
// the last from the third request on (budget: ≥ 85%), and the tokens of a
// request its successor did not repeat. A measurement, never asserted.
func BenchmarkPromptCacheShare(b *testing.B) {
	for _, proto := range []string{provider.APIAnthropic, provider.APIOpenAI} {
		b.Run(proto, func(b *testing.B) {
			var shares []float64
			var lost int
			for b.Loop() {
				shares, lost = cacheableShares(b, proto, scriptedCacheSession(b, proto))
			}
			lo, sum := 1.0, 0.0
			for _, s := range shares {
				lo, sum = min(lo, s), sum+s
			}
			b.ReportMetric(100*lo, "min-cacheable-%")
			b.ReportMetric(100*sum/float64(len(shares)), "mean-cacheable-%")
			b.ReportMetric(100*shares[len(shares)-1], "last-cacheable-%")
			b.ReportMetric(float64(lost), "lost-prefix-tokens")
		})
	}
}

// The scripted session makes its 20 requests, so the benchmark's figure
// is over the session it claims; and every request starts with the whole
// request before it (the layout only appends): the share it does not
// cache is what it added. The share itself is measured, not asserted.
func TestPromptCacheShareIsMeasured(t *testing.T) {
	for _, proto := range []string{provider.APIAnthropic, provider.APIOpenAI} {
		t.Run(proto, func(t *testing.T) {
			reqs := scriptedCacheSession(t, proto)
			if len(reqs) != 2*cacheSessionPrompts {
				t.Fatalf("%d requests, want %d", len(reqs), 2*cacheSessionPrompts)
			}
			shares, lost := cacheableShares(t, proto, reqs)
			for i, s := range shares {
				t.Logf("request %2d: %.1f%% cacheable", i+3, 100*s)
			}
			// Anthropic stores what ends at a breakpoint: the rolling one closes
			// each request, so the next can be served all of it.
			for i, r := range reqs {
				if proto != provider.APIAnthropic {
					break
				}
				entries := anthropicCacheEntries(t, r.Body)
				if len(entries) == 0 || entries[len(entries)-1] != len(cachedPrompt(t, proto, r.Body)) {
					t.Errorf("request %d: its last cache breakpoint does not end it (entries %v)", i+1, entries)
				}
			}
			if lost != 0 {
				t.Errorf("a request did not repeat %d tokens of the one before as its start", lost)
			}
			if len(shares) != len(reqs)-2 {
				t.Fatalf("%d shares", len(shares))
			}
			for i, s := range shares {
				if s <= 0 || s > 1 {
					t.Errorf("request %d: share %.3f out of (0, 1]", i+3, s)
				}
			}
		})
	}
}
