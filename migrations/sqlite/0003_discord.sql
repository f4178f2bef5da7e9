-- What the Discord front keeps about a match besides its log: where each player
-- answers challenges privately, and how far the match's channel has been told.

-- A player's DM channel for a match; NULL when the bot could not DM them at the
-- start (they answer through an ephemeral button in the match's channel instead).
CREATE TABLE discord_players (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    user_id    INTEGER NOT NULL,
    dm_channel INTEGER,
    PRIMARY KEY (match_id, user_id)
) WITHOUT ROWID;

-- The last event of a match said in its channel: after a restart the bot says what
-- was committed but not yet said, so nothing is lost between commit and post.
CREATE TABLE discord_announced (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    seq      INTEGER NOT NULL
);
