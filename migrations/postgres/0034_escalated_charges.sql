-- Charges are listed by their credit-bureau and protest status. Few charges are ever escalated,
-- so each filter reads a partial index of those charges alone: an ordinary list and every write
-- of a charge that was never escalated do not touch it.
CREATE INDEX charges_org_credit_bureau_status ON charges (organization_id, credit_bureau_status) WHERE credit_bureau_status IS NOT NULL;
CREATE INDEX charges_org_protest_status ON charges (organization_id, protest_status) WHERE protest_status IS NOT NULL;
