// Package mcp is PI-Desktop's client for Model Context Protocol servers,
// built on the official Go SDK (github.com/modelcontextprotocol/go-sdk); it
// never speaks JSON-RPC by hand.
//
// What is here: a server's definition (Server) and the parser of a
// project's .mcp.json; the definition hash that makes a changed project
// server ask for trust again; the model-facing tool names
// (mcp_<server>_<tool>); the connections; and the Manager, the live set of
// servers. Connect reaches a server over its transport: stdio (ConnectStdio,
// the server in a process tree the host owns through platform/proc),
// streamable HTTP or the legacy SSE transport (headers on every request to
// the server's origin, a saved OAuth sign-in renewed before expiry). SignIn
// is the only thing that opens a browser: the OAuth authorization-code flow
// with PKCE on the SDK's auth package, with a loopback redirect, saving the
// sign-in in a TokenStore the host backs with the OS keychain. The Manager
// starts servers in the background, restarts a crashed one with backoff,
// follows tools/list_changed, keeps each server's stderr log and bounds the
// live set (16 servers, 64 tools each). Where definitions come from and who
// trusts them is backend/mcpstore's; the tools hostcore.Execute runs are
// backend/tools' MCP adapter over hostcore's catalog.
package mcp
