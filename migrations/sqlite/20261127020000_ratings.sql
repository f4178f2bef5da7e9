-- Ratings and records: derived from the event logs (`mondo ratings rebuild` makes
-- them again), kept up to date in the transaction that records a match's last event.
-- Portable SQL: BIGINT and DOUBLE PRECISION read the same in PostgreSQL.

-- When a match ended (wall time) and in which order matches ended: ratings are
-- applied in this order, by the live store and by a rebuild alike.
ALTER TABLE matches ADD COLUMN finished TEXT;
ALTER TABLE matches ADD COLUMN finished_seq BIGINT;
UPDATE matches SET finished = created, finished_seq = r.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY last_at, id) AS n
      FROM matches WHERE status = 'over') AS r
WHERE matches.id = r.id;
CREATE UNIQUE INDEX matches_finished ON matches (finished_seq);

-- A player's rating in one game on one server (`server` 0: the terminal's players).
-- On the Glicko scale whatever the method (see docs/ratings.md).
CREATE TABLE ratings (
    server      BIGINT           NOT NULL,
    game        TEXT             NOT NULL,
    player      BIGINT           NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       INTEGER          NOT NULL,
    wins        INTEGER          NOT NULL,
    losses      INTEGER          NOT NULL,
    draws       INTEGER          NOT NULL,
    last_match  BIGINT           NOT NULL,
    -- Wall time of the last rated match (the leaderboard's "played lately").
    last_played TEXT             NOT NULL,
    PRIMARY KEY (server, game, player)
);
-- The leaderboard: one server's game, best first, without reading other rows.
CREATE INDEX ratings_board ON ratings (server, game, rating);

-- Each rated player's part in a rated match (history; a second rating of the same
-- match is refused by the key).
CREATE TABLE match_results (
    match_id         BIGINT           NOT NULL REFERENCES matches (id),
    player           BIGINT           NOT NULL,
    place            INTEGER          NOT NULL,
    result           TEXT             NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    rating_before    DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    rating_after     DOUBLE PRECISION NOT NULL,
    deviation_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, player)
);
CREATE INDEX match_results_player ON match_results (player, match_id);

-- Solo practice: a record, never a rating.
CREATE TABLE solo_records (
    server      BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    player      BIGINT  NOT NULL,
    played      INTEGER NOT NULL,
    solved      INTEGER NOT NULL,
    -- Structures built (Zendo practice) or points (Pattern Assembly), all matches.
    score_total BIGINT  NOT NULL,
    -- The fastest solved match, game-clock milliseconds.
    best_ms     BIGINT,
    total_ms    BIGINT  NOT NULL,
    last_played TEXT    NOT NULL,
    PRIMARY KEY (server, game, player)
);
