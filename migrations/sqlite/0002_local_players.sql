-- Players at a terminal (`mondo play --duel`) have names, not Discord ids: each name
-- gets a local id once, so a match resumed later still says who is who.
CREATE TABLE local_players (
    id   INTEGER PRIMARY KEY,
    name TEXT    NOT NULL UNIQUE COLLATE NOCASE
);
