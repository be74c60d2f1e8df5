-- Path-scoped instructions (issue 18): the AGENTS.md / CLAUDE.md files of the
-- folders a tool call's path reached, loaded into the model's context with
-- that call's result (model_text carries their text). instructions is the
-- JSON list of {path, size, loaded, truncated?, skipped?} the transcript
-- shows beside the call; '' for none.
ALTER TABLE agent_tool_calls ADD COLUMN instructions TEXT NOT NULL DEFAULT '';
