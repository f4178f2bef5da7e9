-- Which process fires a tournament's round deadlines: the one holding its lease
-- until `expires_ms` (milliseconds since 1970 on the database's own clock), renewed
-- while it runs. Its appends need no token: a tournament's events are appended after
-- the last one the writer read, so a second writer is refused anyway.
CREATE TABLE tournament_leases (
    tournament_id BIGINT  PRIMARY KEY REFERENCES tournaments (id),
    owner         TEXT    NOT NULL,
    expires_ms    BIGINT  NOT NULL
);
