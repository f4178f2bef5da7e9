-- Who runs a live match: one process at a time holds its lease until `expires_ms`
-- (milliseconds since 1970 on the database's own clock, so processes on several
-- machines agree). `token` grows by one at every takeover and is never reused (a
-- released lease keeps its row, expired at once): an append carries its owner's
-- token and is written only while that token is the match's current one.
CREATE TABLE leases (
    match_id   BIGINT  PRIMARY KEY REFERENCES matches (id),
    owner      TEXT    NOT NULL,
    expires_ms BIGINT  NOT NULL,
    token      BIGINT  NOT NULL CHECK (token >= 1)
);
