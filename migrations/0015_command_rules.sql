-- Command rules (issue 19): allow / ask / deny a program and a prefix of its
-- arguments, matched by backend/cmdrule against every simple command the
-- shell parser finds. project_id is set for project scope only, session_id
-- for session scope only; forgetting a project or session forgets its rules.
CREATE TABLE command_rules (
    id          TEXT PRIMARY KEY,
    decision    TEXT NOT NULL CHECK (decision IN ('allow', 'ask', 'deny')),
    program     TEXT NOT NULL CHECK (program <> ''),
    args        TEXT NOT NULL DEFAULT '[]',  -- JSON array of words, the argument prefix
    scope       TEXT NOT NULL CHECK (scope IN ('session', 'project', 'global')),
    project_id  TEXT REFERENCES projects (id) ON DELETE CASCADE,
    session_id  TEXT REFERENCES sessions (id) ON DELETE CASCADE,
    note        TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    CHECK ((scope = 'project') = (project_id IS NOT NULL)),
    CHECK ((scope = 'session') = (session_id IS NOT NULL))
);
CREATE INDEX command_rules_project ON command_rules (project_id) WHERE project_id IS NOT NULL;
CREATE INDEX command_rules_session ON command_rules (session_id) WHERE session_id IS NOT NULL;

-- A rule added by `pi-desktop rules add` while the app runs is seen by the
-- app's next Bash call, as for settings and MCP servers.
CREATE TRIGGER command_rules_gen_insert AFTER INSERT ON command_rules BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER command_rules_gen_update AFTER UPDATE ON command_rules BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER command_rules_gen_delete AFTER DELETE ON command_rules BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
