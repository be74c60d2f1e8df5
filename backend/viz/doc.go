// Package viz serves inline visualizations (spec §4b.1): HTML fragments the
// model writes into the session's visualization folder, wrapped in a host
// shell with the bundled D3 and chart helpers under a strict CSP, and the
// static check a Write of such a fragment gets in its result.
//
// The route is /_viz/<sessionId>/<name>, where <name> is the fragment's file
// name without ".html": the frontend never sends a path, and the handler
// resolves the folder from the session store. The ".html" is left out of the
// route so the Wails asset server, which injects its IPC runtime into any
// response for a path ending in "/index.html", never touches a fragment.
//
// assets/d3-7.9.2.min.js is the unmodified dist file of the npm package
// d3@7.9.2 (ISC license, assets/LICENSE-d3.txt); TestD3Pinned holds its hash.
package viz
