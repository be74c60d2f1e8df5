-- Workspace deliverables (spec §4b, issue 23): one row per file a session's
-- Write or Edit left in its workspace. Scratch, visualization, external and
-- skill paths are never recorded. The row drives the Files pane's list;
-- rolled-back or deleted files leave it. Removed with the session by
-- backend/artifact, like review_changes (no foreign key).
CREATE TABLE artifacts (
    id                INTEGER PRIMARY KEY,
    session_id        TEXT NOT NULL,
    path              TEXT NOT NULL,       -- workspace-relative, '/'-separated
    first_message_id  TEXT NOT NULL,       -- the message that first wrote it
    last_message_id   TEXT NOT NULL,       -- the message that wrote it last
    sha256            TEXT NOT NULL,       -- raw SHA-256 of its current bytes, as last seen by the host
    created_at        INTEGER NOT NULL,    -- Unix milliseconds
    updated_at        INTEGER NOT NULL,
    UNIQUE (session_id, path)
);
