-- Tournaments (docs/tournaments.md): each is its events, like a match, read back
-- after a restart to the same tournament. The store keeps the JSON; the rules read it.
CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY,
    -- The Discord server it belongs to; none: the terminal's.
    guild_id   INTEGER,
    name       TEXT    NOT NULL,
    -- Game-clock time of its creation, in milliseconds.
    created_at INTEGER NOT NULL,
    -- The number of its last event (the first is 1).
    last_seq   INTEGER NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments (guild_id);

CREATE TABLE tournament_events (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    seq           INTEGER NOT NULL,
    -- One event as JSON, with its `type`.
    body          TEXT    NOT NULL CHECK (json_valid(body)),
    PRIMARY KEY (tournament_id, seq)
);
