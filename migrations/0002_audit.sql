-- One row per tool call, denied and failed calls included (spec §9).
-- Append-only: rows outlive their session so the record survives deletion.
CREATE TABLE audit (
    id                 INTEGER PRIMARY KEY,
    trace_id           TEXT NOT NULL,
    session_id         TEXT NOT NULL,
    turn_id            TEXT NOT NULL DEFAULT '',
    tool_call_id       TEXT NOT NULL DEFAULT '',
    tool               TEXT NOT NULL,
    delegate           TEXT NOT NULL DEFAULT '',
    args_hash          TEXT NOT NULL,
    args_preview       TEXT NOT NULL,
    path_root          TEXT NOT NULL DEFAULT '',
    external_path      INTEGER NOT NULL DEFAULT 0 CHECK (external_path IN (0, 1)),
    permission_mode    TEXT NOT NULL DEFAULT '',
    operating_mode     TEXT NOT NULL DEFAULT '',
    decision           TEXT NOT NULL,
    prompted           INTEGER NOT NULL DEFAULT 0 CHECK (prompted IN (0, 1)),
    permission_wait_ms INTEGER NOT NULL DEFAULT 0,
    duration_ms        INTEGER NOT NULL DEFAULT 0,
    overhead_ms        INTEGER NOT NULL DEFAULT 0,
    total_ms           INTEGER NOT NULL DEFAULT 0,
    ok                 INTEGER NOT NULL CHECK (ok IN (0, 1)),
    error_code         TEXT NOT NULL DEFAULT '',
    created_at         INTEGER NOT NULL
);

CREATE INDEX audit_by_session ON audit (session_id, id);
