-- The OpenAI wire API a provider uses (issue 17): '' follows the default
-- (the Responses API on api.openai.com, Chat Completions for compatible
-- servers and other base URLs), 'responses' or 'chat' is the user's choice.
ALTER TABLE providers ADD COLUMN openai_api TEXT NOT NULL DEFAULT '' CHECK (openai_api IN ('', 'responses', 'chat'));
