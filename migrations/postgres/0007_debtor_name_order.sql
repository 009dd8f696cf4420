-- As migrations/sqlite/0007: debtors in name order by their folded name (search_name, whose
-- COLLATE "C" gives the byte order SQLite uses), the id breaking ties.
DROP INDEX debtors_org_name;
DROP INDEX debtors_org_search_name;
CREATE INDEX debtors_org_search_name ON debtors (organization_id, search_name, id);
