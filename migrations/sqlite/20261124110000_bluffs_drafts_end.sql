-- A match's bluff drafts are forgotten when it ends: a resignation, a time-out or a
-- host's end leaves no submit to clear them, and a statement a player read back (or
-- hid with Smokescreen) has no reason to outlive its match.
DELETE FROM bluffs_drafts WHERE match_id IN (SELECT id FROM matches WHERE status = 'over');
CREATE TRIGGER bluffs_drafts_end AFTER UPDATE OF status ON matches
WHEN NEW.status = 'over'
BEGIN
    DELETE FROM bluffs_drafts WHERE match_id = NEW.id;
END;
