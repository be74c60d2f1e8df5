package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// previewPage is the workspace page the probe's agent turn opens with
// BrowserPreview. Unlike a visualization it has its own origin and keeps
// allow-same-origin, so besides the fragment's routes it tries the two
// that would make it a top-level document, where the frame guard does not
// apply: navigating the app's window to itself, and opening a popup. Both
// land on this page with ?way=..., which then posts from the top level.
const previewPage = `<!doctype html>
<title>preview escape probe</title>
<pre id="log" style="font:14px monospace;white-space:pre-wrap">preview escape probe</pre>
<script>
var targets = %s;
var outcome = [];
function msg(way) {
  return "C" + JSON.stringify({name: "desktop.Sessions.RenameSession", args: [targets[way], "escaped-preview-" + way], callbackID: "probe-" + way});
}
function log(s) { outcome.push(s); document.getElementById("log").textContent += "\n" + s; }
var none = "none";
function why(e) { return ""; }
` + frameRoutes + `
var way = new URLSearchParams(location.search).get("way");
if (way) {
  attempt(window, way);
} else {
  tryFrameRoutes();
  try {
    var p = window.open(location.pathname + "?way=popup", "_blank");
    log(p ? "popup: opened" : "popup: refused");
  } catch (e) { log("popup: threw"); }
  try {
    window.top.location.href = location.pathname + "?way=top";
    log("top: asked");
  } catch (e) { log("top: threw"); }
  // A data: document has no server to refuse it; tried once the first
  // navigation has had its chance (a second one would cancel it).
  setTimeout(function () {
    try {
      window.top.location.href = "data:text/html," + encodeURIComponent("<script>var h = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.external;" +
        "if (h) h.postMessage(" + JSON.stringify(msg("topdata")) + ");<\/script>");
      log("topdata: asked");
    } catch (e) { log("topdata: threw"); }
  }, 1500);
}
// The title is what BrowserPreview reports to the model: proof the page ran.
document.title = "preview escape probe: " + outcome.join(", ");
</script>
`

// previewWays are the routes previewPage tries.
var previewWays = []string{"direct", "recover", "blank", "srcdoc", "popup", "top", "topdata"}

// previewFile is previewPage's name in the workspace.
const previewFile = "probe-page.html"

func writePreviewPage(workspace string, targets map[string]string) error {
	t, _ := json.Marshal(targets)
	return os.WriteFile(filepath.Join(workspace, previewFile), []byte(fmt.Sprintf(previewPage, t)), 0o600)
}

// serveModel is a scripted OpenAI-compatible model for the probe's one
// turn: it loads BrowserPreview with ToolSearch, opens the page, and on
// the preview's result writes that result to resultFile and ends the turn.
// It prints its base URL and serves until killed.
func serveModel(resultFile string) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/v1\n", ln.Addr())
	os.Stdout.Sync()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[{"id":"probe-model","object":"model","created":1700000000,"owned_by":"probe"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Tools    []json.RawMessage `json:"tools"`
			Messages []struct {
				Role       string          `json:"role"`
				ToolCallID string          `json:"tool_call_id"`
				Content    json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		last := req.Messages[len(req.Messages)-1]
		switch {
		case len(req.Tools) == 0: // a side request (a title): no tools to call
			streamTurn(w, "Probe", nil)
		case last.Role == "tool" && last.ToolCallID == "call_search":
			streamTurn(w, "", &toolCall{"call_preview", "BrowserPreview", `{"path":"` + previewFile + `"}`})
		case last.Role == "tool" && last.ToolCallID == "call_preview":
			if err := os.WriteFile(resultFile, last.Content, 0o600); err != nil {
				fmt.Fprintln(os.Stderr, "vizprobe:", err)
			}
			streamTurn(w, "Shown.", nil)
		default:
			streamTurn(w, "", &toolCall{"call_search", "ToolSearch", `{"query":"select:BrowserPreview"}`})
		}
	})
	return http.Serve(ln, mux)
}

type toolCall struct{ id, name, args string }

// streamTurn answers in the Chat Completions SSE shape: one text delta or
// one tool call, the finish reason, usage, [DONE].
func streamTurn(w http.ResponseWriter, text string, call *toolCall) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-probe", "object": "chat.completion.chunk", "created": 1700000000, "model": "probe-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	finish := "stop"
	if text != "" {
		chunk(map[string]any{"content": text}, nil)
	}
	if call != nil {
		finish = "tool_calls"
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": call.id, "type": "function",
			"function": map[string]any{"name": call.name, "arguments": call.args}}}}, nil)
	}
	chunk(map[string]any{}, finish)
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-probe", "object": "chat.completion.chunk", "created": 1700000000, "model": "probe-model",
		"choices": []any{}, "usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", b)
}

// previewTitle pulls the page's reported title out of BrowserPreview's
// result (the content of the tool message), for the probe's log.
func previewTitle(result []byte) string {
	s := string(result)
	var str string
	if json.Unmarshal(result, &str) == nil {
		s = str
	}
	i := strings.Index(s, "preview escape probe")
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.IndexAny(s, "\n\""); j >= 0 {
		s = s[:j]
	}
	return s
}
