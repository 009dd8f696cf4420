-- The title a protest step without approval files (its number: each charge's external_id).
ALTER TABLE collection_policy_steps ADD COLUMN title_type TEXT COLLATE "C";
