-- The optional per-project command run once in each new isolated worktree
-- (spec §4e). Kept with the project, never read from the repository, so
-- cloning a repository can never make the app run a command.
ALTER TABLE projects ADD COLUMN setup_command TEXT NOT NULL DEFAULT '';
