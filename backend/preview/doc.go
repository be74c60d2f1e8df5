// Package preview is BrowserPreview's loopback server (issue 23): it serves
// one session's workspace files read-only on 127.0.0.1 under a random path
// token, injects a tiny reporter script into its HTML pages, and collects
// what the page reports back (title, uncaught errors, failed requests).
//
// The pane's iframe loads these pages from the server's own origin, which is
// never the app's, so a page has no handle on the app's document or its
// bound methods; the window's frame guard (desktop/vizguard.go) cuts the
// WebKit message handlers in every subframe, this one included.
//
// Every file goes through pathguard like Read, but only the workspace root
// exists here: links out of it, "..", absolute spellings and the data
// folder all answer 404, in every permission mode.
package preview
