-- Challenges waiting for their answer (docs/ratings.md, "Fair play"): a two-player
-- challenge becomes a match only when the one challenged accepts it. Kept so a restart
-- forgets none: read back at start-up, their buttons keep working and their expiry is
-- armed again. A challenge accepted, declined, withdrawn or expired is deleted: it
-- leaves no match and no result.
CREATE TABLE challenges (
    -- The challenge's number: its buttons carry it (`challenge:ID:accept`).
    id            INTEGER PRIMARY KEY,
    -- The game's stored kind ("zendo-duel", "logical-bluffs", ...).
    game          TEXT    NOT NULL,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    challenger    INTEGER NOT NULL,
    challenged    INTEGER NOT NULL,
    -- Game-clock times (the runtime's clock, as a match's deadlines: the time the bot
    -- is down is not counted), in milliseconds.
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    -- The challenge's message, once posted (its buttons are taken off when it ends).
    message_id    INTEGER,
    -- JSON: the match to create on acceptance (its setup, who chose it). It may hold
    -- a hidden pattern, as secret as a match's first event: never said.
    body          TEXT    NOT NULL CHECK (json_valid(body))
);
CREATE INDEX challenges_channel ON challenges (channel_id);
