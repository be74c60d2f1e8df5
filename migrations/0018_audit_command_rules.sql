-- What the command rules said of a command (issue 19), as JSON: the
-- classifier's decision, the rules that matched, whether they spared the
-- card, and the rule an "Always allow" answer saved. '' for other tools.
ALTER TABLE audit ADD COLUMN command_rules TEXT NOT NULL DEFAULT '';
