// Package mcp is PI-Desktop's client for Model Context Protocol servers,
// built on the official Go SDK (github.com/modelcontextprotocol/go-sdk); it
// never speaks JSON-RPC by hand.
//
// This file set holds the pieces that start nothing: a server's definition
// (Server), the parser of a project's .mcp.json, the definition hash that
// makes a changed project server ask for trust again, and the model-facing
// tool names (mcp_<server>_<tool>). Connections, the catalog and the tools
// that hostcore.Execute runs come on top of these.
package mcp
