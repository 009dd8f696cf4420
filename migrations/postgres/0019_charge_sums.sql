-- The per-status counts also keep the amounts and what was paid, so that a list filtered by
-- status alone says its totals (meta.amount_sum, meta.balance_sum) without reading every charge.
ALTER TABLE charge_status_counts ADD COLUMN amount_cents BIGINT NOT NULL DEFAULT 0;
ALTER TABLE charge_status_counts ADD COLUMN paid_cents BIGINT NOT NULL DEFAULT 0;
UPDATE charge_status_counts s SET amount_cents = t.amount_cents, paid_cents = t.paid_cents
    FROM (SELECT organization_id, status, SUM(amount_cents) AS amount_cents, SUM(paid_cents) AS paid_cents
          FROM charges GROUP BY organization_id, status) t
    WHERE s.organization_id = t.organization_id AND s.status = t.status;

CREATE OR REPLACE FUNCTION charges_count_insert() RETURNS trigger AS $$
BEGIN
    INSERT INTO charge_status_counts AS c (organization_id, status, n, amount_cents, paid_cents)
        SELECT organization_id, status, COUNT(*), SUM(amount_cents), SUM(paid_cents) FROM new_rows
        GROUP BY organization_id, status ORDER BY organization_id, status
    ON CONFLICT (organization_id, status) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION charges_count_update() RETURNS trigger AS $$
BEGIN
    INSERT INTO charge_status_counts AS c (organization_id, status, n, amount_cents, paid_cents)
        SELECT organization_id, status, SUM(delta), SUM(amount), SUM(paid) FROM (
            SELECT organization_id, status, 1 AS delta, amount_cents AS amount, paid_cents AS paid FROM new_rows
            UNION ALL
            SELECT organization_id, status, -1 AS delta, -amount_cents, -paid_cents FROM old_rows
        ) AS moved
        GROUP BY organization_id, status
        HAVING SUM(delta) <> 0 OR SUM(amount) <> 0 OR SUM(paid) <> 0
        ORDER BY organization_id, status
    ON CONFLICT (organization_id, status) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION charges_count_delete() RETURNS trigger AS $$
BEGIN
    INSERT INTO charge_status_counts AS c (organization_id, status, n, amount_cents, paid_cents)
        SELECT organization_id, status, -COUNT(*), -SUM(amount_cents), -SUM(paid_cents) FROM old_rows
        GROUP BY organization_id, status ORDER BY organization_id, status
    ON CONFLICT (organization_id, status) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
