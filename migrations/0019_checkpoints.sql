-- Shadow-git checkpoints of a session's workspace (issue 20). One row per
-- checkpoint; the snapshot itself is a commit in the workspace's shadow
-- repository under <data>/checkpoints/<shadow>/. Rows go with their session
-- (backend/checkpoint DeleteSession, and the cascade); the last 100 per
-- session are kept.
CREATE TABLE checkpoints (
    seq            INTEGER PRIMARY KEY,             -- insertion order
    id             TEXT NOT NULL UNIQUE,
    session_id     TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id        TEXT NOT NULL DEFAULT '',
    message_id     TEXT NOT NULL DEFAULT '',
    tool_call_id   TEXT NOT NULL DEFAULT '',
    kind           TEXT NOT NULL
                   CHECK (kind IN ('before-first-mutation', 'after-bash', 'end-of-turn', 'before-restore', 'after-restore')),
    workspace      TEXT NOT NULL,                   -- absolute folder the snapshot is of
    shadow         TEXT NOT NULL,                   -- shadow folder name under <data>/checkpoints
    tree_id        TEXT NOT NULL DEFAULT '',
    commit_id      TEXT NOT NULL DEFAULT '',
    captured       INTEGER NOT NULL CHECK (captured IN (0, 1)),
    reason         TEXT NOT NULL DEFAULT '',        -- why not captured
    files_changed  INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL                 -- Unix milliseconds
);

CREATE INDEX checkpoints_by_session ON checkpoints (session_id, seq);
CREATE INDEX checkpoints_by_shadow ON checkpoints (shadow, session_id);
