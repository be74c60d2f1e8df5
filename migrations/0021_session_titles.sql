-- A session created without a title gets a placeholder ("New session Dec 1
-- 13:13") that its first prompt replaces (issue 21); title_auto marks the
-- placeholder, and a rename by the user clears it. Sessions that never ran
-- a turn keep waiting for their first prompt.
ALTER TABLE sessions ADD COLUMN title_auto INTEGER NOT NULL DEFAULT 0 CHECK (title_auto IN (0, 1));

UPDATE sessions SET title_auto = 1
 WHERE title LIKE 'New session %'
   AND NOT EXISTS (SELECT 1 FROM agent_turns AS t WHERE t.session_id = sessions.id);
