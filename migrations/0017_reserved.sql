-- Placeholder on the i-checkpoints branch only: checkpoints were assigned
-- migration 0019 while 0016-0018 belong to branches not merged yet, and
-- versions must have no gaps. Delete this file at the merge, where the
-- real 0017 arrives.
SELECT 1;
