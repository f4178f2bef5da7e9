-- Settings per server and game: each game keeps its own (JSON, read by the game's
-- front), apart from what is server-wide (the host role, the default pool). The Zendo
-- Duel's clocks and the counterexample style move from server_settings to the
-- 'zendo-duel' row.

CREATE TABLE game_settings (
    guild_id INTEGER NOT NULL,
    -- The game's stored kind ("zendo-duel", ...).
    game     TEXT    NOT NULL,
    -- JSON, the game's own settings; a missing field means "the default".
    settings TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    updated  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, game)
) WITHOUT ROWID;

INSERT INTO game_settings (guild_id, game, settings, updated)
SELECT guild_id, 'zendo-duel',
       json_object('turn_ms', turn_ms, 'challenge_ms', challenge_ms,
                   'guess_bonus_ms', guess_bonus_ms, 'style', style),
       updated
FROM server_settings
WHERE turn_ms IS NOT NULL OR challenge_ms IS NOT NULL OR guess_bonus_ms IS NOT NULL
   OR style IS NOT NULL;

CREATE TABLE server_settings_wide (
    guild_id  INTEGER PRIMARY KEY,
    -- Members with this role may host (besides those with Manage Server).
    host_role INTEGER,
    -- The pool new matches draw from.
    pool      TEXT,
    updated   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO server_settings_wide (guild_id, host_role, pool, updated)
SELECT guild_id, host_role, pool, updated FROM server_settings;
DROP TABLE server_settings;
ALTER TABLE server_settings_wide RENAME TO server_settings;
