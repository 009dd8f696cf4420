-- What the escalation step that stopped a charge's régua proposes, kept on the charge until a
-- person decides (JSON: step_id, step_name, cp_id, action, title_type, refused, proposed_at), and
-- when each payment receiver last took a signed delivery.
ALTER TABLE charges ADD COLUMN pending_decision TEXT;
ALTER TABLE payment_receivers ADD COLUMN last_delivery_at TEXT;

-- Charges stopped before this kept only the step's id: what it proposes is read from the step.
UPDATE charges SET pending_decision = (
    SELECT json_object('step_id', s.id, 'step_name', s.name, 'cp_id', s.cp_id, 'action', s.action,
                       'title_type', s.title_type, 'refused', NULL, 'proposed_at', charges.updated_at)
    FROM collection_policy_steps s WHERE s.id = charges.current_step_id)
WHERE dunning_status = 'awaiting_decision' AND current_step_id IS NOT NULL;
