-- The indexes a search reads carry each charge's amounts: the charges of a range (a debtor's
-- later name word, a name, a document or an external id prefix) are counted and summed from
-- the index alone, and so is a debtor's open amount.
DROP INDEX charges_debtor;
CREATE INDEX charges_debtor ON charges (debtor_id, status, amount_cents, paid_cents);
DROP INDEX charges_org_search_debtor_name;
CREATE INDEX charges_org_search_debtor_name ON charges (organization_id, search_debtor_name, status, amount_cents, paid_cents);
DROP INDEX charges_org_search_debtor_document;
CREATE INDEX charges_org_search_debtor_document ON charges (organization_id, search_debtor_document, status, amount_cents, paid_cents);
DROP INDEX charges_org_search_external;
CREATE INDEX charges_org_search_external ON charges (organization_id, search_external, status, amount_cents, paid_cents);
