-- Message-owned review records (spec §4c). One row per recorded workspace
-- change; the pre-tool bytes live in <data>/reviews/<session_id>/<snapshot_id>.
-- No foreign key to sessions: rows are removed with their session by
-- backend/review, and a session row may go first.
CREATE TABLE review_changes (
    id              INTEGER PRIMARY KEY,             -- insertion order
    snapshot_id     TEXT NOT NULL UNIQUE,
    session_id      TEXT NOT NULL,
    message_id      TEXT NOT NULL,
    tool_call_id    TEXT NOT NULL DEFAULT '',
    group_id        TEXT NOT NULL DEFAULT '',        -- shared by the two halves of an MV
    path            TEXT NOT NULL,                   -- workspace-relative, '/'-separated
    abs_path        TEXT NOT NULL,                   -- canonical absolute path when recorded
    state           TEXT NOT NULL DEFAULT 'active'
                    CHECK (state IN ('active', 'rolledBack')),
    record          TEXT NOT NULL,                   -- JSON of the ReviewChange as first shown
    before_present  INTEGER NOT NULL CHECK (before_present IN (0, 1)),
    before_mode     INTEGER NOT NULL DEFAULT 0,      -- permission bits of the pre-tool file
    before_sha256   TEXT NOT NULL DEFAULT '',        -- raw SHA-256 of the kept snapshot file
    after_present   INTEGER NOT NULL CHECK (after_present IN (0, 1)),
    after_sha256    TEXT NOT NULL DEFAULT '',        -- raw SHA-256 of the bytes the tool left
    after_size      INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    rolled_back_at  INTEGER
);

CREATE INDEX review_changes_by_message ON review_changes (session_id, message_id, id);
CREATE INDEX review_changes_by_group ON review_changes (session_id, group_id) WHERE group_id <> '';
