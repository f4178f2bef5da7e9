-- The leaderboard at any size (docs/ratings.md, "Speed"). A board is read best first,
-- ties by player: the index walks it in that very order, and holds what the listing
-- rules test (deviation, games, last played), so rows the rules leave out are passed
-- over in the index alone, never read from the table.
DROP INDEX ratings_board;
CREATE INDEX ratings_board ON ratings (server, game, rating DESC, player, deviation, games, last_played);
-- A server of mostly provisional players (a deviation stored at or over the rule's
-- can only grow until the next game): its few listable rows are found by their
-- deviation instead of walking past every provisional one.
CREATE INDEX ratings_settled ON ratings (server, game, deviation);
