-- Delegations (issue 16, spec §10.2): a Task call of a parent turn starts a
-- delegate, a model loop of its own under a subagent definition. A delegate's
-- conversation lives in the same transcript tables as the parent's (one home
-- for transcripts: the same writer, the same restart handling): its turn row
-- carries delegation_id, and the parent's transcript and model context read
-- only the turns whose delegation_id is ''. A delegate reaches its parent's
-- model only through its report. Rows go with their session.
ALTER TABLE agent_turns ADD COLUMN delegation_id TEXT NOT NULL DEFAULT '';

CREATE INDEX agent_turns_delegated ON agent_turns (delegation_id) WHERE delegation_id != '';

-- One delegate run. turn_id is the delegate's own turn (agent_turns); the
-- parent's turn and tool call are the Task call that started it. A delegation
-- still 'running' or 'waiting' at startup was cut by a restart: it becomes
-- 'interrupted' and is never replayed. report is the delegate's last
-- assistant text (its partial report when it failed or was stopped).
CREATE TABLE delegations (
    id                   TEXT PRIMARY KEY,
    session_id           TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    parent_turn_id       TEXT NOT NULL,
    parent_tool_call_id  TEXT NOT NULL,
    turn_id              TEXT NOT NULL,
    subagent             TEXT NOT NULL,
    source               TEXT NOT NULL,                 -- builtin | user | project
    description          TEXT NOT NULL DEFAULT '',
    prompt               TEXT NOT NULL,
    state                TEXT NOT NULL DEFAULT 'running'
                         CHECK (state IN ('running', 'waiting', 'done', 'failed', 'stopped', 'interrupted')),
    report               TEXT NOT NULL DEFAULT '',
    error_code           TEXT NOT NULL DEFAULT '',
    error_message        TEXT NOT NULL DEFAULT '',
    turns_used           INTEGER NOT NULL DEFAULT 0,
    tool_count           INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL,
    finished_at          INTEGER
);

CREATE INDEX delegations_by_session ON delegations (session_id, created_at);
CREATE INDEX delegations_running ON delegations (state) WHERE state IN ('running', 'waiting');
