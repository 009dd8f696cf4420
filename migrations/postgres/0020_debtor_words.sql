-- Search finds a name by any of its words: each debtor's folded name (search_name) from its
-- second word on, one row per word ("costa ribeiro", "ribeiro" for "mariana costa ribeiro"),
-- so a prefix range over `word` finds "Ribeiro" from its index. The first word is
-- search_name itself, indexed already.
CREATE TABLE debtor_words (
    organization_id TEXT COLLATE "C" NOT NULL,
    word            TEXT COLLATE "C" NOT NULL,
    debtor_id       TEXT COLLATE "C" NOT NULL REFERENCES debtors (id) ON DELETE CASCADE,
    PRIMARY KEY (organization_id, word, debtor_id)
);
CREATE INDEX debtor_words_debtor ON debtor_words (debtor_id);

INSERT INTO debtor_words (organization_id, word, debtor_id)
WITH RECURSIVE rest (organization_id, debtor_id, tail) AS (
    SELECT organization_id, id, search_name FROM debtors WHERE strpos(search_name, ' ') > 0
    UNION ALL
    SELECT organization_id, debtor_id, substr(tail, strpos(tail, ' ') + 1) FROM rest WHERE strpos(tail, ' ') > 0
)
SELECT DISTINCT organization_id, tail, debtor_id FROM rest
WHERE tail <> (SELECT d.search_name FROM debtors d WHERE d.id = rest.debtor_id);
