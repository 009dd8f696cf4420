-- As migrations/sqlite/0003: search keys, per-status charge counts, list indexes. The counts'
-- triggers are the one place the dialects differ (PL/pgSQL here, row triggers in SQLite).
ALTER TABLE debtors ADD COLUMN search_name TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE debtors ADD COLUMN search_document TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE charges ADD COLUMN search_external TEXT COLLATE "C" NOT NULL DEFAULT '';
CREATE INDEX debtors_org_search_name ON debtors (organization_id, search_name);
CREATE INDEX debtors_org_search_document ON debtors (organization_id, search_document);
CREATE INDEX charges_org_search_external ON charges (organization_id, search_external);

DROP INDEX charges_org_created;
CREATE INDEX charges_org_created ON charges (organization_id, created_at, id);
CREATE INDEX charges_org_due ON charges (organization_id, due_date, id);
CREATE INDEX charges_org_amount ON charges (organization_id, amount_cents, id);
CREATE INDEX charges_org_updated ON charges (organization_id, updated_at, id);
DROP INDEX debtors_org_created;
CREATE INDEX debtors_org_created ON debtors (organization_id, created_at, id);
DROP INDEX debtors_org_name;
CREATE INDEX debtors_org_name ON debtors (organization_id, name, id);

CREATE TABLE charge_status_counts (
    organization_id TEXT COLLATE "C" NOT NULL,
    status          TEXT COLLATE "C" NOT NULL,
    n               BIGINT NOT NULL,
    PRIMARY KEY (organization_id, status)
);
INSERT INTO charge_status_counts (organization_id, status, n)
    SELECT organization_id, status, COUNT(*) FROM charges GROUP BY organization_id, status;

-- Statement-level triggers over transition tables: one upsert per statement and status, not
-- one per row (a bulk insert would otherwise rewrite the same count row thousands of times).
-- Rows are upserted in (organization, status) order, so concurrent writers lock them in the
-- same order and cannot deadlock.
CREATE FUNCTION charges_count_insert() RETURNS trigger AS $$
BEGIN
    INSERT INTO charge_status_counts AS c (organization_id, status, n)
        SELECT organization_id, status, COUNT(*) FROM new_rows
        GROUP BY organization_id, status ORDER BY organization_id, status
    ON CONFLICT (organization_id, status) DO UPDATE SET n = c.n + EXCLUDED.n;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION charges_count_update() RETURNS trigger AS $$
BEGIN
    INSERT INTO charge_status_counts AS c (organization_id, status, n)
        SELECT organization_id, status, SUM(delta) FROM (
            SELECT organization_id, status, 1 AS delta FROM new_rows
            UNION ALL
            SELECT organization_id, status, -1 AS delta FROM old_rows
        ) AS moved
        GROUP BY organization_id, status HAVING SUM(delta) <> 0 ORDER BY organization_id, status
    ON CONFLICT (organization_id, status) DO UPDATE SET n = c.n + EXCLUDED.n;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION charges_count_delete() RETURNS trigger AS $$
BEGIN
    INSERT INTO charge_status_counts AS c (organization_id, status, n)
        SELECT organization_id, status, -COUNT(*) FROM old_rows
        GROUP BY organization_id, status ORDER BY organization_id, status
    ON CONFLICT (organization_id, status) DO UPDATE SET n = c.n + EXCLUDED.n;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER charges_count_insert AFTER INSERT ON charges
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charges_count_insert();
CREATE TRIGGER charges_count_update AFTER UPDATE ON charges
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charges_count_update();
CREATE TRIGGER charges_count_delete AFTER DELETE ON charges
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION charges_count_delete();
