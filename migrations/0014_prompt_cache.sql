-- Prompt caching (issue 17): each model response's prompt-cache reads and
-- writes (parts of input_tokens, which stays the whole prompt), and a
-- provider's choice to send OpenAI's prompt_cache_key (NULL = the API's
-- default: sent to api.openai.com, not to compatible servers, many of which
-- reject fields they do not know).
ALTER TABLE agent_messages ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agent_messages ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE providers ADD COLUMN prompt_cache_key INTEGER CHECK (prompt_cache_key IN (0, 1));
