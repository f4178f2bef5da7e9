-- Mondo's store. A match is its append-only event log plus what identifies it;
-- its state is the fold of the events and is never stored.

CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    -- Which game's engine folds the events ("zendo-duel", "zendo-practice", ...).
    kind        TEXT    NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER,
    -- A u64 stored bit for bit (SQLite integers are signed).
    seed        INTEGER NOT NULL,
    -- JSON, the game's own settings (also inside its first event).
    settings    TEXT    NOT NULL DEFAULT '{}',
    status      TEXT    NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'over')),
    -- Game-clock milliseconds (see game_clock), not wall time.
    created_at  INTEGER NOT NULL,
    last_seq    INTEGER NOT NULL DEFAULT 0,
    last_at     INTEGER NOT NULL,
    -- Wall time, for people listing matches.
    created     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX matches_live_kind ON matches (kind) WHERE status = 'live';
CREATE INDEX matches_channel ON matches (channel_id, status);

CREATE TABLE match_players (
    match_id  INTEGER NOT NULL REFERENCES matches (id),
    seat      INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_players_player ON match_players (player_id, match_id);

CREATE TABLE events (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    -- Game-clock milliseconds at which it happened.
    at       INTEGER NOT NULL,
    -- JSON, the game's event.
    body     TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

-- Append-only, enforced where no code path can forget it.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'match events are append-only');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'match events are append-only');
END;

-- The game clock advances only while a process runs the matches, so the time the
-- process is down never counts against a player. Its reading is saved regularly;
-- a new process resumes from it (or from the latest event, if later).
CREATE TABLE game_clock (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    now_ms INTEGER NOT NULL
);
INSERT INTO game_clock (id, now_ms) VALUES (1, 0);

-- A server's pattern pools, as the TOML text the host gave (validated by the pool
-- loader before it is stored).
CREATE TABLE pools (
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    toml       TEXT    NOT NULL,
    updated_by INTEGER,
    updated    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, name)
);

-- A server's settings; NULL means "the default".
CREATE TABLE server_settings (
    guild_id       INTEGER PRIMARY KEY,
    turn_ms        INTEGER CHECK (turn_ms > 0),
    challenge_ms   INTEGER CHECK (challenge_ms > 0),
    guess_bonus_ms INTEGER CHECK (guess_bonus_ms >= 0),
    style          TEXT    CHECK (style IN ('simple', 'varied')),
    host_role      INTEGER,
    pool           TEXT,
    updated        TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
