-- Reserved for migration 0020 of another branch (issue "instructions"); it
-- only keeps the version numbers without a gap until that lands, and is to
-- be replaced by (or dropped for) that branch's 0020 at merge.
SELECT 1;
