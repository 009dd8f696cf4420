-- As migrations/sqlite/0004: the debtor's search keys copied onto its charges, filled here
-- for the charges already stored, and indexed per organization with the status.
ALTER TABLE charges ADD COLUMN search_debtor_name TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE charges ADD COLUMN search_debtor_document TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE charges SET search_debtor_name = d.search_name, search_debtor_document = d.search_document
    FROM debtors d WHERE d.id = charges.debtor_id;

CREATE INDEX charges_org_search_debtor_name ON charges (organization_id, search_debtor_name, status);
CREATE INDEX charges_org_search_debtor_document ON charges (organization_id, search_debtor_document, status);
DROP INDEX charges_org_search_external;
CREATE INDEX charges_org_search_external ON charges (organization_id, search_external, status);
