-- A policy may count its days and send window in a time zone of its own (an IANA name);
-- NULL keeps the organization's.
ALTER TABLE collection_policies ADD COLUMN timezone TEXT;
