-- MCP servers (issue 15): the app's own servers, and what the user decided
-- about a project's servers (whose definitions stay in the project's files).
-- Secret header and env values are never stored here: they live in the OS
-- keychain or the private key file under "mcp/<secret_id>/…"
-- (backend/mcpstore); the JSON lists below hold their names only.

CREATE TABLE mcp_servers (
    id                  TEXT PRIMARY KEY,
    -- random per saved server: keychain account names must not collide
    -- between data directories, and server ids like "github" would
    secret_id           TEXT NOT NULL UNIQUE,
    transport           TEXT NOT NULL CHECK (transport IN ('stdio', 'http', 'sse')),
    command             TEXT NOT NULL DEFAULT '',
    args                TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
    env                 TEXT NOT NULL DEFAULT '[]',  -- JSON [{name, value, secret}], value "" when secret
    cwd                 TEXT NOT NULL DEFAULT '',
    url                 TEXT NOT NULL DEFAULT '',
    headers             TEXT NOT NULL DEFAULT '[]',  -- JSON [{name, value, secret}], value "" when secret
    enabled             INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    disabled_tools      TEXT NOT NULL DEFAULT '[]',  -- JSON array of the server's own tool names
    connect_timeout_ms  INTEGER NOT NULL DEFAULT 0 CHECK (connect_timeout_ms >= 0),
    call_timeout_ms     INTEGER NOT NULL DEFAULT 0 CHECK (call_timeout_ms >= 0),
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
);

-- A project's server as the user left it: switched off, some tools off, or
-- an OAuth token saved under secret_id. No row = enabled, every tool on.
CREATE TABLE mcp_project_servers (
    project_id      TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    server_id       TEXT NOT NULL,
    enabled         INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    disabled_tools  TEXT NOT NULL DEFAULT '[]',
    secret_id       TEXT NOT NULL UNIQUE,
    updated_at      INTEGER NOT NULL,
    PRIMARY KEY (project_id, server_id)
);

-- The one definition (DefinitionHash of the file as written) the user
-- trusted for a project's server. A changed definition has another hash and
-- is untrusted until trusted again; forgetting the project forgets its trust.
CREATE TABLE mcp_trust (
    project_id       TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    server_id        TEXT NOT NULL,
    definition_hash  TEXT NOT NULL,
    trusted_at       INTEGER NOT NULL,
    PRIMARY KEY (project_id, server_id)
);

-- Another process on the same data directory (`pi-desktop mcp add` while
-- the app runs) changes these tables; the config generation tells it.
CREATE TRIGGER mcp_servers_gen_insert AFTER INSERT ON mcp_servers BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER mcp_servers_gen_update AFTER UPDATE ON mcp_servers BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER mcp_servers_gen_delete AFTER DELETE ON mcp_servers BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER mcp_project_servers_gen_insert AFTER INSERT ON mcp_project_servers BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER mcp_project_servers_gen_update AFTER UPDATE ON mcp_project_servers BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER mcp_project_servers_gen_delete AFTER DELETE ON mcp_project_servers BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER mcp_trust_gen_insert AFTER INSERT ON mcp_trust BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER mcp_trust_gen_update AFTER UPDATE ON mcp_trust BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER mcp_trust_gen_delete AFTER DELETE ON mcp_trust BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
