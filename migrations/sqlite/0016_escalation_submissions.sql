-- What the bureau or the notary was last told of a report or protest (production, through the
-- gateway): the engine sends whatever is owed (a new one, a removal, a withdrawal) until the
-- gateway takes it. The partial indexes hold only the rows with something owed.
ALTER TABLE credit_bureau_reports ADD COLUMN submitted_status TEXT;
ALTER TABLE protests ADD COLUMN submitted_status TEXT;
CREATE INDEX credit_bureau_reports_owed ON credit_bureau_reports (organization_id, created_at)
    WHERE status IN ('requested', 'canceled', 'removal_requested')
      AND (submitted_status IS NULL OR submitted_status <> status);
CREATE INDEX protests_owed ON protests (organization_id, created_at)
    WHERE status IN ('requested', 'withdrawn', 'cancellation_requested')
      AND (submitted_status IS NULL OR submitted_status <> status);
