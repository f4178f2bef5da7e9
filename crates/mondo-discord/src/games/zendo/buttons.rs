//! Zendo's buttons pressed ([`Press`], under the header every button carries) and the
//! box `/koan` opens sent back, for every Zendo mode: each press becomes the mode's
//! move, made with the version the button was drawn at.

use super::ids::{ButtonId, KOAN_FIELD, KoanModal, Press};
use crate::kit::ids::{Header, UnknownButton};
use crate::kit::{
    Asked, Data, Error, GameControls, Handed, Handling, Pressed, SetupFuture, Submitted,
    answer_modal, answer_press, claimed, modal_text, refusal,
};
use crate::post::Post;
use crate::rules::GameKind;
use crate::rules::zendo::classic::ClassicMove;
use crate::rules::zendo::{DuelMove, ZendoMove};
use crate::rules::{Actor, PlayerId, Viewer};
use crate::runtime::{AnyAction, AnyView};
use crate::store::MatchRecord;
use poise::serenity_prelude as serenity;

/// Every Zendo mode's controls: its buttons (the family's verbs), a host's disallow,
/// and for each mode the boxes it opens.
macro_rules! zendo_controls {
    ($mode:ident { $($more:item)* }) => {
        impl GameControls for super::$mode::Front {
            fn on_button<'a>(at: Pressed<'a>, record: Option<MatchRecord>) -> Handling<'a> {
                Box::pin(on_press(at.ctx, at.bot, at.press, at.header, record))
            }

            fn disallow(record: &MatchRecord) -> Result<AnyAction, String> {
                super::shared(record, ZendoMove::Disallow)
            }

            $($more)*
        }
    };
}

/// A mode played in tournaments (as `title`), its match set up by
/// `tournament::<setup>`: the higher seed holds the advantage.
macro_rules! in_tournaments {
    ($title:literal, $setup:ident) => {
        fn tournament_ways() -> &'static [(&'static str, &'static str)] {
            &[($title, "")]
        }

        fn tournament_setup<'a>(
            bot: &'a Data,
            guild: Option<u64>,
            players: Vec<PlayerId>,
            options: &'a str,
        ) -> Option<SetupFuture<'a>> {
            Some(Box::pin(super::tournament::$setup(
                bot, guild, players, options,
            )))
        }
    };
}

zendo_controls!(duel {
    /// The `/koan` box, for every Zendo mode (the family's box, with its first game).
    fn on_modal(at: Submitted<'_>) -> Option<Handling<'_>> {
        koan_box(at.ctx, at.bot, at.submit)
    }

    in_tournaments!("Zendo Duel", duel);
});

zendo_controls!(practice {});

zendo_controls!(triple {
    in_tournaments!("Zendo Triple", triple);
});

zendo_controls!(classic {
    /// A lobby's buttons, before any match is looked up.
    fn claims(header: &Header) -> bool {
        is_lobby(header)
    }

    /// The Master's rule box.
    fn on_modal(at: Submitted<'_>) -> Option<Handling<'_>> {
        use super::classic::{RULE_FIELD, is_rule_box, on_rule_box};
        let Submitted { ctx, bot, submit } = at;
        if !is_rule_box(&submit.data.custom_id) {
            return None;
        }
        let text = modal_text(&submit.data, RULE_FIELD).unwrap_or_default();
        Some(Box::pin(on_rule_box(ctx, bot, submit, text)))
    }
});

/// Whether a press is a Zendo Classic lobby's: its `MATCH` is the match in its lobby
/// phase, or the number of a lobby an older version stored (version 0), so it is
/// taken before any match is looked up.
pub fn is_lobby(header: &Header) -> bool {
    header.verb == "lobby"
}

/// A press on a Zendo button: of `record`'s match, or a lobby's (`None`).
pub async fn on_press(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
    header: &Header,
    record: Option<MatchRecord>,
) -> Result<(), Error> {
    let unknown = || {
        let id = UnknownButton(press.data.custom_id.chars().take(100).collect());
        Handed::own(Post::private(id.to_string()))
    };
    let id = ButtonId::from_header(header);
    if is_lobby(header) {
        return match id {
            Some(ButtonId {
                press: Press::Lobby(what),
                version,
                ..
            }) => super::classic::on_lobby(ctx, bot, press, header.game.0, version, what).await,
            _ => answer_press(ctx, bot, press, unknown()).await,
        };
    }
    let (Some(id), Some(record)) = (id, record) else {
        return answer_press(ctx, bot, press, unknown()).await;
    };
    // A koan box's preview: Submit acts, Edit opens the box again.
    if let Press::Submit(_) | Press::Edit(_) = id.press {
        return super::sketch::on_press(ctx, bot, press, &record, id).await;
    }
    let user = PlayerId(press.user.id.get());
    let actor = Actor::Player(user);
    let game = id.game;
    let shown = Some(id.version);
    let asked = Asked {
        channel: press.channel_id.get(),
        interaction: press.id.get(),
    };
    let shared = |m: ZendoMove| super::shared(&record, m);
    let act = |action: Result<AnyAction, String>| async move {
        match action {
            Ok(a) => claimed(bot.act(game, actor, a, shown, asked).await),
            Err(e) => Handed::own(Post::private(e)),
        }
    };
    let handed = match id.press {
        Press::Start(starter) => act(shared(ZendoMove::ChooseStarter { starter })).await,
        Press::Confirm => act(shared(ZendoMove::Confirm)).await,
        Press::TakeBack => act(shared(ZendoMove::TakeBack)).await,
        Press::Lobby(_) => Handed::own(Post::private("this lobby is closed")),
        Press::Submit(_) | Press::Edit(_) => return Ok(()),
        Press::Answer(answer) => {
            // Classic's mondo; otherwise the duel's challenge (the other modes have no
            // such answer: the engine says so).
            let a: AnyAction = match record.game() {
                Ok(GameKind::ZendoClassic) => ClassicMove::Answer { answer }.into(),
                _ => DuelMove::Answer { answer }.into(),
            };
            Handed::own(match bot.runtime.act(game, actor, a, shown).await {
                Ok(_) => Post::private(format!(
                    "Your answer in match #{game} is in: **{answer}**. It stays private until \
                     every answer is in or time is up; you may change it until then."
                )),
                Err(e) => Post::private(refusal(&e)),
            })
        }
        Press::Sheet(sheet) => {
            Handed::own(super::triple::on_sheet(bot, game, user, sheet, shown).await)
        }
        Press::AskHere => Handed::own(ask_here(bot, game, user).await),
    };
    answer_press(ctx, bot, press, handed).await
}

/// The answer buttons, shown privately in the channel to a player the bot could not DM.
async fn ask_here(bot: &Data, game: crate::store::MatchId, user: PlayerId) -> Post {
    let ephemeral = |post: Option<Post>, none: &str| match post {
        Some(mut p) => {
            p.ephemeral = true;
            p
        }
        None => Post::private(none),
    };
    match bot.runtime.view(game, &Viewer::Player(user)).await {
        Ok(AnyView::ZendoDuel(v)) if v.you.is_some() => ephemeral(
            super::answer_post(game, &v, bot.clocks()),
            "no challenge is waiting for answers now",
        ),
        Ok(AnyView::ZendoTriple(v)) if v.you.is_some() => ephemeral(
            super::triple::answer_post(game, &v, bot.clocks()),
            "nothing is waiting for your answers now",
        ),
        Ok(AnyView::ZendoClassic(v)) if v.you.is_some() => ephemeral(
            super::classic::answer_post(game, &v, bot.clocks()),
            "no mondo is waiting for answers now",
        ),
        Ok(AnyView::ZendoClassic(_)) => {
            Post::private("only this game's students answer its mondos")
        }
        Ok(_) => Post::private("only the two players of this match answer its challenges"),
        Err(e) => Post::private(format!("Mondo could not find that match: {e}")),
    }
}

/// The `/koan` box sent back, if `submit` is one: the structure typed is shown to its
/// player alone with Submit / Edit before it counts.
pub async fn on_koan_box(
    ctx: &serenity::Context,
    bot: &Data,
    submit: &serenity::ModalInteraction,
    modal: KoanModal,
) -> Result<(), Error> {
    // A structure typed in the box is shown privately first (Submit / Edit).
    let text = modal_text(&submit.data, KOAN_FIELD).unwrap_or_default();
    let post = super::sketch::on_koan_box(bot, modal.game, modal.mode, submit.user.id.get(), &text)
        .await?;
    let handed = Handed::own(post);
    answer_modal(ctx, bot, submit, handed).await
}

/// The `/koan` box's handling, if `submit` is one (its custom id starts `koan:`).
pub fn koan_box<'a>(
    ctx: &'a serenity::Context,
    bot: &'a Data,
    submit: &'a serenity::ModalInteraction,
) -> Option<Handling<'a>> {
    if !submit.data.custom_id.starts_with("koan:") {
        return None;
    }
    Some(Box::pin(async move {
        match submit.data.custom_id.parse::<KoanModal>() {
            Ok(modal) => on_koan_box(ctx, bot, submit, modal).await,
            Err(e) => {
                let handed = Handed::own(Post::private(e.to_string()));
                answer_modal(ctx, bot, submit, handed).await
            }
        }
    }))
}
