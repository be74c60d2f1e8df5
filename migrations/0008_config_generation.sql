-- One counter that every change to projects, sessions or settings bumps in
-- the same transaction, whoever makes it (the app, `pi-desktop tool`/`run`
-- on the same data directory, a hand edit). A process may cache what it
-- read from those tables only while the counter is unchanged, so a mode or
-- permission change is seen by the very next tool call of every process.
CREATE TABLE config_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT INTO config_generation (id, n) VALUES (1, 0);

CREATE TRIGGER projects_gen_insert AFTER INSERT ON projects BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER projects_gen_update AFTER UPDATE ON projects BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER projects_gen_delete AFTER DELETE ON projects BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sessions_gen_insert AFTER INSERT ON sessions BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sessions_gen_update AFTER UPDATE ON sessions BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sessions_gen_delete AFTER DELETE ON sessions BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER settings_gen_insert AFTER INSERT ON settings BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER settings_gen_update AFTER UPDATE ON settings BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER settings_gen_delete AFTER DELETE ON settings BEGIN UPDATE config_generation SET n = n + 1 WHERE id = 1; END;
