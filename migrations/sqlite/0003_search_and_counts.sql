-- Search keys, per-status charge counts and the indexes of lists that scale (issue 8).
--
-- Search keys: lower case, accents and punctuation stripped (computed by the store, which
-- also fills them for rows stored before this migration), matched as a prefix range.
ALTER TABLE debtors ADD COLUMN search_name TEXT NOT NULL DEFAULT '';
ALTER TABLE debtors ADD COLUMN search_document TEXT NOT NULL DEFAULT '';
ALTER TABLE charges ADD COLUMN search_external TEXT NOT NULL DEFAULT '';
CREATE INDEX debtors_org_search_name ON debtors (organization_id, search_name);
CREATE INDEX debtors_org_search_document ON debtors (organization_id, search_document);
CREATE INDEX charges_org_search_external ON charges (organization_id, search_external);

-- One index per sort key of the charge list, ending in the id (the tie-breaker), so a first
-- page reads its rows in order instead of sorting a million.
DROP INDEX charges_org_created;
CREATE INDEX charges_org_created ON charges (organization_id, created_at, id);
CREATE INDEX charges_org_due ON charges (organization_id, due_date, id);
CREATE INDEX charges_org_amount ON charges (organization_id, amount_cents, id);
CREATE INDEX charges_org_updated ON charges (organization_id, updated_at, id);
DROP INDEX debtors_org_created;
CREATE INDEX debtors_org_created ON debtors (organization_id, created_at, id);
DROP INDEX debtors_org_name;
CREATE INDEX debtors_org_name ON debtors (organization_id, name, id);

-- Exact charge counts per organization and status, kept by triggers in the transaction of
-- every charge write: a list's total without counting hundreds of thousands of rows.
CREATE TABLE charge_status_counts (
    organization_id TEXT NOT NULL,
    status          TEXT NOT NULL,
    n               BIGINT NOT NULL,
    PRIMARY KEY (organization_id, status)
);
INSERT INTO charge_status_counts (organization_id, status, n)
    SELECT organization_id, status, COUNT(*) FROM charges GROUP BY organization_id, status;

CREATE TRIGGER charges_count_insert AFTER INSERT ON charges
BEGIN
    INSERT OR IGNORE INTO charge_status_counts (organization_id, status, n) VALUES (NEW.organization_id, NEW.status, 0);
    UPDATE charge_status_counts SET n = n + 1 WHERE organization_id = NEW.organization_id AND status = NEW.status;
END;

CREATE TRIGGER charges_count_delete AFTER DELETE ON charges
BEGIN
    UPDATE charge_status_counts SET n = n - 1 WHERE organization_id = OLD.organization_id AND status = OLD.status;
END;

CREATE TRIGGER charges_count_update AFTER UPDATE OF organization_id, status ON charges
    WHEN OLD.organization_id <> NEW.organization_id OR OLD.status <> NEW.status
BEGIN
    UPDATE charge_status_counts SET n = n - 1 WHERE organization_id = OLD.organization_id AND status = OLD.status;
    INSERT OR IGNORE INTO charge_status_counts (organization_id, status, n) VALUES (NEW.organization_id, NEW.status, 0);
    UPDATE charge_status_counts SET n = n + 1 WHERE organization_id = NEW.organization_id AND status = NEW.status;
END;
