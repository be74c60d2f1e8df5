// Package mcpstore is where MCP servers come from and who trusts them: the
// app's own servers (SQLite, their secret header and env values in the OS
// keychain through a KeyStore such as provider.Keys), a project's servers
// (its .mcp.json and .agents/servers/*.json, read without running
// anything), the user's trust in a project's server for its exact
// definition, per-project switches, and OAuth token blobs. It starts
// nothing; backend/mcp connects.
//
// Identity: a server is (scope, id). An app server's id is unique in the
// app's list; a project server's id is its key in the project's files, and
// in that project's sessions it replaces an app server of the same id.
// Secrets and OAuth tokens are saved under "mcp/<secretId>/…", a random id
// per saved server, so two data directories sharing one OS keychain never
// share an entry. Trust is per project and per definition hash
// (mcp.Server.DefinitionHash of the file as written): a changed file asks
// again, a changed ${VAR} (expanded only at connect time, Expand) does not.
package mcpstore
