-- Which Discord shards each `mondo serve` process on this database runs: one row per
-- process (its owner name, as in `leases`), written when it starts and renewed with
-- its leases, until `expires_ms` (milliseconds since 1970 on the database's own
-- clock); a process that stops cleanly deletes its row. The live rows are what the
-- shard coverage check reads: a shard no process runs, or one run twice.
CREATE TABLE shard_runners (
    owner       TEXT    PRIMARY KEY,
    shard_first INTEGER NOT NULL CHECK (shard_first >= 0),
    shard_last  INTEGER NOT NULL CHECK (shard_last >= shard_first),
    shard_total INTEGER NOT NULL CHECK (shard_total > shard_last),
    expires_ms  INTEGER NOT NULL
);
