-- The portfolio's figures from counts kept in the transaction of every charge write, as
-- charge_status_counts keeps the lists' totals: open charges per due date (an age is a range
-- of a few hundred dates, not a scan of the charges), charges per dunning status and current
-- step of the régua, and paid charges per UTC hour of their payment (a month starts at the
-- organization's midnight, a whole hour in every zone but a few; the rest of such an hour is
-- read from the paid charges' index).
CREATE TABLE open_charge_due_counts (
    organization_id TEXT NOT NULL,
    due_date        TEXT NOT NULL,
    n               BIGINT NOT NULL,
    amount_cents    BIGINT NOT NULL,
    paid_cents      BIGINT NOT NULL,
    PRIMARY KEY (organization_id, due_date)
) WITHOUT ROWID;
INSERT INTO open_charge_due_counts (organization_id, due_date, n, amount_cents, paid_cents)
    SELECT organization_id, due_date, COUNT(*), SUM(amount_cents), SUM(paid_cents) FROM charges
    WHERE status IN ('pending', 'overdue') GROUP BY organization_id, due_date;

-- step_id '' : no step has acted yet.
CREATE TABLE charge_stage_counts (
    organization_id TEXT NOT NULL,
    dunning_status  TEXT NOT NULL,
    step_id         TEXT NOT NULL,
    n               BIGINT NOT NULL,
    amount_cents    BIGINT NOT NULL,
    paid_cents      BIGINT NOT NULL,
    PRIMARY KEY (organization_id, dunning_status, step_id)
) WITHOUT ROWID;
INSERT INTO charge_stage_counts (organization_id, dunning_status, step_id, n, amount_cents, paid_cents)
    SELECT organization_id, dunning_status, COALESCE(current_step_id, ''), COUNT(*), SUM(amount_cents),
        SUM(paid_cents) FROM charges GROUP BY organization_id, dunning_status, COALESCE(current_step_id, '');

-- hour: the paid_at's first 13 characters (stored instants are UTC, `2026-12-07T14`).
CREATE TABLE charge_paid_hours (
    organization_id TEXT NOT NULL,
    hour            TEXT NOT NULL,
    n               BIGINT NOT NULL,
    paid_cents      BIGINT NOT NULL,
    PRIMARY KEY (organization_id, hour)
) WITHOUT ROWID;
INSERT INTO charge_paid_hours (organization_id, hour, n, paid_cents)
    SELECT organization_id, substr(paid_at, 1, 13), COUNT(*), SUM(paid_cents) FROM charges
    WHERE status = 'paid' AND paid_at IS NOT NULL GROUP BY organization_id, substr(paid_at, 1, 13);
CREATE INDEX charges_org_paid_at ON charges (organization_id, paid_at) WHERE status = 'paid';

-- The week's messages by channel: a range of the week's sent (or failed) messages, not a walk
-- through every message the organization ever had.
CREATE INDEX notifications_org_sent ON notifications (organization_id, sent_at, channel) WHERE sent_at IS NOT NULL;
CREATE INDEX notifications_org_failed ON notifications (organization_id, failed_at, channel) WHERE failed_at IS NOT NULL;

CREATE TRIGGER charges_portfolio_insert AFTER INSERT ON charges
BEGIN
    INSERT INTO open_charge_due_counts (organization_id, due_date, n, amount_cents, paid_cents)
        SELECT NEW.organization_id, NEW.due_date, 1, NEW.amount_cents, NEW.paid_cents
        WHERE NEW.status IN ('pending', 'overdue')
    ON CONFLICT (organization_id, due_date) DO UPDATE SET n = n + 1,
        amount_cents = amount_cents + excluded.amount_cents, paid_cents = paid_cents + excluded.paid_cents;
    INSERT INTO charge_stage_counts (organization_id, dunning_status, step_id, n, amount_cents, paid_cents)
        VALUES (NEW.organization_id, NEW.dunning_status, COALESCE(NEW.current_step_id, ''), 1,
            NEW.amount_cents, NEW.paid_cents)
    ON CONFLICT (organization_id, dunning_status, step_id) DO UPDATE SET n = n + 1,
        amount_cents = amount_cents + excluded.amount_cents, paid_cents = paid_cents + excluded.paid_cents;
    INSERT INTO charge_paid_hours (organization_id, hour, n, paid_cents)
        SELECT NEW.organization_id, substr(NEW.paid_at, 1, 13), 1, NEW.paid_cents
        WHERE NEW.status = 'paid' AND NEW.paid_at IS NOT NULL
    ON CONFLICT (organization_id, hour) DO UPDATE SET n = n + 1, paid_cents = paid_cents + excluded.paid_cents;
END;

CREATE TRIGGER charges_portfolio_delete AFTER DELETE ON charges
BEGIN
    UPDATE open_charge_due_counts SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents,
        paid_cents = paid_cents - OLD.paid_cents
        WHERE organization_id = OLD.organization_id AND due_date = OLD.due_date
            AND OLD.status IN ('pending', 'overdue');
    UPDATE charge_stage_counts SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents,
        paid_cents = paid_cents - OLD.paid_cents
        WHERE organization_id = OLD.organization_id AND dunning_status = OLD.dunning_status
            AND step_id = COALESCE(OLD.current_step_id, '');
    UPDATE charge_paid_hours SET n = n - 1, paid_cents = paid_cents - OLD.paid_cents
        WHERE organization_id = OLD.organization_id AND hour = substr(OLD.paid_at, 1, 13)
            AND OLD.status = 'paid';
END;

-- An update moves a charge between rows only when what keys or sums it changed; pending to
-- overdue (the engine's daily move) stays in the same open row.
CREATE TRIGGER charges_due_count_update
    AFTER UPDATE OF organization_id, status, due_date, amount_cents, paid_cents ON charges
    WHEN OLD.organization_id <> NEW.organization_id OR OLD.due_date <> NEW.due_date
        OR (OLD.status IN ('pending', 'overdue')) <> (NEW.status IN ('pending', 'overdue'))
        OR OLD.amount_cents <> NEW.amount_cents OR OLD.paid_cents <> NEW.paid_cents
BEGIN
    UPDATE open_charge_due_counts SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents,
        paid_cents = paid_cents - OLD.paid_cents
        WHERE organization_id = OLD.organization_id AND due_date = OLD.due_date
            AND OLD.status IN ('pending', 'overdue');
    INSERT INTO open_charge_due_counts (organization_id, due_date, n, amount_cents, paid_cents)
        SELECT NEW.organization_id, NEW.due_date, 1, NEW.amount_cents, NEW.paid_cents
        WHERE NEW.status IN ('pending', 'overdue')
    ON CONFLICT (organization_id, due_date) DO UPDATE SET n = n + 1,
        amount_cents = amount_cents + excluded.amount_cents, paid_cents = paid_cents + excluded.paid_cents;
END;

CREATE TRIGGER charges_stage_count_update
    AFTER UPDATE OF organization_id, dunning_status, current_step_id, amount_cents, paid_cents ON charges
    WHEN OLD.organization_id <> NEW.organization_id OR OLD.dunning_status <> NEW.dunning_status
        OR OLD.current_step_id IS NOT NEW.current_step_id
        OR OLD.amount_cents <> NEW.amount_cents OR OLD.paid_cents <> NEW.paid_cents
BEGIN
    UPDATE charge_stage_counts SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents,
        paid_cents = paid_cents - OLD.paid_cents
        WHERE organization_id = OLD.organization_id AND dunning_status = OLD.dunning_status
            AND step_id = COALESCE(OLD.current_step_id, '');
    INSERT INTO charge_stage_counts (organization_id, dunning_status, step_id, n, amount_cents, paid_cents)
        VALUES (NEW.organization_id, NEW.dunning_status, COALESCE(NEW.current_step_id, ''), 1,
            NEW.amount_cents, NEW.paid_cents)
    ON CONFLICT (organization_id, dunning_status, step_id) DO UPDATE SET n = n + 1,
        amount_cents = amount_cents + excluded.amount_cents, paid_cents = paid_cents + excluded.paid_cents;
END;

CREATE TRIGGER charges_paid_hour_update
    AFTER UPDATE OF organization_id, status, paid_at, paid_cents ON charges
    WHEN (OLD.status = 'paid' OR NEW.status = 'paid') AND (OLD.organization_id <> NEW.organization_id
        OR OLD.status <> NEW.status OR OLD.paid_at IS NOT NEW.paid_at OR OLD.paid_cents <> NEW.paid_cents)
BEGIN
    UPDATE charge_paid_hours SET n = n - 1, paid_cents = paid_cents - OLD.paid_cents
        WHERE organization_id = OLD.organization_id AND hour = substr(OLD.paid_at, 1, 13)
            AND OLD.status = 'paid';
    INSERT INTO charge_paid_hours (organization_id, hour, n, paid_cents)
        SELECT NEW.organization_id, substr(NEW.paid_at, 1, 13), 1, NEW.paid_cents
        WHERE NEW.status = 'paid' AND NEW.paid_at IS NOT NULL
    ON CONFLICT (organization_id, hour) DO UPDATE SET n = n + 1, paid_cents = paid_cents + excluded.paid_cents;
END;
