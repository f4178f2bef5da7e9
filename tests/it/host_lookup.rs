//! A host's `/host pause|resume|end` without `match:` is for the channel's one live
//! match, whatever its game: the lookup the command makes (`Bot::live_in`, then
//! `only_match`) finds a match of every game in the registry, and the host's
//! override reaches it.

use super::secrecy::{HOST, cast_for, setup};
use mondo::bot::games::Games;
use mondo::bot::kit::host::only_match;
use mondo::bot::{Bot, Error};
use mondo::config::Config;
use mondo::rules::{Actor, GameKind};
use mondo::runtime::{ActError, AnyAction, Common, Place};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

#[tokio::test]
async fn a_host_command_without_a_match_finds_every_games_match() -> Result<(), Error> {
    let dir = tempfile::tempdir()?;
    let mut config = Config::load(None)?;
    config.database.path = dir.path().join("mondo.db");
    // Nothing here talks to Discord: no desk opens (no match was running at start).
    let http = Arc::new(serenity::Http::new("not-a-token"));
    let bot = Bot::start(Arc::new(config), http, &Games).await?;
    for (n, &kind) in GameKind::ALL.iter().enumerate() {
        let channel = 500 + n as u64;
        let cast = cast_for(kind);
        let new = (0..10)
            .find_map(|seed| setup(kind, seed, &cast).ok())
            .unwrap_or_else(|| panic!("{kind}: no seed sets up a match"));
        let place = Place {
            guild: Some(1),
            channel: Some(channel),
        };
        let id = bot.runtime.create(place, new).await?;
        let found = only_match(bot.live_in(channel).await?)
            .unwrap_or_else(|e| panic!("{kind}: the host's command found nothing: {e}"));
        assert_eq!(found.id, id, "{kind}");
        // Pause and resume reach the match (a game without a clock says so itself).
        let host = Actor::Host(HOST);
        let pause = AnyAction::Common(Common::Pause);
        match bot.runtime.act(id, host, pause, None).await {
            Ok(_) => {
                let resume = AnyAction::Common(Common::Resume);
                bot.runtime.act(id, host, resume, None).await?;
            }
            Err(ActError::Refused(e)) => assert!(e.to_string().contains("clock"), "{kind}: {e}"),
            Err(e) => panic!("{kind}: {e}"),
        }
        let end = AnyAction::Common(Common::End);
        bot.runtime.act(id, host, end, None).await?;
        assert!(bot.runtime.is_over(id).await?, "{kind}: ended by the host");
        assert!(only_match(bot.live_in(channel).await?).is_err(), "{kind}");
    }
    // Two live matches in one channel: the host is asked which.
    let cast = cast_for(GameKind::ALL[0]);
    for seed in [1, 2] {
        let place = Place {
            guild: Some(1),
            channel: Some(900),
        };
        let new = (seed..seed + 10)
            .find_map(|s| setup(GameKind::ALL[0], s, &cast).ok())
            .expect("a setup");
        bot.runtime.create(place, new).await?;
    }
    let why = only_match(bot.live_in(900).await?).expect_err("two run there");
    assert!(why.contains("give `match`"), "{why}");
    bot.runtime.clone().shutdown().await?;
    Ok(())
}
