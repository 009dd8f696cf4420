-- The engine reads only due work. Charges whose next action has come, and paused charges whose
-- pause ends, are found on indexes of their own; the pending charges to turn overdue and the
-- charges of a rescheduled policy are read in (due date, id) order on an index that carries
-- that order, so no page needs a sort.
CREATE INDEX charges_org_next_action ON charges (organization_id, next_action_at, due_date) WHERE next_action_at IS NOT NULL;
CREATE INDEX charges_org_paused_until ON charges (organization_id, paused_until) WHERE paused_until IS NOT NULL;
DROP INDEX charges_org_status_due;
CREATE INDEX charges_org_status_due ON charges (organization_id, status, due_date, id);
-- Next actions now follow the engine's own rules (never before the step or policy existed, nor
-- older than the catch-up days): the next pass computes every policy's charges again.
UPDATE collection_policies SET scheduled_version = NULL;
