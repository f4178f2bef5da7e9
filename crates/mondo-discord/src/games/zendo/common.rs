//! What every Zendo mode's Discord code shares and none of them owns: the refusal for
//! someone with no match here, the settings a match was stored with, who has the
//! advantage. A leaf: the modes' files (`triple`, `classic`, ...) and the folder's own
//! file read it, and it reads none of them.

use crate::rules::zendo::Settings;
use crate::store::MatchRecord;
use poise::serenity_prelude as serenity;

/// What Zendo's commands say to someone with no match in the channel.
pub const NO_MATCH: &str = "you are not playing a match in this channel: start one with \
                            `/zendo duel` or `/zendo practice`";

/// The settings a Zendo match was stored with (its piece set).
pub fn settings_of(record: &MatchRecord) -> Settings {
    serde_json::from_str(&record.settings).unwrap_or_default()
}

/// Who has the advantage in a two-player match (a duel, a Triple) of `me` against
/// `them`: the host's `advantage`, else the one challenged; one of the two players.
pub(crate) fn advantage_of(
    advantage: Option<&serenity::User>,
    me: u64,
    them: u64,
) -> Result<u64, &'static str> {
    let advantage = advantage.map_or(them, |u| u.id.get());
    if advantage == me || advantage == them {
        Ok(advantage)
    } else {
        Err("the advantage goes to one of the two players")
    }
}
