package api

// Preview pane events (BrowserPreview, issue 23). Each carries the session
// the preview belongs to: the window shows a session's pane only while that
// session is the visible one.
const (
	// EventPreviewOpened: BrowserPreview opened (or replaced) a session's
	// preview; the payload is its PreviewState.
	EventPreviewOpened = "preview:opened"
	// EventPreviewReload: files under the previewed folder changed; the
	// payload is the PreviewState with Revision bumped.
	EventPreviewReload = "preview:reload"
	// EventPreviewClosed: the session's preview ended (PreviewClosed).
	EventPreviewClosed = "preview:closed"
)

// Kinds of preview.
const (
	PreviewFile = "file" // a workspace page, served by the loopback preview server
	PreviewURL  = "url"  // a dev server on this machine
)

// PreviewState is a session's open preview.
type PreviewState struct {
	SessionID string `json:"sessionId"`
	Kind      string `json:"kind"`
	// URL is what the pane's frame loads: the preview server's tokened
	// address for a file, the dev server's for a URL.
	URL string `json:"url"`
	// Target is what was opened, as the tool row names it: the
	// workspace-relative page, or the URL.
	Target string `json:"target"`
	Title  string `json:"title"`
	// Revision counts live reloads; the pane reloads its frame when it
	// changes.
	Revision int `json:"revision"`
}

// PreviewClosed is the payload of preview:closed.
type PreviewClosed struct {
	SessionID string `json:"sessionId"`
}
