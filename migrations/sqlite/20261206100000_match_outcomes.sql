-- What each finished match counted for (docs/ratings.md, "History"): rated, or not and
-- why (`why`: setup_chosen, aborted, abandoned, declined, host_ended, no_result, or solo
-- for a solo record), with the player the reason names. Derived from the logs like the
-- ratings: written with the match's last event, made again by `mondo ratings rebuild`;
-- a store with finished matches and no row here is rated from its logs once.
CREATE TABLE match_outcomes (
    match_id  BIGINT  NOT NULL PRIMARY KEY REFERENCES matches (id),
    rated     INTEGER NOT NULL,
    why       TEXT,
    by_player BIGINT
);
