-- As migrations/sqlite/0008, with text compared byte by byte (COLLATE "C"). The authorization
-- server (issue 11): users who sign in, OAuth clients, authorization codes, grants with their
-- refresh tokens, browser sessions and sign-in failures. Every secret
-- (password, code, refresh token, session cookie) is stored only as a hash: a copy of the
-- database signs nobody in.

-- A person who signs in. The e-mail is stored case-folded, so it is unique whatever the case
-- typed; the password is an argon2id PHC string; the role caps the scopes the user can grant.
CREATE TABLE users (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    email           TEXT COLLATE "C" NOT NULL UNIQUE,
    password_hash   TEXT COLLATE "C" NOT NULL,
    role            TEXT COLLATE "C" NOT NULL CHECK (role IN ('admin', 'operator', 'viewer')),
    created_at      TEXT COLLATE "C" NOT NULL
);
CREATE INDEX users_org ON users (organization_id);

-- A client registered through RFC 7591 (public: no secret). Clients that present a client ID
-- metadata document are not stored: their document is fetched and cached for a few minutes.
CREATE TABLE oauth_clients (
    id            TEXT COLLATE "C" PRIMARY KEY,
    client_name   TEXT COLLATE "C",
    redirect_uris TEXT COLLATE "C" NOT NULL,
    created_at    TEXT COLLATE "C" NOT NULL
);

-- An authorization code: single use, about a minute, bound to everything the token request
-- must repeat. grant_id is the grant it was exchanged for, revoked if the code is replayed.
CREATE TABLE oauth_codes (
    code_hash       TEXT COLLATE "C" PRIMARY KEY,
    client_id       TEXT COLLATE "C" NOT NULL,
    client_name     TEXT COLLATE "C" NOT NULL,
    redirect_uri    TEXT COLLATE "C" NOT NULL,
    code_challenge  TEXT COLLATE "C" NOT NULL,
    user_id         TEXT COLLATE "C" NOT NULL REFERENCES users (id),
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    scopes          TEXT COLLATE "C" NOT NULL,
    audience        TEXT COLLATE "C" NOT NULL CHECK (audience IN ('api', 'mcp')),
    expires_at      TEXT COLLATE "C" NOT NULL,
    used_at         TEXT COLLATE "C",
    grant_id        TEXT COLLATE "C",
    created_at      TEXT COLLATE "C" NOT NULL
);

-- What a user allowed a client: the scopes and audience every token of the grant carries.
-- Revoking it (disconnect, a reused refresh token, a replayed code) revokes its tokens.
CREATE TABLE oauth_grants (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    user_id         TEXT COLLATE "C" NOT NULL REFERENCES users (id),
    client_id       TEXT COLLATE "C" NOT NULL,
    client_name     TEXT COLLATE "C" NOT NULL,
    scopes          TEXT COLLATE "C" NOT NULL,
    audience        TEXT COLLATE "C" NOT NULL CHECK (audience IN ('api', 'mcp')),
    created_at      TEXT COLLATE "C" NOT NULL,
    last_used_at    TEXT COLLATE "C" NOT NULL,
    revoked_at      TEXT COLLATE "C"
);
CREATE INDEX oauth_grants_user ON oauth_grants (user_id, created_at);

-- Every refresh token a grant has had. Only the newest is unused: a used one presented again
-- is a stolen copy (or a replay), and revokes the grant.
CREATE TABLE oauth_refresh_tokens (
    token_hash TEXT COLLATE "C" PRIMARY KEY,
    grant_id   TEXT COLLATE "C" NOT NULL REFERENCES oauth_grants (id),
    expires_at TEXT COLLATE "C" NOT NULL,
    used_at    TEXT COLLATE "C",
    created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);

-- A signed-in browser: the cookie's SHA-256, never the cookie.
CREATE TABLE browser_sessions (
    id_hash    TEXT COLLATE "C" PRIMARY KEY,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users (id),
    expires_at TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX browser_sessions_user ON browser_sessions (user_id);

-- Failed sign-ins by (case-folded) e-mail, in the database so that every replica counts the
-- same: 5 within 15 minutes refuse the next attempt.
CREATE TABLE sign_in_failures (
    email     TEXT COLLATE "C" NOT NULL,
    failed_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX sign_in_failures_email ON sign_in_failures (email, failed_at);

-- Tokens issued through a grant name it, so revoking the grant reaches them.
ALTER TABLE access_tokens ADD COLUMN grant_id TEXT COLLATE "C";
CREATE INDEX access_tokens_grant ON access_tokens (grant_id);
