-- A search by a later word of a debtor's name ("silva" among 100,000 debtors) counts and sums
-- the matching charges from one index range instead of probing each matching debtor's charges:
-- each word row carries its debtor's charge count and amounts per status, kept by triggers on
-- both tables, so no write path can forget them.
--
-- A prefix may match two words of one debtor ("silv" in "silva silveira" and "silveira"); the
-- debtor's words matching a prefix are neighbours in its sorted words, so only the first of
-- them (the one whose previous word, `prev`, does not match) is counted.
ALTER TABLE debtor_words ADD COLUMN prev TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE debtor_words w SET prev = COALESCE(
    (SELECT MAX(p.word) FROM debtor_words p WHERE p.debtor_id = w.debtor_id AND p.word < w.word),
    '');

CREATE TABLE debtor_word_totals (
    organization_id TEXT COLLATE "C" NOT NULL,
    word            TEXT COLLATE "C" NOT NULL,
    status          TEXT COLLATE "C" NOT NULL,
    debtor_id       TEXT COLLATE "C" NOT NULL REFERENCES debtors (id) ON DELETE CASCADE,
    prev            TEXT COLLATE "C" NOT NULL,
    n               BIGINT NOT NULL,
    amount_cents    BIGINT NOT NULL,
    paid_cents      BIGINT NOT NULL,
    PRIMARY KEY (organization_id, word, status, debtor_id) INCLUDE (prev, n, amount_cents, paid_cents)
);
CREATE INDEX debtor_word_totals_debtor ON debtor_word_totals (debtor_id, status);

INSERT INTO debtor_word_totals (organization_id, word, status, debtor_id, prev, n, amount_cents, paid_cents)
SELECT w.organization_id, w.word, c.status, w.debtor_id, w.prev, COUNT(*), SUM(c.amount_cents), SUM(c.paid_cents)
FROM debtor_words w JOIN charges c ON c.debtor_id = w.debtor_id
GROUP BY w.organization_id, w.word, c.status, w.debtor_id, w.prev;

CREATE FUNCTION charge_word_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE debtor_word_totals
        SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents, paid_cents = paid_cents - OLD.paid_cents
        WHERE debtor_id = OLD.debtor_id AND status = OLD.status;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO debtor_word_totals AS t (organization_id, word, status, debtor_id, prev, n, amount_cents, paid_cents)
        SELECT w.organization_id, w.word, NEW.status, w.debtor_id, w.prev, 1, NEW.amount_cents, NEW.paid_cents
        FROM debtor_words w WHERE w.debtor_id = NEW.debtor_id
        ON CONFLICT (organization_id, word, status, debtor_id) DO UPDATE SET
            n = t.n + 1,
            amount_cents = t.amount_cents + EXCLUDED.amount_cents,
            paid_cents = t.paid_cents + EXCLUDED.paid_cents;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER charges_word_totals AFTER INSERT OR DELETE ON charges
FOR EACH ROW EXECUTE FUNCTION charge_word_totals();

CREATE TRIGGER charges_word_totals_update AFTER UPDATE OF status, amount_cents, paid_cents, debtor_id ON charges
FOR EACH ROW WHEN (OLD.status <> NEW.status OR OLD.amount_cents <> NEW.amount_cents
    OR OLD.paid_cents <> NEW.paid_cents OR OLD.debtor_id <> NEW.debtor_id)
EXECUTE FUNCTION charge_word_totals();

CREATE FUNCTION debtor_word_totals_of_word() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM debtor_word_totals WHERE debtor_id = OLD.debtor_id AND word = OLD.word;
    ELSE
        INSERT INTO debtor_word_totals (organization_id, word, status, debtor_id, prev, n, amount_cents, paid_cents)
        SELECT NEW.organization_id, NEW.word, c.status, NEW.debtor_id, NEW.prev, COUNT(*), SUM(c.amount_cents), SUM(c.paid_cents)
        FROM charges c WHERE c.debtor_id = NEW.debtor_id
        GROUP BY c.status;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER debtor_words_totals AFTER INSERT OR DELETE ON debtor_words
FOR EACH ROW EXECUTE FUNCTION debtor_word_totals_of_word();
