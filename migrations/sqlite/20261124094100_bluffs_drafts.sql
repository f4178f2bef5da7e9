-- Logical Bluffs on Discord: a bluff read back to its player and not yet submitted,
-- so its *Submit this bluff* button (which names the draft by id) still submits
-- exactly what was read back after a restart. Private to its player like a DM: the
-- statements are kept here, never posted. Forgotten once one of them is submitted.
CREATE TABLE bluffs_drafts (
    id       INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id  INTEGER NOT NULL,
    -- JSON: the bluff move as the rules take it.
    bluff    TEXT    NOT NULL CHECK (json_valid(bluff)),
    created  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX bluffs_drafts_by_player ON bluffs_drafts (match_id, user_id);
