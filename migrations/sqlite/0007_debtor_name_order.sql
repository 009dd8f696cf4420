-- sort_by=name orders debtors by their folded name (issue 10): accents and case no longer put
-- "Ângela" after "Yara". The folded key's index gains the id, the tie-breaker, so it serves
-- both the prefix search and a page in name order; the index on the name as written goes.
DROP INDEX debtors_org_name;
DROP INDEX debtors_org_search_name;
CREATE INDEX debtors_org_search_name ON debtors (organization_id, search_name, id);
