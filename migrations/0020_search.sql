-- Search across every session's messages and tool calls (backend/history).
-- search_docs holds the searchable text of each finished message (its text
-- blocks) and each finished tool call (tool name, arguments, what the model
-- received); search_index is an FTS5 index over it with the trigram
-- tokenizer, so a code fragment or part of a word matches. Triggers keep
-- both in the same transaction as the transcript row they describe; rows
-- still streaming or running are left out until they finish, so a long
-- answer is indexed once, not on every streamed update.

CREATE TABLE search_docs (
    id          INTEGER PRIMARY KEY,          -- search_index's rowid: stable
    kind        TEXT NOT NULL CHECK (kind IN ('message', 'tool_call')),
    ref_id      TEXT NOT NULL UNIQUE,         -- agent_messages.id or agent_tool_calls.id
    session_id  TEXT NOT NULL,
    message_id  TEXT NOT NULL,                -- the message a hit opens at
    created_at  INTEGER NOT NULL,
    body        TEXT NOT NULL
);

CREATE VIRTUAL TABLE search_index USING fts5(
    body, content = 'search_docs', content_rowid = 'id', tokenize = 'trigram'
);

CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_index (rowid, body) VALUES (NEW.id, NEW.body);
END;

CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_index (search_index, rowid, body) VALUES ('delete', OLD.id, OLD.body);
END;

-- A message's text: its text blocks in order. Content that is not valid
-- JSON indexes as nothing rather than failing the transcript's write.
CREATE VIEW search_message_text AS
SELECT m.id AS id,
       (SELECT group_concat(json_extract(b.value, '$.text'), char(10))
          FROM json_each(CASE WHEN json_valid(m.content) THEN m.content ELSE '[]' END) AS b
         WHERE json_extract(b.value, '$.type') = 'text') AS body
  FROM agent_messages AS m;

CREATE TRIGGER agent_messages_search_ai AFTER INSERT ON agent_messages
WHEN NEW.kind <> 'model' OR NEW.stop_reason <> '' BEGIN
    INSERT INTO search_docs (kind, ref_id, session_id, message_id, created_at, body)
    SELECT 'message', NEW.id, NEW.session_id, NEW.id, NEW.created_at, t.body
      FROM search_message_text AS t
     WHERE t.id = NEW.id AND t.body IS NOT NULL AND t.body <> '';
END;

CREATE TRIGGER agent_messages_search_au AFTER UPDATE OF content, stop_reason ON agent_messages
WHEN NEW.kind <> 'model' OR NEW.stop_reason <> '' BEGIN
    DELETE FROM search_docs WHERE ref_id = NEW.id;
    INSERT INTO search_docs (kind, ref_id, session_id, message_id, created_at, body)
    SELECT 'message', NEW.id, NEW.session_id, NEW.id, NEW.created_at, t.body
      FROM search_message_text AS t
     WHERE t.id = NEW.id AND t.body IS NOT NULL AND t.body <> '';
END;

CREATE TRIGGER agent_messages_search_ad AFTER DELETE ON agent_messages BEGIN
    DELETE FROM search_docs WHERE ref_id = OLD.id;
END;

CREATE TRIGGER agent_tool_calls_search_ai AFTER INSERT ON agent_tool_calls
WHEN NEW.state NOT IN ('pending', 'running') BEGIN
    INSERT INTO search_docs (kind, ref_id, session_id, message_id, created_at, body)
    VALUES ('tool_call', NEW.id, NEW.session_id, NEW.message_id, NEW.created_at,
            NEW.tool || ' ' || NEW.args || char(10) || NEW.model_text);
END;

CREATE TRIGGER agent_tool_calls_search_au AFTER UPDATE OF state, args, model_text ON agent_tool_calls
WHEN NEW.state NOT IN ('pending', 'running') BEGIN
    DELETE FROM search_docs WHERE ref_id = NEW.id;
    INSERT INTO search_docs (kind, ref_id, session_id, message_id, created_at, body)
    VALUES ('tool_call', NEW.id, NEW.session_id, NEW.message_id, NEW.created_at,
            NEW.tool || ' ' || NEW.args || char(10) || NEW.model_text);
END;

CREATE TRIGGER agent_tool_calls_search_ad AFTER DELETE ON agent_tool_calls BEGIN
    DELETE FROM search_docs WHERE ref_id = OLD.id;
END;

-- Back-fill what was written before this migration, oldest first.
INSERT INTO search_docs (kind, ref_id, session_id, message_id, created_at, body)
SELECT 'message', m.id, m.session_id, m.id, m.created_at, t.body
  FROM agent_messages AS m JOIN search_message_text AS t ON t.id = m.id
 WHERE (m.kind <> 'model' OR m.stop_reason <> '') AND t.body IS NOT NULL AND t.body <> ''
 ORDER BY m.seq;

INSERT INTO search_docs (kind, ref_id, session_id, message_id, created_at, body)
SELECT 'tool_call', c.id, c.session_id, c.message_id, c.created_at,
       c.tool || ' ' || c.args || char(10) || c.model_text
  FROM agent_tool_calls AS c
 WHERE c.state NOT IN ('pending', 'running')
 ORDER BY c.created_at, c.rowid;
