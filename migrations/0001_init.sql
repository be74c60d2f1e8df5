-- Projects, sessions and settings: the ground every later table hangs off.

CREATE TABLE projects (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    path        TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

-- A durable session belongs to exactly one project; project_id IS NULL marks a
-- temporary session whose workspace is its own scratch directory.
CREATE TABLE sessions (
    id               TEXT PRIMARY KEY,
    project_id       TEXT REFERENCES projects (id) ON DELETE RESTRICT,
    title            TEXT NOT NULL,
    operating_mode   TEXT NOT NULL DEFAULT 'agent'
                     CHECK (operating_mode IN ('agent', 'plan', 'goal')),
    permission_mode  TEXT NOT NULL DEFAULT 'inherit'
                     CHECK (permission_mode IN ('inherit', 'ask', 'accept-edits', 'auto')),
    isolated         INTEGER NOT NULL DEFAULT 0 CHECK (isolated IN (0, 1)),
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    archived_at      INTEGER
);

CREATE INDEX sessions_by_project ON sessions (project_id, created_at DESC);

CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
