-- How many times a builder took an export: one whose build keeps failing (or whose builder keeps
-- dying) ends `failed` after a few attempts instead of staying `processing` for ever.
ALTER TABLE exports ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
