-- The debtor's search keys copied onto its charges (issue 8), so that `q=` on the charge list
-- is answered from index ranges on the charges alone: a name prefix such as `ana` matches tens
-- of thousands of charges among a million, and reaching them through the debtors meant reading
-- every one of them (and again to count them). The store writes the keys when a charge is
-- inserted (from its debtor's row) and rewrites them, in the same transaction, when a debtor's
-- name or document changes.
ALTER TABLE charges ADD COLUMN search_debtor_name TEXT NOT NULL DEFAULT '';
ALTER TABLE charges ADD COLUMN search_debtor_document TEXT NOT NULL DEFAULT '';
UPDATE charges SET search_debtor_name = d.search_name, search_debtor_document = d.search_document
    FROM debtors d WHERE d.id = charges.debtor_id;

-- Per organization, each search key, then the status: a prefix range counts its matches from
-- the index alone, with or without a status filter (src/store/charges.rs, `search_charges`).
CREATE INDEX charges_org_search_debtor_name ON charges (organization_id, search_debtor_name, status);
CREATE INDEX charges_org_search_debtor_document ON charges (organization_id, search_debtor_document, status);
DROP INDEX charges_org_search_external;
CREATE INDEX charges_org_search_external ON charges (organization_id, search_external, status);
