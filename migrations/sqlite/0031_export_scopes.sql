-- The scopes of the token that queued an export (space-separated): an events export holds only
-- the events that token could read. NULL for exports queued before they were recorded.
ALTER TABLE exports ADD COLUMN scopes TEXT;
