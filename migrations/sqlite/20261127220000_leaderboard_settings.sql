-- A server's own leaderboard listing rules (`/leaderboard-settings`): rated games
-- needed, days within which one was played, the deviation to be under. NULL keeps the
-- configured default ([leaderboard] in the configuration), so a rule the server never
-- set follows the configuration.
CREATE TABLE leaderboard_settings (
    guild_id      BIGINT           PRIMARY KEY,
    min_games     BIGINT,
    recent_days   BIGINT,
    max_deviation DOUBLE PRECISION,
    updated_by    BIGINT,
    updated       TEXT             NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
