package mcp

import (
	"context"
	"net/http"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// ConnectOptions is what the host decides about one connection, beside the
// server's definition. For a remote server the caller has already put the
// secret header values (from the keychain) into Server.Headers.
type ConnectOptions struct {
	// Hooks apply to every transport (Stdio.Hooks is ignored).
	Hooks Hooks
	// Stdio is how a stdio server's process runs.
	Stdio StdioOptions
	// HTTPClient is the base client of a remote server; nil = a client of
	// this connection's own. It must have no Timeout: streams stay open for
	// the whole session.
	HTTPClient *http.Client
	// Tokens holds the OAuth sign-ins (nil = none: a server that asks for
	// one fails MCP_AUTH_REQUIRED). Connect reads and refreshes a saved
	// sign-in; only SignIn makes a new one.
	Tokens TokenStore
	// TokenKey names the server in Tokens, as the caller keys servers
	// (scope and id); "" = the server's id.
	TokenKey string

	now func() time.Time // the sign-in's clock; nil = time.Now (tests move it)
}

// Connect reaches s over its transport and completes the MCP handshake
// within its connect timeout: ConnectStdio for stdio, streamable HTTP or
// the legacy SSE transport for a remote server. It never opens a browser.
// Errors: INVALID_ARGUMENT for a bad definition, MCP_SERVER_UNAVAILABLE,
// MCP_CONNECT_TIMEOUT, MCP_AUTH_REQUIRED (details "signIn": true when
// SignIn is the remedy) and MCP_PROTOCOL_ERROR.
func Connect(ctx context.Context, s Server, o ConnectOptions) (*Conn, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	switch s.Transport {
	case TransportStdio:
		so := o.Stdio
		so.Hooks = o.Hooks
		return ConnectStdio(ctx, s, so)
	case TransportHTTP, TransportSSE:
		return connectRemote(ctx, s, o)
	}
	// Validate refuses any other transport; this keeps the switch honest.
	return nil, errs.New(errs.InvalidArgument, "MCP server %q: unknown transport %q", s.ID, s.Transport).With("server", s.ID)
}

// tokenKey is the key of s in a TokenStore.
func tokenKey(s Server, key string) string {
	if key == "" {
		return s.ID
	}
	return key
}
