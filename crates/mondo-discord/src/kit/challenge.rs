//! Challenges on Discord (docs/ratings.md, "Fair play"): a two-player challenge
//! becomes a match only when the one challenged presses **Accept** on the challenge's
//! message. **Decline** says no (or, pressed by the challenger, withdraws it); anyone
//! else who presses is told why they may not. Unanswered, it expires after
//! `[challenges] expire_secs`. A challenge that does not become a match leaves no
//! match and no result: it is kept (`store::challenges`) only while it waits, so a
//! restart forgets none, and its expiry is armed again on the runtime's game clock.
//! The rule is `rules::challenge`'s.

use super::base::{Error, Handed};
use super::data::{Bot, Context, Data};
use super::desk::DM_WAIT;
use super::post::{Button, Post};
use super::reply::answer_press;
use super::say::{lifetime, mention};
use crate::rules::challenge::{Answer, Challenge, ChallengeError, Settled};
use crate::rules::{PlayerId, Viewer, Why};
use crate::runtime::{AnySetup, Place};
use crate::store::{ChallengeRecord, MatchFilter, MatchId, MatchRecord, Status};
use poise::serenity_prelude as serenity;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What a challenge's buttons carry: `challenge:ID:accept` or `challenge:ID:decline`.
pub const PREFIX: &str = "challenge:";
const ACCEPT: &str = "accept";
const DECLINE: &str = "decline";

/// The match a challenge becomes once accepted, as the command set it up.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Offer {
    /// How players call the game ("Pattern Assembly Plus").
    pub title: String,
    pub setup: AnySetup,
    /// Who chose its setup (a seed, a pattern, a pool), if anyone did.
    pub chosen: Option<u64>,
    /// Each player's DM greeting as the match starts (none: the game uses no DMs).
    pub hellos: Vec<(u64, String)>,
    /// Said for a player the bot cannot DM; `{who}` is their mention.
    pub no_dm: String,
    /// At most one match of this game in a channel at a time.
    pub one_per_channel: bool,
}

/// A challenge as a command makes it.
pub struct Made {
    pub place: Place,
    pub channel: u64,
    pub challenger: u64,
    pub challenged: u64,
    pub offer: Offer,
}

impl Made {
    /// `challenger` challenges `challenged` in `channel` (of server `guild`).
    pub fn new(
        guild: Option<u64>,
        channel: u64,
        challenger: u64,
        challenged: u64,
        offer: Offer,
    ) -> Made {
        Made {
            place: Place {
                guild,
                channel: Some(channel),
            },
            channel,
            challenger,
            challenged,
            offer,
        }
    }
}

/// "Rated." or "Unrated: the setup was chosen by @alice." for a new match of
/// `players` whose setup `chosen` chose (docs/ratings.md, "Fair play").
pub fn rated_line(players: &[u64], chosen: Option<u64>) -> String {
    match chosen {
        Some(by) if players.contains(&by) => {
            let why = Why::SetupChosen { by: PlayerId(by) };
            format!("**Unrated**: {}.", why.text(mention))
        }
        Some(host) => format!(
            "**Rated** (the setup was chosen by the host {}).",
            mention(PlayerId(host))
        ),
        None => "**Rated**.".into(),
    }
}

/// Offers the challenge: stored, said as the command's reply with its Accept and
/// Decline buttons, its expiry armed.
pub async fn offer(ctx: Context<'_>, made: Made) -> Result<(), Error> {
    let bot = ctx.data();
    let now = bot.runtime.now();
    let expire_ms = bot.config.challenges.expire_ms();
    let rule = Challenge::new(
        PlayerId(made.challenger),
        PlayerId(made.challenged),
        now,
        expire_ms,
    );
    let rule = match rule {
        Ok(c) => c,
        Err(e) => return super::reply(ctx, Post::private(e.to_string())).await,
    };
    let mut record = ChallengeRecord {
        id: 0,
        game: made.offer.setup.kind().name().to_string(),
        guild: made.place.guild,
        channel: made.channel,
        challenger: made.challenger,
        challenged: made.challenged,
        created_at: rule.created_at,
        expires_at: rule.expires_at,
        message: None,
        body: serde_json::to_string(&made.offer)?,
    };
    record.id = bot.store.add_challenge(&record).await?;
    let post = waiting(&record, &made.offer, bot.clocks(), expire_ms);
    let sent = ctx.send(post.reply()).await?;
    match sent.message().await {
        Ok(m) => {
            if let Err(e) = bot.store.set_challenge_message(record.id, m.id.get()).await {
                tracing::warn!(challenge = record.id, error = %e, "a challenge's message could not be noted");
            }
        }
        Err(e) => {
            tracing::warn!(challenge = record.id, error = %e, "a challenge's message could not be read")
        }
    }
    arm(bot, record.id, record.expires_at);
    Ok(())
}

/// The challenge's message while it waits.
fn waiting(c: &ChallengeRecord, offer: &Offer, clocks: super::say::Clocks, ms: u64) -> Post {
    let mut post = Post::text(format!(
        "{} challenges {} to **{}**. {}",
        mention(PlayerId(c.challenger)),
        mention(PlayerId(c.challenged)),
        offer.title,
        rated_line(&[c.challenger, c.challenged], offer.chosen),
    ));
    post.line(format!(
        "{}: **Accept** to play, or **Decline**. Unanswered, it expires {} (after {}), and \
         nothing is recorded.",
        mention(PlayerId(c.challenged)),
        clocks.countdown(c.expires_at),
        lifetime(ms),
    ));
    post.buttons(vec![
        Button::new(
            format!("{PREFIX}{}:{ACCEPT}", c.id),
            "Accept",
            serenity::ButtonStyle::Success,
        ),
        Button::new(
            format!("{PREFIX}{}:{DECLINE}", c.id),
            "Decline",
            serenity::ButtonStyle::Danger,
        ),
    ]);
    post
}

/// The challenge's message once it is over: what became of it, no buttons.
fn ended(c: &ChallengeRecord, offer: &Offer, what: &str) -> Post {
    Post::text(format!(
        "{} challenged {} to **{}**: {what}",
        mention(PlayerId(c.challenger)),
        mention(PlayerId(c.challenged)),
        offer.title,
    ))
}

/// Arms a waiting challenge's expiry on the runtime's game clock.
pub fn arm(bot: &Data, id: i64, at: u64) {
    let sleep = bot.runtime.sleep_until(at);
    let bot = Arc::downgrade(bot);
    tokio::spawn(async move {
        sleep.await;
        if let Some(bot) = bot.upgrade() {
            expire(&bot, id).await;
        }
    });
}

/// At start-up: every stored challenge's expiry armed again (one already due expires
/// at once).
pub async fn arm_all(bot: &Data) {
    match bot.store.challenges().await {
        Ok(all) => {
            for c in all {
                arm(bot, c.id, c.expires_at);
            }
        }
        Err(e) => tracing::error!(error = %e, "the waiting challenges could not be read"),
    }
}

/// A challenge's time is up: taken (if nobody answered meanwhile) and its message
/// says it expired.
async fn expire(bot: &Bot, id: i64) {
    let c = match bot.store.take_challenge(id).await {
        Ok(Some(c)) => c,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(challenge = id, error = %e, "a challenge could not expire");
            return;
        }
    };
    let Some(offer) = read(&c) else { return };
    let ms = c.expires_at.saturating_sub(c.created_at);
    let post = ended(
        &c,
        &offer,
        &format!(
            "expired, {} did not answer within {}. No match, nothing rated.",
            mention(PlayerId(c.challenged)),
            lifetime(ms)
        ),
    );
    let channel = serenity::ChannelId::new(c.channel.max(1));
    match c.message {
        Some(m) => {
            let edit = serenity::EditMessage::new()
                .content(post.content())
                .components(Vec::new());
            if let Err(e) = channel.edit_message(&bot.http, m, edit).await {
                crate::metrics::discord_failed();
                tracing::warn!(challenge = id, error = %e, "an expired challenge's message could not be changed");
                bot.post(channel, &post).await;
            }
        }
        None => bot.post(channel, &post).await,
    }
}

/// The stored offer; a body that does not read is dropped with a warning.
fn read(c: &ChallengeRecord) -> Option<Offer> {
    match crate::store::from_json::<Offer>(&c.body) {
        Ok(o) => Some(o),
        Err(_) => {
            tracing::warn!(
                challenge = c.id,
                "a stored challenge does not read; dropped"
            );
            None
        }
    }
}

/// A press on a challenge's button (`rest`: what follows [`PREFIX`]).
pub async fn on_button(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
    rest: &str,
) -> Result<(), Error> {
    let refuse = |text: String| answer_press(ctx, bot, press, Handed::own(Post::private(text)));
    let parsed = rest
        .split_once(':')
        .and_then(|(id, verb)| Some((id.parse::<i64>().ok()?, verb)));
    let (id, answer) = match parsed {
        Some((id, ACCEPT)) => (id, Answer::Accept),
        Some((id, DECLINE)) => (id, Answer::Decline),
        _ => return refuse("this button is not one Mondo knows".into()).await,
    };
    let Some(c) = bot.store.challenge(id).await? else {
        return refuse(OVER.into()).await;
    };
    let who = press.user.id.get();
    let rule = Challenge {
        challenger: PlayerId(c.challenger),
        challenged: PlayerId(c.challenged),
        created_at: c.created_at,
        expires_at: c.expires_at,
    };
    let settled = match rule.answer(PlayerId(who), answer, bot.runtime.now()) {
        Ok(s) => s,
        Err(e) => {
            if matches!(e, ChallengeError::Expired { .. }) {
                expire(bot, id).await;
            }
            return refuse(refusal(&c, e)).await;
        }
    };
    let Some(offer) = read(&c) else {
        let _ = bot.store.take_challenge(id).await;
        return refuse(OVER.into()).await;
    };
    // Both players are booked from the acceptance on, before the match exists.
    let _booked = match settled {
        Settled::Accepted => {
            if let Some(busy) = busy(bot, &c, &offer).await? {
                return refuse(busy).await;
            }
            match Booked::both(&c) {
                Some(b) => Some(b),
                None => return refuse(STARTING.into()).await,
            }
        }
        _ => None,
    };
    // Taken once: a second press, or the expiry at the same moment, finds it gone.
    let Some(c) = bot.store.take_challenge(id).await? else {
        return refuse(OVER.into()).await;
    };
    let what = match settled {
        Settled::Accepted => format!(
            "accepted by {}. The match starts below.",
            mention(PlayerId(who))
        ),
        Settled::Declined { .. } => format!(
            "declined by {}. No match, nothing rated.",
            mention(PlayerId(who))
        ),
        Settled::Withdrawn { .. } => format!(
            "withdrawn by {}. No match, nothing rated.",
            mention(PlayerId(who))
        ),
        Settled::Expired => "expired. No match, nothing rated.".into(),
    };
    let post = ended(&c, &offer, &what);
    let update = serenity::CreateInteractionResponse::UpdateMessage(
        serenity::CreateInteractionResponseMessage::new()
            .content(post.content())
            .components(Vec::new()),
    );
    press.create_response(ctx, update).await?;
    if settled == Settled::Accepted {
        start(bot, &c, offer).await;
    }
    Ok(())
}

/// What a press hears when a player's other accepted challenge is becoming its match.
const STARTING: &str = "one of you has just accepted another challenge, whose match is \
                        starting: one two-player match at a time, so accept once it is over \
                        (the challenge waits until it expires)";

/// The players whose accepted challenge is becoming its match in this process (from
/// the press to the match's creation): booked, so no second acceptance slips in
/// before their match is stored.
static BOOKED: std::sync::LazyLock<std::sync::Mutex<std::collections::HashSet<u64>>> =
    std::sync::LazyLock::new(Default::default);

/// Both players of an accepted challenge booked until this is dropped.
struct Booked([u64; 2]);

impl Booked {
    /// Books both, unless one is booked already.
    fn both(c: &ChallengeRecord) -> Option<Booked> {
        let users = [c.challenger, c.challenged];
        let mut booked = BOOKED.lock().unwrap_or_else(|e| e.into_inner());
        if users.iter().any(|u| booked.contains(u)) {
            return None;
        }
        booked.extend(users);
        Some(Booked(users))
    }
}

impl Drop for Booked {
    fn drop(&mut self) {
        let mut booked = BOOKED.lock().unwrap_or_else(|e| e.into_inner());
        for u in self.0 {
            booked.remove(&u);
        }
    }
}

/// What a press on an answered or expired challenge hears.
const OVER: &str = "this challenge is over (accepted, declined or expired): a new \
                    challenge needs a new command";

/// Why `e` refuses a press, naming who may answer.
fn refusal(c: &ChallengeRecord, e: ChallengeError) -> String {
    let challenged = mention(PlayerId(c.challenged));
    match e {
        ChallengeError::OnlyTheChallenged { .. } => {
            format!("only {challenged} may accept this challenge; **Decline** withdraws yours")
        }
        ChallengeError::NotInvolved => format!(
            "this challenge is not yours to answer: only {challenged} may accept or decline \
             it (and {} may withdraw it)",
            mention(PlayerId(c.challenger))
        ),
        other => other.to_string(),
    }
}

/// Why the match cannot start now, if it cannot: a player already playing in the
/// channel, or playing a two-player match anywhere (one at a time, docs/ratings.md,
/// "Challenges"), or, for a game played one at a time in a channel, a match of it
/// running there.
async fn busy(bot: &Bot, c: &ChallengeRecord, offer: &Offer) -> Result<Option<String>, Error> {
    for user in [c.challenger, c.challenged] {
        if bot.match_of(c.channel, user).await?.is_some() {
            return Ok(Some(format!(
                "{} is already playing a match in this channel: accept once it is over \
                 (the challenge waits until it expires)",
                mention(PlayerId(user))
            )));
        }
        if let Some(m) = two_player_match_of(bot, user).await? {
            let title = m.game().map_or("match", |g| g.title());
            let place = m.channel.map_or(String::new(), |ch| format!(" in <#{ch}>"));
            return Ok(Some(format!(
                "{} is already playing {title} #{}{place}: one two-player match at a time, \
                 so accept once it is over (the challenge waits until it expires)",
                mention(PlayerId(user)),
                m.id
            )));
        }
    }
    if offer.one_per_channel && !bot.live_of(c.channel, &c.game).await?.is_empty() {
        return Ok(Some(format!(
            "a {} is already running in this channel: accept once it is over (the \
             challenge waits until it expires)",
            offer.title
        )));
    }
    Ok(None)
}

/// A live match against others (any game but a solo one) `user` plays, anywhere.
async fn two_player_match_of(bot: &Bot, user: u64) -> Result<Option<MatchRecord>, Error> {
    let live = bot
        .store
        .matches(&MatchFilter {
            status: Some(Status::Live),
            player: Some(user),
            ..MatchFilter::default()
        })
        .await?;
    Ok(live.into_iter().find(|m| m.players.len() >= 2))
}

/// The accepted challenge becomes its match: the players' DMs greeted, the match
/// created and its opening posted in the channel.
async fn start(bot: &Data, c: &ChallengeRecord, offer: Offer) {
    let channel = serenity::ChannelId::new(c.channel.max(1));
    let mut dms = Vec::new();
    for (user, hello) in &offer.hellos {
        dms.push((*user, dm_hello(bot, *user, hello.clone()).await));
    }
    let place = Place {
        guild: c.guild,
        channel: Some(c.channel),
    };
    let game = match bot
        .runtime
        .create_by(place, offer.setup, offer.chosen)
        .await
    {
        Ok(id) => id,
        Err(e) => {
            bot.post(channel, &Post::text(format!("no match: {e}")))
                .await;
            return;
        }
    };
    for (user, dm) in &dms {
        if let Err(e) = bot.store.set_dm_channel(game, *user, *dm).await {
            tracing::warn!(%game, user, error = %e, "could not store a player's DM channel");
        }
    }
    let players = [c.challenger, c.challenged];
    match opening(bot, game, c.channel, &players, offer.chosen).await {
        Ok(mut post) => {
            for (user, dm) in &dms {
                if dm.is_none() {
                    post.line(offer.no_dm.replace("{who}", &mention(PlayerId(*user))));
                }
            }
            bot.post(channel, &post).await;
        }
        Err(e) => tracing::warn!(%game, error = %e, "a match's opening could not be said"),
    }
}

/// A new two-player match's opening, with whether it is rated; the match's creation
/// is noted as said and its desk opened (it says everything after).
pub async fn opening(
    bot: &Data,
    game: MatchId,
    channel: u64,
    players: &[u64],
    chosen: Option<u64>,
) -> Result<Post, Error> {
    let view = bot.runtime.view(game, &Viewer::Spectator).await?;
    // The creation, and who chose the setup when someone did: said here.
    bot.store
        .set_announced(game, 1 + u64::from(chosen.is_some()))
        .await?;
    bot.open_desk(game, channel);
    let mut post = bot.fronts.opening(game, &view, bot.clocks());
    post.line(rated_line(players, chosen));
    Ok(post)
}

/// Opens a DM with `user` and says `hello` there; the DM channel, or `None` if Discord
/// refuses (DMs closed, or the user blocks the bot).
pub(crate) async fn dm_hello(bot: &Bot, user: u64, hello: String) -> Option<u64> {
    let sent = async {
        let dm = tokio::time::timeout(
            DM_WAIT,
            serenity::UserId::new(user).create_dm_channel(&bot.http),
        )
        .await
        .ok()?
        .ok()?;
        let hello = serenity::CreateMessage::new().content(hello);
        tokio::time::timeout(DM_WAIT, dm.id.send_message(&bot.http, hello))
            .await
            .ok()?
            .ok()?;
        Some(dm.id.get())
    };
    let sent = sent.await;
    if sent.is_none() {
        crate::metrics::discord_failed();
    }
    sent
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_says_rated_or_why_not() {
        assert_eq!(rated_line(&[1, 2], None), "**Rated**.");
        assert_eq!(
            rated_line(&[1, 2], Some(1)),
            "**Unrated**: the setup was chosen by <@1>."
        );
        assert_eq!(
            rated_line(&[1, 2], Some(3)),
            "**Rated** (the setup was chosen by the host <@3>)."
        );
    }
}
