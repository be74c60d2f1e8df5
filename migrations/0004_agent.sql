-- The agent transcript (backend/agent): turns, messages, tool calls and
-- context checkpoints, written as they happen so a restart restores a session
-- exactly. Rows go with their session (ON DELETE CASCADE).

-- One user prompt is one turn. A turn still 'running' at startup was cut by a
-- crash or a kill: it becomes 'interrupted' and is never replayed.
CREATE TABLE agent_turns (
    id             TEXT PRIMARY KEY,
    session_id     TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    prompt         TEXT NOT NULL,
    state          TEXT NOT NULL DEFAULT 'running'
                   CHECK (state IN ('running', 'done', 'failed', 'aborted', 'interrupted')),
    error_code     TEXT NOT NULL DEFAULT '',
    error_message  TEXT NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    ended_at       INTEGER
);

CREATE INDEX agent_turns_by_session ON agent_turns (session_id, created_at);
CREATE INDEX agent_turns_running ON agent_turns (state) WHERE state = 'running';

-- Messages in conversation order (seq). content is the JSON array of
-- provider.Block, in order. Tool results are not stored here: they are the
-- rows of agent_tool_calls linked to the assistant message, in position order.
--   kind 'prompt'   the user's prompt (role user)
--   kind 'model'    an assistant response, updated while it streams
--   kind 'summary'  a compaction summary (shown; the checkpoint carries it)
-- stop_reason is '' while streaming, then the provider's reason
-- (end_turn, tool_use, max_tokens, other) or 'aborted', 'failed' (a broken
-- stream that was retried or ended the turn) or 'interrupted' (restart).
CREATE TABLE agent_messages (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id      TEXT NOT NULL REFERENCES agent_turns (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    kind         TEXT NOT NULL CHECK (kind IN ('prompt', 'model', 'summary')),
    content      TEXT NOT NULL DEFAULT '[]',
    stop_reason  TEXT NOT NULL DEFAULT '',
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);

CREATE INDEX agent_messages_by_session ON agent_messages (session_id, seq);

-- One row per tool_use block of an assistant message, written as 'pending'
-- before any call of the batch runs. result is the full tools.Result JSON
-- (review records included); model_text is exactly what the model received.
CREATE TABLE agent_tool_calls (
    id           TEXT PRIMARY KEY,                -- the host tool call id (ours)
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id      TEXT NOT NULL,
    message_id   TEXT NOT NULL REFERENCES agent_messages (id) ON DELETE CASCADE,
    tool_use_id  TEXT NOT NULL,                   -- the model's id, for tool_result
    position     INTEGER NOT NULL,                -- source order in the message
    tool         TEXT NOT NULL,
    args         TEXT NOT NULL,
    state        TEXT NOT NULL DEFAULT 'pending'
                 CHECK (state IN ('pending', 'running', 'done', 'failed', 'aborted', 'skipped', 'interrupted')),
    result       TEXT NOT NULL DEFAULT '',
    model_text   TEXT NOT NULL DEFAULT '',
    is_error     INTEGER NOT NULL DEFAULT 0 CHECK (is_error IN (0, 1)),
    error_code   TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    finished_at  INTEGER,
    UNIQUE (message_id, position)
);

CREATE INDEX agent_tool_calls_by_session ON agent_tool_calls (session_id, message_id, position);

-- A context checkpoint: the messages (JSON []provider.Message: retained user
-- messages, the summary, a continuation) that replace every message with
-- seq <= upto_seq in the next model request. The latest one wins; the full
-- transcript stays for the UI.
CREATE TABLE agent_checkpoints (
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE,
    session_id     TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id        TEXT NOT NULL,
    upto_seq       INTEGER NOT NULL,
    messages       TEXT NOT NULL,
    summary        TEXT NOT NULL,
    retained       TEXT NOT NULL DEFAULT '[]',    -- JSON []string: user messages kept (clipped)
    tokens_before  INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL
);

CREATE INDEX agent_checkpoints_by_session ON agent_checkpoints (session_id, seq);
