-- Marks the database as a Mondo store (docs/developers.md, "Whose database"): a
-- database with other tables and no such mark is refused before any migration runs.
-- A migration, so that processes starting together on one database create it once
-- (the migrations run under sqlx's lock).
CREATE TABLE mondo_store (application_id BIGINT NOT NULL);
INSERT INTO mondo_store (application_id) VALUES (1297043012);
