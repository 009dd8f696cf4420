-- The per-status counts also keep the amounts and what was paid, so that a list filtered by
-- status alone says its totals (meta.amount_sum, meta.balance_sum) without reading every charge.
ALTER TABLE charge_status_counts ADD COLUMN amount_cents BIGINT NOT NULL DEFAULT 0;
ALTER TABLE charge_status_counts ADD COLUMN paid_cents BIGINT NOT NULL DEFAULT 0;
UPDATE charge_status_counts SET
    amount_cents = (SELECT COALESCE(SUM(c.amount_cents), 0) FROM charges c
                    WHERE c.organization_id = charge_status_counts.organization_id AND c.status = charge_status_counts.status),
    paid_cents = (SELECT COALESCE(SUM(c.paid_cents), 0) FROM charges c
                  WHERE c.organization_id = charge_status_counts.organization_id AND c.status = charge_status_counts.status);

DROP TRIGGER charges_count_insert;
DROP TRIGGER charges_count_delete;
DROP TRIGGER charges_count_update;

CREATE TRIGGER charges_count_insert AFTER INSERT ON charges
BEGIN
    INSERT OR IGNORE INTO charge_status_counts (organization_id, status, n) VALUES (NEW.organization_id, NEW.status, 0);
    UPDATE charge_status_counts SET n = n + 1, amount_cents = amount_cents + NEW.amount_cents,
        paid_cents = paid_cents + NEW.paid_cents
        WHERE organization_id = NEW.organization_id AND status = NEW.status;
END;

CREATE TRIGGER charges_count_delete AFTER DELETE ON charges
BEGIN
    UPDATE charge_status_counts SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents,
        paid_cents = paid_cents - OLD.paid_cents
        WHERE organization_id = OLD.organization_id AND status = OLD.status;
END;

CREATE TRIGGER charges_count_update AFTER UPDATE OF organization_id, status, amount_cents, paid_cents ON charges
    WHEN OLD.organization_id <> NEW.organization_id OR OLD.status <> NEW.status
        OR OLD.amount_cents <> NEW.amount_cents OR OLD.paid_cents <> NEW.paid_cents
BEGIN
    UPDATE charge_status_counts SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents,
        paid_cents = paid_cents - OLD.paid_cents
        WHERE organization_id = OLD.organization_id AND status = OLD.status;
    INSERT OR IGNORE INTO charge_status_counts (organization_id, status, n) VALUES (NEW.organization_id, NEW.status, 0);
    UPDATE charge_status_counts SET n = n + 1, amount_cents = amount_cents + NEW.amount_cents,
        paid_cents = paid_cents + NEW.paid_cents
        WHERE organization_id = NEW.organization_id AND status = NEW.status;
END;
