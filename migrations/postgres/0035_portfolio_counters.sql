-- As migrations/sqlite/0035: the portfolio's counts, kept by statement-level triggers over
-- transition tables like charge_status_counts (one upsert per statement and key, in key order).
CREATE TABLE open_charge_due_counts (
    organization_id TEXT COLLATE "C" NOT NULL,
    due_date        TEXT COLLATE "C" NOT NULL,
    n               BIGINT NOT NULL,
    amount_cents    BIGINT NOT NULL,
    paid_cents      BIGINT NOT NULL,
    PRIMARY KEY (organization_id, due_date)
);
INSERT INTO open_charge_due_counts (organization_id, due_date, n, amount_cents, paid_cents)
    SELECT organization_id, due_date, COUNT(*), SUM(amount_cents), SUM(paid_cents) FROM charges
    WHERE status IN ('pending', 'overdue') GROUP BY organization_id, due_date;

-- step_id '' : no step has acted yet.
CREATE TABLE charge_stage_counts (
    organization_id TEXT COLLATE "C" NOT NULL,
    dunning_status  TEXT COLLATE "C" NOT NULL,
    step_id         TEXT COLLATE "C" NOT NULL,
    n               BIGINT NOT NULL,
    amount_cents    BIGINT NOT NULL,
    paid_cents      BIGINT NOT NULL,
    PRIMARY KEY (organization_id, dunning_status, step_id)
);
INSERT INTO charge_stage_counts (organization_id, dunning_status, step_id, n, amount_cents, paid_cents)
    SELECT organization_id, dunning_status, COALESCE(current_step_id, ''), COUNT(*), SUM(amount_cents),
        SUM(paid_cents) FROM charges GROUP BY organization_id, dunning_status, COALESCE(current_step_id, '');

-- hour: the paid_at's first 13 characters (stored instants are UTC, `2026-12-07T14`).
CREATE TABLE charge_paid_hours (
    organization_id TEXT COLLATE "C" NOT NULL,
    hour            TEXT COLLATE "C" NOT NULL,
    n               BIGINT NOT NULL,
    paid_cents      BIGINT NOT NULL,
    PRIMARY KEY (organization_id, hour)
);
INSERT INTO charge_paid_hours (organization_id, hour, n, paid_cents)
    SELECT organization_id, substr(paid_at, 1, 13), COUNT(*), SUM(paid_cents) FROM charges
    WHERE status = 'paid' AND paid_at IS NOT NULL GROUP BY organization_id, substr(paid_at, 1, 13);
CREATE INDEX charges_org_paid_at ON charges (organization_id, paid_at) WHERE status = 'paid';

-- The week's messages by channel: a range of the week's sent (or failed) messages, not a walk
-- through every message the organization ever had.
CREATE INDEX notifications_org_sent ON notifications (organization_id, sent_at, channel) WHERE sent_at IS NOT NULL;
CREATE INDEX notifications_org_failed ON notifications (organization_id, failed_at, channel) WHERE failed_at IS NOT NULL;

-- Each function counts the rows its statement moved: +1 for each new row, -1 for each old
-- one; an update that changes no key and no sum nets to zero and writes nothing (pending to
-- overdue stays in its open row).
CREATE FUNCTION charges_portfolio_insert() RETURNS trigger AS $$
BEGIN
    WITH moved AS (SELECT 1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM new_rows)
    INSERT INTO open_charge_due_counts AS c (organization_id, due_date, n, amount_cents, paid_cents)
        SELECT organization_id, due_date, SUM(sign), SUM(sign * amount_cents), SUM(sign * paid_cents)
        FROM moved WHERE status IN ('pending', 'overdue') GROUP BY organization_id, due_date
        HAVING SUM(sign) <> 0 OR SUM(sign * amount_cents) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, due_date
    ON CONFLICT (organization_id, due_date) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    WITH moved AS (SELECT 1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM new_rows)
    INSERT INTO charge_stage_counts AS c (organization_id, dunning_status, step_id, n, amount_cents, paid_cents)
        SELECT organization_id, dunning_status, COALESCE(current_step_id, ''), SUM(sign),
            SUM(sign * amount_cents), SUM(sign * paid_cents)
        FROM moved GROUP BY organization_id, dunning_status, COALESCE(current_step_id, '')
        HAVING SUM(sign) <> 0 OR SUM(sign * amount_cents) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, dunning_status, COALESCE(current_step_id, '')
    ON CONFLICT (organization_id, dunning_status, step_id) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    WITH moved AS (SELECT 1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM new_rows)
    INSERT INTO charge_paid_hours AS c (organization_id, hour, n, paid_cents)
        SELECT organization_id, substr(paid_at, 1, 13), SUM(sign), SUM(sign * paid_cents)
        FROM moved WHERE status = 'paid' AND paid_at IS NOT NULL
        GROUP BY organization_id, substr(paid_at, 1, 13)
        HAVING SUM(sign) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, substr(paid_at, 1, 13)
    ON CONFLICT (organization_id, hour) DO UPDATE SET n = c.n + EXCLUDED.n,
        paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION charges_portfolio_update() RETURNS trigger AS $$
BEGIN
    WITH moved AS (SELECT 1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM new_rows
            UNION ALL SELECT -1, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM old_rows)
    INSERT INTO open_charge_due_counts AS c (organization_id, due_date, n, amount_cents, paid_cents)
        SELECT organization_id, due_date, SUM(sign), SUM(sign * amount_cents), SUM(sign * paid_cents)
        FROM moved WHERE status IN ('pending', 'overdue') GROUP BY organization_id, due_date
        HAVING SUM(sign) <> 0 OR SUM(sign * amount_cents) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, due_date
    ON CONFLICT (organization_id, due_date) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    WITH moved AS (SELECT 1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM new_rows
            UNION ALL SELECT -1, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM old_rows)
    INSERT INTO charge_stage_counts AS c (organization_id, dunning_status, step_id, n, amount_cents, paid_cents)
        SELECT organization_id, dunning_status, COALESCE(current_step_id, ''), SUM(sign),
            SUM(sign * amount_cents), SUM(sign * paid_cents)
        FROM moved GROUP BY organization_id, dunning_status, COALESCE(current_step_id, '')
        HAVING SUM(sign) <> 0 OR SUM(sign * amount_cents) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, dunning_status, COALESCE(current_step_id, '')
    ON CONFLICT (organization_id, dunning_status, step_id) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    WITH moved AS (SELECT 1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM new_rows
            UNION ALL SELECT -1, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM old_rows)
    INSERT INTO charge_paid_hours AS c (organization_id, hour, n, paid_cents)
        SELECT organization_id, substr(paid_at, 1, 13), SUM(sign), SUM(sign * paid_cents)
        FROM moved WHERE status = 'paid' AND paid_at IS NOT NULL
        GROUP BY organization_id, substr(paid_at, 1, 13)
        HAVING SUM(sign) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, substr(paid_at, 1, 13)
    ON CONFLICT (organization_id, hour) DO UPDATE SET n = c.n + EXCLUDED.n,
        paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION charges_portfolio_delete() RETURNS trigger AS $$
BEGIN
    WITH moved AS (SELECT -1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM old_rows)
    INSERT INTO open_charge_due_counts AS c (organization_id, due_date, n, amount_cents, paid_cents)
        SELECT organization_id, due_date, SUM(sign), SUM(sign * amount_cents), SUM(sign * paid_cents)
        FROM moved WHERE status IN ('pending', 'overdue') GROUP BY organization_id, due_date
        HAVING SUM(sign) <> 0 OR SUM(sign * amount_cents) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, due_date
    ON CONFLICT (organization_id, due_date) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    WITH moved AS (SELECT -1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM old_rows)
    INSERT INTO charge_stage_counts AS c (organization_id, dunning_status, step_id, n, amount_cents, paid_cents)
        SELECT organization_id, dunning_status, COALESCE(current_step_id, ''), SUM(sign),
            SUM(sign * amount_cents), SUM(sign * paid_cents)
        FROM moved GROUP BY organization_id, dunning_status, COALESCE(current_step_id, '')
        HAVING SUM(sign) <> 0 OR SUM(sign * amount_cents) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, dunning_status, COALESCE(current_step_id, '')
    ON CONFLICT (organization_id, dunning_status, step_id) DO UPDATE SET n = c.n + EXCLUDED.n,
        amount_cents = c.amount_cents + EXCLUDED.amount_cents, paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    WITH moved AS (SELECT -1 AS sign, organization_id, status, due_date, dunning_status, current_step_id, amount_cents, paid_cents, paid_at FROM old_rows)
    INSERT INTO charge_paid_hours AS c (organization_id, hour, n, paid_cents)
        SELECT organization_id, substr(paid_at, 1, 13), SUM(sign), SUM(sign * paid_cents)
        FROM moved WHERE status = 'paid' AND paid_at IS NOT NULL
        GROUP BY organization_id, substr(paid_at, 1, 13)
        HAVING SUM(sign) <> 0 OR SUM(sign * paid_cents) <> 0
        ORDER BY organization_id, substr(paid_at, 1, 13)
    ON CONFLICT (organization_id, hour) DO UPDATE SET n = c.n + EXCLUDED.n,
        paid_cents = c.paid_cents + EXCLUDED.paid_cents;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER charges_portfolio_insert AFTER INSERT ON charges
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charges_portfolio_insert();
CREATE TRIGGER charges_portfolio_update AFTER UPDATE ON charges
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charges_portfolio_update();
CREATE TRIGGER charges_portfolio_delete AFTER DELETE ON charges
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION charges_portfolio_delete();
