-- The version of a policy its charges' next_action_at was last computed against: when a policy
-- or one of its steps changes, the engine's next pass computes its charges' again.
ALTER TABLE collection_policies ADD COLUMN scheduled_version BIGINT;
