-- Images (issue 17): a provider's explicit "Supports images" choice (NULL =
-- follow the model family), and the image references of a tool call's
-- result, so building a request reads them without parsing every result.
-- The images themselves live in <data dir>/attachments/<sha256>, never here.
ALTER TABLE providers ADD COLUMN supports_images INTEGER CHECK (supports_images IN (0, 1));
ALTER TABLE agent_tool_calls ADD COLUMN images TEXT NOT NULL DEFAULT '';
