-- Installed plugins (issue 22). One row per plugin id: the version in use,
-- where it is installed (<data dir>/plugins/<id>/<version>), the manifest
-- as installed (what the catalog and the consent card show), the consent
-- hash of the manifest and every file, and the hash the user consented to.
-- A plugin runs only while consent_hash = content_hash.
CREATE TABLE plugins (
    id            TEXT PRIMARY KEY,
    version       TEXT NOT NULL,
    path          TEXT NOT NULL,
    manifest      BLOB NOT NULL,
    content_hash  TEXT NOT NULL,
    enabled       INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    consent_hash  TEXT NOT NULL DEFAULT '',
    consented_at  INTEGER NOT NULL DEFAULT 0,   -- Unix milliseconds; 0 = never
    installed_at  INTEGER NOT NULL              -- Unix milliseconds
);

-- A project's own choice, over the plugin's app-wide enabled.
CREATE TABLE plugin_projects (
    plugin_id   TEXT NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (plugin_id, project_id)
);
