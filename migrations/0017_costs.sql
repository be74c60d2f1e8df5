-- What a turn costs (issue 17).
--
-- A provider's own prices, overriding the built-in table field by field
-- (NULL = the table's price), in micro-dollars per million tokens.
ALTER TABLE providers ADD COLUMN price_input INTEGER CHECK (price_input >= 0);
ALTER TABLE providers ADD COLUMN price_output INTEGER CHECK (price_output >= 0);
ALTER TABLE providers ADD COLUMN price_cache_write INTEGER CHECK (price_cache_write >= 0);
ALTER TABLE providers ADD COLUMN price_cache_read INTEGER CHECK (price_cache_read >= 0);

-- Each model response's cost at the price in effect when it was made, in
-- pico-dollars (NULL = unknown: a local server, a model without a price),
-- and the saved provider and model that made it. A later price edit never
-- rewrites them; cost_profile_id has no foreign key, so a removed
-- provider's spend stays where it was.
ALTER TABLE agent_messages ADD COLUMN cost INTEGER;
ALTER TABLE agent_messages ADD COLUMN cost_profile_id TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_messages ADD COLUMN cost_model TEXT NOT NULL DEFAULT '';

-- Settings' spend per day reads the last 30 days of model responses.
CREATE INDEX agent_messages_by_time ON agent_messages (created_at) WHERE role = 'assistant';
