// Package plugin is PI-Desktop's plugins (issue 22): installable bundles of
// agent tools (and skills, subagents, commands and MCP servers) that run
// nothing before the user consents to exactly what they contribute.
//
// What is here: the manifest (plugin.json) parser and its rules; the
// model-facing names (plugin_<id>_<tool>); the install checks of a folder
// or a .piplug zip, made before anything is written; the consent hash over
// the manifest and every file; the store of installed plugins (migration
// 0022); and the runtime, which starts a plugin's process lazily on its
// first call through backend/mcp's stdio client (the same process-tree and
// environment rules as an MCP server), and makes each agent tool a
// tools.Tool that hostcore.Execute runs like any other.
package plugin
