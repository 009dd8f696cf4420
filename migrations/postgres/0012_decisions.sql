-- Decisions on charges: why a charge was written off, and the last decision a person took
-- after an escalation step stopped its régua (JSON: decision, reason, decided_at).
ALTER TABLE charges ADD COLUMN write_off_reason TEXT;
ALTER TABLE charges ADD COLUMN decision TEXT;
