-- A Zendo Classic lobby is now a match's first phase, stored as that match's events.
-- The lobbies an older version stored here are made such matches at start-up; each
-- row then names its match, so the buttons of its old message (which carry the row's
-- id) lead there. A row with no match is one not carried over yet.
ALTER TABLE lobbies ADD COLUMN match_id INTEGER REFERENCES matches (id);
