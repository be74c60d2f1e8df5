// Package mcp is PI-Desktop's client for Model Context Protocol servers,
// built on the official Go SDK (github.com/modelcontextprotocol/go-sdk); it
// never speaks JSON-RPC by hand.
//
// What is here so far: a server's definition (Server) and the parser of a
// project's .mcp.json; the definition hash that makes a changed project
// server ask for trust again; the model-facing tool names
// (mcp_<server>_<tool>); and the stdio connection (ConnectStdio), which runs
// the server in a process tree the host owns (platform/proc) and speaks to
// it through the SDK client. The catalog, the other transports, trust and
// the tools that hostcore.Execute runs come on top of these.
package mcp
