-- The end of a post that may be out on Discord but is not yet recorded as said: set
-- just before the desk posts the events after `seq` up to it, cleared once they are
-- recorded. A process that takes the match over posts that same range again under the
-- same nonce (Discord answers with the first message instead of posting twice), then
-- the rest. A post that went out as an interaction's first reply (which carries no
-- nonce) names that interaction's token in `reply`, set just before the reply is sent:
-- the next process asks Discord for that reply before posting the range again.
ALTER TABLE discord_announced ADD COLUMN posting BIGINT;
ALTER TABLE discord_announced ADD COLUMN reply TEXT;
