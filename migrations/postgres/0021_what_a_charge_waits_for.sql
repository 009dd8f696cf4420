-- What a charge waits for, kept by the engine: the step that acted last, when the next one acts,
-- and the day a pause ends by itself. A debtor may name the policy its new charges follow.
ALTER TABLE charges ADD COLUMN current_step_id TEXT COLLATE "C";
ALTER TABLE charges ADD COLUMN next_action_at TEXT COLLATE "C";
ALTER TABLE charges ADD COLUMN paused_until TEXT COLLATE "C";
ALTER TABLE debtors ADD COLUMN default_cp_id TEXT COLLATE "C";
