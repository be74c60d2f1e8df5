-- Saved model providers (Settings → Models) and each session's choice among
-- them. API keys are never stored here: they live in the OS keychain or the
-- private key file, under the provider's id (backend/provider.Keys).

CREATE TABLE providers (
    id                 TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    api                TEXT NOT NULL CHECK (api IN ('anthropic', 'openai', 'openai-compatible')),
    base_url           TEXT NOT NULL DEFAULT '',
    model              TEXT NOT NULL,
    context_window     INTEGER NOT NULL DEFAULT 0 CHECK (context_window >= 0),
    max_output_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (max_output_tokens >= 0),
    temperature        REAL,
    thinking           INTEGER NOT NULL DEFAULT 0 CHECK (thinking IN (0, 1)),
    is_default         INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);

-- Names are how the composer's picker tells providers apart.
CREATE UNIQUE INDEX providers_by_name ON providers (name COLLATE NOCASE);
-- At most one default; the service keeps exactly one while any exist.
CREATE UNIQUE INDEX providers_one_default ON providers (is_default) WHERE is_default = 1;

-- A session without a row uses the default provider. Removing a provider
-- sends its sessions back to the default.
CREATE TABLE session_providers (
    session_id   TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    provider_id  TEXT NOT NULL REFERENCES providers (id) ON DELETE CASCADE
);

CREATE INDEX session_providers_by_provider ON session_providers (provider_id);
