-- When the game clock's reading was last saved, on the database's clock (milliseconds
-- since 1970; 0: never). Several processes on one database share one game clock: a
-- process that starts while another saved a moment ago resumes at the saved reading
-- plus the time since (it was running); one that starts after a longer silence
-- resumes at the saved reading (no process ran meanwhile: that time is not counted).
ALTER TABLE game_clock ADD COLUMN saved_ms BIGINT NOT NULL DEFAULT 0;
