-- As migrations/sqlite/0002: the server key and the consumed confirmation nonces.
CREATE TABLE server_secrets (
    name       TEXT COLLATE "C" PRIMARY KEY,
    value      TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
);

CREATE TABLE confirmation_nonces (
    nonce       TEXT COLLATE "C" PRIMARY KEY,
    consumed_at TEXT COLLATE "C" NOT NULL
);
