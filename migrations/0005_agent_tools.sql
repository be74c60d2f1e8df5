-- The agent's runtime-owned tools (backend/agent): the session checklist
-- (TodoWrite) and Plan/Goal proposals (SubmitPlan/SubmitGoal). Rows go with
-- their session (ON DELETE CASCADE).

-- The latest TodoWrite snapshot of a session: the whole ordered checklist as
-- a JSON array of {content, status, activeForm?}. Each TodoWrite replaces it.
CREATE TABLE agent_todos (
    session_id   TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    todos        TEXT NOT NULL DEFAULT '[]',
    turn_id      TEXT NOT NULL DEFAULT '',
    tool_call_id TEXT NOT NULL DEFAULT '',
    updated_at   INTEGER NOT NULL
);

-- One SubmitPlan/SubmitGoal proposal. The Markdown lives byte-exact in the
-- workspace artifact (path relative to the workspace root, its SHA-256 and
-- size recorded here); the copy in markdown is for the approval card.
-- version numbers a session's proposals from 1. A proposal is decided while
-- its turn waits; one still 'pending' at startup was cut by a restart and
-- becomes 'interrupted' (it can no longer be decided). permission_mode is the
-- mode chosen on approval.
CREATE TABLE agent_proposals (
    id               TEXT PRIMARY KEY,
    session_id       TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id          TEXT NOT NULL,
    tool_call_id     TEXT NOT NULL,
    kind             TEXT NOT NULL CHECK (kind IN ('plan', 'goal')),
    version          INTEGER NOT NULL,
    title            TEXT NOT NULL,
    question         TEXT NOT NULL,
    markdown         TEXT NOT NULL,                 -- shown on the card; the artifact is the record
    path             TEXT NOT NULL,
    sha256           TEXT NOT NULL,
    size             INTEGER NOT NULL,
    state            TEXT NOT NULL DEFAULT 'pending'
                     CHECK (state IN ('pending', 'approved', 'rejected', 'cancelled', 'interrupted')),
    permission_mode  TEXT NOT NULL DEFAULT '',
    feedback         TEXT NOT NULL DEFAULT '',
    created_at       INTEGER NOT NULL,
    resolved_at      INTEGER,
    UNIQUE (session_id, version)
);

CREATE INDEX agent_proposals_pending ON agent_proposals (state) WHERE state = 'pending';
