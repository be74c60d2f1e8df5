// Package mcp is PI-Desktop's client for Model Context Protocol servers,
// built on the official Go SDK (github.com/modelcontextprotocol/go-sdk); it
// never speaks JSON-RPC by hand.
//
// What is here so far: a server's definition (Server) and the parser of a
// project's .mcp.json; the definition hash that makes a changed project
// server ask for trust again; the model-facing tool names
// (mcp_<server>_<tool>); and the connections. Connect reaches a server over
// its transport: stdio (ConnectStdio, the server in a process tree the host
// owns through platform/proc), streamable HTTP or the legacy SSE transport
// (headers on every request to the server's origin, a saved OAuth sign-in
// renewed before expiry). SignIn is the only thing that opens a browser:
// the OAuth authorization-code flow with PKCE on the SDK's auth package,
// with a loopback redirect, saving the sign-in in a TokenStore the host
// backs with the OS keychain. The catalog, trust and the tools that
// hostcore.Execute runs come on top of these.
package mcp
