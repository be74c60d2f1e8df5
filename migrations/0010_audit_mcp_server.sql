-- The MCP server a call went to (issue 15): the model-facing name can be
-- cut and hashed, so the audit keeps the server's own id beside it.
ALTER TABLE audit ADD COLUMN mcp_server TEXT NOT NULL DEFAULT '';
