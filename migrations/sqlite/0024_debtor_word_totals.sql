-- A search by a later word of a debtor's name ("silva" among 100,000 debtors) counts and sums
-- the matching charges from one index range instead of probing each matching debtor's charges:
-- each word row carries its debtor's charge count and amounts per status, kept by triggers on
-- both tables, so no write path can forget them.
--
-- A prefix may match two words of one debtor ("silv" in "silva silveira" and "silveira"); the
-- debtor's words matching a prefix are neighbours in its sorted words, so only the first of
-- them (the one whose previous word, `prev`, does not match) is counted.
ALTER TABLE debtor_words ADD COLUMN prev TEXT NOT NULL DEFAULT '';
UPDATE debtor_words SET prev = COALESCE(
    (SELECT MAX(p.word) FROM debtor_words p WHERE p.debtor_id = debtor_words.debtor_id AND p.word < debtor_words.word),
    '');

CREATE TABLE debtor_word_totals (
    organization_id TEXT NOT NULL,
    word            TEXT NOT NULL,
    status          TEXT NOT NULL,
    debtor_id       TEXT NOT NULL REFERENCES debtors (id) ON DELETE CASCADE,
    prev            TEXT NOT NULL,
    n               INTEGER NOT NULL,
    amount_cents    INTEGER NOT NULL,
    paid_cents      INTEGER NOT NULL,
    PRIMARY KEY (organization_id, word, status, debtor_id)
) WITHOUT ROWID;
CREATE INDEX debtor_word_totals_debtor ON debtor_word_totals (debtor_id, status);

INSERT INTO debtor_word_totals (organization_id, word, status, debtor_id, prev, n, amount_cents, paid_cents)
SELECT w.organization_id, w.word, c.status, w.debtor_id, w.prev, COUNT(*), SUM(c.amount_cents), SUM(c.paid_cents)
FROM debtor_words w JOIN charges c ON c.debtor_id = w.debtor_id
GROUP BY w.organization_id, w.word, c.status, w.debtor_id, w.prev;

CREATE TRIGGER charges_word_totals_insert AFTER INSERT ON charges BEGIN
    INSERT INTO debtor_word_totals (organization_id, word, status, debtor_id, prev, n, amount_cents, paid_cents)
    SELECT w.organization_id, w.word, NEW.status, w.debtor_id, w.prev, 1, NEW.amount_cents, NEW.paid_cents
    FROM debtor_words w WHERE w.debtor_id = NEW.debtor_id
    ON CONFLICT (organization_id, word, status, debtor_id) DO UPDATE SET
        n = n + 1,
        amount_cents = amount_cents + excluded.amount_cents,
        paid_cents = paid_cents + excluded.paid_cents;
END;

CREATE TRIGGER charges_word_totals_delete AFTER DELETE ON charges BEGIN
    UPDATE debtor_word_totals
    SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents, paid_cents = paid_cents - OLD.paid_cents
    WHERE debtor_id = OLD.debtor_id AND status = OLD.status;
END;

CREATE TRIGGER charges_word_totals_update AFTER UPDATE OF status, amount_cents, paid_cents, debtor_id ON charges
WHEN OLD.status <> NEW.status OR OLD.amount_cents <> NEW.amount_cents
    OR OLD.paid_cents <> NEW.paid_cents OR OLD.debtor_id <> NEW.debtor_id
BEGIN
    UPDATE debtor_word_totals
    SET n = n - 1, amount_cents = amount_cents - OLD.amount_cents, paid_cents = paid_cents - OLD.paid_cents
    WHERE debtor_id = OLD.debtor_id AND status = OLD.status;
    INSERT INTO debtor_word_totals (organization_id, word, status, debtor_id, prev, n, amount_cents, paid_cents)
    SELECT w.organization_id, w.word, NEW.status, w.debtor_id, w.prev, 1, NEW.amount_cents, NEW.paid_cents
    FROM debtor_words w WHERE w.debtor_id = NEW.debtor_id
    ON CONFLICT (organization_id, word, status, debtor_id) DO UPDATE SET
        n = n + 1,
        amount_cents = amount_cents + excluded.amount_cents,
        paid_cents = paid_cents + excluded.paid_cents;
END;

CREATE TRIGGER debtor_words_totals_insert AFTER INSERT ON debtor_words BEGIN
    INSERT INTO debtor_word_totals (organization_id, word, status, debtor_id, prev, n, amount_cents, paid_cents)
    SELECT NEW.organization_id, NEW.word, c.status, NEW.debtor_id, NEW.prev, COUNT(*), SUM(c.amount_cents), SUM(c.paid_cents)
    FROM charges c WHERE c.debtor_id = NEW.debtor_id
    GROUP BY c.status;
END;

CREATE TRIGGER debtor_words_totals_delete AFTER DELETE ON debtor_words BEGIN
    DELETE FROM debtor_word_totals WHERE debtor_id = OLD.debtor_id AND word = OLD.word;
END;
