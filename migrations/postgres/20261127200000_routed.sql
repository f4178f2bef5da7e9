-- Discord interactions for a match that another process runs, waiting for it: the
-- process that received one writes it here, the process holding the match's lease
-- takes it (deleting it) and answers it as if Discord had sent it there. `sent_ms` is
-- on the database's clock (milliseconds since 1970): an interaction Discord no longer
-- lets anyone answer is dropped, not answered late.
CREATE TABLE routed (
    id       BIGSERIAL PRIMARY KEY,
    match_id BIGINT  NOT NULL REFERENCES matches (id),
    sent_ms  BIGINT  NOT NULL,
    body     TEXT    NOT NULL
);
CREATE INDEX routed_by_match ON routed (match_id);
