-- Lobbies waiting for their players (Zendo Classic's `/zendo classic`), kept so a
-- restart forgets none: read back at start-up, their buttons keep working. Named by
-- a timestamp, not the next number, so branches adding migrations at once never
-- pick the same version.

CREATE TABLE lobbies (
    -- The lobby's number: the `MATCH` part of its buttons' ids.
    id         INTEGER PRIMARY KEY,
    -- Which game's front reads it ("zendo-classic").
    game       TEXT    NOT NULL,
    guild_id   INTEGER,
    channel_id INTEGER NOT NULL,
    -- Wall time it opened, in milliseconds since 1970: it expires a set time later,
    -- whether or not the bot ran meanwhile.
    opened_ms  INTEGER NOT NULL,
    -- JSON, the game's own (who joined; a rule a Master typed, which is as secret as a
    -- match's hidden pattern in its first event and is never said).
    body       TEXT    NOT NULL CHECK (json_valid(body))
);
CREATE INDEX lobbies_game ON lobbies (game);
