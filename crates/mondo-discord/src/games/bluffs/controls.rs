//! The private controls of Logical Bluffs, and their handling. Every custom id says
//! its match and what it does (`bluffs:GAME:VERB[:ARGS]`), and the marks chosen so far
//! travel in the mark buttons' ids, so nothing is kept between presses but each bluff
//! read back and waiting for its *Submit*: four statements do not fit in a custom id
//! (100 characters), so the store keeps it (`Store::put_bluff_draft`) and the button
//! names it by number; it survives a restart.
//!
//! - Bluffing: `/bluffs bluff` opens a form (the subset and four statements); the
//!   answer reads each statement back with its check; *Submit this bluff* makes
//!   exactly that bluff count (an older read-back's button submits its own).
//! - Claiming: per opposing statement, *true* / *false* (and *Detective* while the
//!   item is unused); *Submit marks* once each markable statement is marked.
//! - Reveal: a select of the tiles you do not know (as many as your RP buys), *Guess
//!   the layout* (declares the guess, then a form for the layout), *Pass*.

use super::view::view_of;
use crate::ids::Header;
use crate::lang::tiles::{Cell, Layout, Subset};
use crate::narrate::{Line, Names, bluffs as words};
use crate::render::tiles::board_png;
use crate::rules::bluffs::{BluffsView, Move, PhaseName, RevealState, STATEMENTS, judge};
use crate::rules::{Actor, PlayerId, Viewer};
use crate::runtime::AnyAction;
use crate::store::MatchId;
use crate::{Data, Error, refusal};
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInputText, CreateInteractionResponse, CreateInteractionResponseMessage, CreateMessage,
    CreateModal, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption, InputTextStyle,
};

/// Every Bluffs custom id starts so.
pub const PREFIX: &str = "bluffs:";

const SUBSET_FIELD: &str = "subset";
const LAYOUT_FIELD: &str = "layout";

/// Something said to one player: text, pictures, controls.
#[derive(Default)]
pub struct Private {
    pub lines: Vec<String>,
    pub files: Vec<(String, Vec<u8>)>,
    pub rows: Vec<CreateActionRow>,
}

impl Private {
    fn text(text: impl Into<String>) -> Private {
        Private {
            lines: vec![text.into()],
            ..Private::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.files.is_empty() && self.rows.is_empty()
    }

    pub fn append(&mut self, other: Private) {
        self.lines.extend(other.lines);
        self.files.extend(other.files);
        self.rows.extend(other.rows);
    }

    fn content(&self) -> String {
        let text = self.lines.join("\n");
        text.chars().take(crate::post::MAX_CONTENT).collect()
    }

    fn attachments(&self) -> Vec<CreateAttachment> {
        self.files
            .iter()
            .map(|(n, png)| CreateAttachment::bytes(png.clone(), n.clone()))
            .collect()
    }

    pub fn message(&self) -> CreateMessage {
        CreateMessage::new()
            .content(self.content())
            .allowed_mentions(CreateAllowedMentions::new().all_users(true))
            .add_files(self.attachments())
            .components(self.rows.clone())
    }

    pub fn response(&self, ephemeral: bool) -> CreateInteractionResponseMessage {
        CreateInteractionResponseMessage::new()
            .content(self.content())
            .allowed_mentions(CreateAllowedMentions::new().all_users(true))
            .ephemeral(ephemeral)
            .add_files(self.attachments())
            .components(self.rows.clone())
    }

    pub fn reply(&self, ephemeral: bool) -> poise::CreateReply {
        let mut r = poise::CreateReply::default()
            .content(self.content())
            .allowed_mentions(CreateAllowedMentions::new().all_users(true))
            .ephemeral(ephemeral)
            .components(self.rows.clone());
        for a in self.attachments() {
            r = r.attachment(a);
        }
        r
    }
}

/// A private line's text without its `(to NAME only)` address (a DM or an
/// ephemeral message is already addressed).
pub fn unaddressed(line: &Line) -> String {
    match line.text.strip_prefix("(to ") {
        Some(rest) => rest
            .split_once(" only) ")
            .map_or(line.text.clone(), |(_, t)| t.to_string()),
        None => line.text.clone(),
    }
}

fn names(v: &BluffsView) -> Names {
    Names::mentions(&v.players)
}

/// A control's custom id: the header every button carries (the match, its version
/// when drawn, the verb and its arguments).
fn id(game: MatchId, version: u64, verb: &str) -> String {
    format!("m:{}:{version}:{verb}", game.0)
}

/// A form's custom id (`bluffs:MATCH:VERB...`): what is typed in a form is taken as a
/// typed command is, whatever moved since it was opened; the rules refuse what no
/// longer fits.
fn form_id(game: MatchId, verb: &str) -> String {
    format!("{PREFIX}{}:{verb}", game.0)
}

/// A player's own state with a picture of the tiles they know.
pub fn mine(game: MatchId, v: &BluffsView) -> Private {
    let (Some(seat), Some(mine)) = (v.you, &v.mine) else {
        return Private::default();
    };
    let line = words::mine(&names(v), seat, mine);
    Private {
        lines: vec![format!(
            "**Logical Bluffs #{game}**, only to you: {}",
            unaddressed(&line)
        )],
        files: vec![("your-tiles.png".into(), board_png(&mine.known, None))],
        rows: Vec::new(),
    }
}

/// The controls of the phase for the viewer, if they still have something to do.
pub fn phase_controls(game: MatchId, v: &BluffsView) -> Private {
    let Some(mine) = &v.mine else {
        return Private::default();
    };
    if v.paused || v.public.outcome.is_some() {
        return Private::default();
    }
    match v.phase {
        PhaseName::Bluffing if mine.own.is_none() => {
            Private::text("Bluff with `/bluffs bluff`: a subset and four statements.")
        }
        PhaseName::Claiming if mine.marks.is_none() => claim_controls(game, v, &[None; 4]),
        PhaseName::Reveal
            if matches!(
                mine.reveal,
                RevealState::Pending | RevealState::Revealing | RevealState::Declared { .. }
            ) =>
        {
            reveal_controls(game, v)
        }
        _ => Private::default(),
    }
}

fn marks_text(marks: &[Option<bool>]) -> String {
    marks
        .iter()
        .map(|m| match m {
            Some(true) => 'T',
            Some(false) => 'F',
            None => '?',
        })
        .collect()
}

fn marks_of(text: &str) -> Vec<Option<bool>> {
    text.chars()
        .take(STATEMENTS)
        .map(|c| match c {
            'T' => Some(true),
            'F' => Some(false),
            _ => None,
        })
        .collect()
}

/// Which opposing statements cannot be marked (smokescreened, or detected).
fn unmarkable(v: &BluffsView) -> [bool; STATEMENTS] {
    let mut out = [false; STATEMENTS];
    let Some(mine) = &v.mine else { return out };
    if let Some(opp) = &mine.opponent {
        for (k, s) in opp.statements.iter().enumerate().take(STATEMENTS) {
            out[k] = s.is_none();
        }
    }
    if let Some((n, _)) = mine.detected
        && (1..=STATEMENTS).contains(&n)
    {
        out[n - 1] = true;
    }
    out
}

/// Claiming: the opposing statements with a row of buttons each.
pub fn claim_controls(game: MatchId, v: &BluffsView, marks: &[Option<bool>]) -> Private {
    let Some(mine) = &v.mine else {
        return Private::default();
    };
    let Some(opp) = &mine.opponent else {
        return Private::default();
    };
    let skip = unmarkable(v);
    let chosen = marks_text(marks);
    let mut lines = vec![format!(
        "**Logical Bluffs #{game}**: mark each statement of the opposing bluff on {} (only you see your marks):",
        opp.subset
    )];
    let mut rows = Vec::new();
    for (k, &skipped) in skip.iter().enumerate() {
        let n = k + 1;
        let said = opp.statements.get(k).cloned().flatten();
        let mark = match (skipped, marks.get(k).copied().flatten()) {
            (true, _) => "not marked",
            (false, Some(true)) => "**true**",
            (false, Some(false)) => "**false**",
            (false, None) => "?",
        };
        lines.push(format!(
            "{n}. {} — {mark}",
            said.as_deref().unwrap_or("(smokescreened)")
        ));
        if skipped {
            continue;
        }
        let mut buttons = vec![
            CreateButton::new(id(game, v.version, &format!("mark:{chosen}:{n}T")))
                .label(format!("{n}: true"))
                .style(ButtonStyle::Success),
            CreateButton::new(id(game, v.version, &format!("mark:{chosen}:{n}F")))
                .label(format!("{n}: false"))
                .style(ButtonStyle::Danger),
        ];
        if !mine.items_used.detective && mine.detected.is_none() {
            buttons.push(
                CreateButton::new(id(game, v.version, &format!("detect:{n}")))
                    .label(format!("{n}: Detective"))
                    .style(ButtonStyle::Secondary),
            );
        }
        rows.push(CreateActionRow::Buttons(buttons));
    }
    if let Some((n, t)) = mine.detected {
        lines.push(format!(
            "Detective: statement {n} is {} (it earns no RP and is not marked).",
            if t { "true" } else { "false" }
        ));
    }
    let complete = (0..STATEMENTS).all(|k| skip[k] || marks.get(k).copied().flatten().is_some());
    rows.push(CreateActionRow::Buttons(vec![
        CreateButton::new(id(game, v.version, &format!("claim:{chosen}")))
            .label("Submit marks")
            .style(ButtonStyle::Primary)
            .disabled(!complete),
    ]));
    Private {
        lines,
        files: Vec::new(),
        rows,
    }
}

/// Reveal: the tiles to buy (as many as the RP allow), the layout guess, pass.
pub fn reveal_controls(game: MatchId, v: &BluffsView) -> Private {
    let Some(mine) = &v.mine else {
        return Private::default();
    };
    let cost = v.settings.reveal_cost.max(1);
    let affordable = (mine.rp / cost) as usize;
    let unknown: Vec<Cell> = Cell::all()
        .filter(|c| mine.known.iter().all(|(k, _)| k != c))
        .collect();
    let declared = matches!(mine.reveal, RevealState::Declared { .. });
    // Reveals bought already: more, or pass (a layout guess is instead of reveals).
    let revealing = mine.reveal == RevealState::Revealing;
    let mut lines = vec![format!(
        "**Logical Bluffs #{game}**, Reveal (only you see this): you have {} RP; a tile costs {cost}.",
        mine.rp
    )];
    let mut rows = Vec::new();
    if mine.barred {
        lines.push("A wrong layout guess bars you from revealing this round.".into());
    } else if declared {
        lines.push("You declared a layout guess: guess, or pass.".into());
    } else if affordable == 0 || unknown.is_empty() {
        lines.push("You cannot buy a reveal now.".into());
    } else {
        let options = unknown
            .iter()
            .take(25)
            .map(|c| CreateSelectMenuOption::new(c.to_string(), c.to_string()))
            .collect();
        let max = affordable.min(unknown.len()).min(25) as u8;
        rows.push(CreateActionRow::SelectMenu(
            CreateSelectMenu::new(
                id(game, v.version, "reveal"),
                CreateSelectMenuKind::String { options },
            )
            .placeholder(format!("Tiles to reveal ({cost} RP each, up to {max})"))
            .min_values(1)
            .max_values(max),
        ));
    }
    let mut buttons = Vec::new();
    if !revealing {
        buttons.push(
            CreateButton::new(id(game, v.version, "guess"))
                .label("Guess the layout")
                .style(ButtonStyle::Primary),
        );
    }
    buttons.push(
        CreateButton::new(id(game, v.version, "pass"))
            .label(if revealing { "Done" } else { "Pass" })
            .style(ButtonStyle::Secondary),
    );
    rows.push(CreateActionRow::Buttons(buttons));
    Private {
        lines,
        files: Vec::new(),
        rows,
    }
}

/// The Bluffing form: the subset and four statements. `smoke` 0 is none.
pub fn bluff_modal(game: MatchId, nolimit: bool, smoke: u8) -> CreateModal {
    let mut rows = vec![CreateActionRow::InputText(
        CreateInputText::new(
            InputTextStyle::Short,
            "Subset (4-8 connected tiles)",
            SUBSET_FIELD,
        )
        .placeholder("A1-A2-B1-B2")
        .required(true)
        .max_length(60),
    )];
    for n in 1..=STATEMENTS {
        rows.push(CreateActionRow::InputText(
            CreateInputText::new(
                InputTextStyle::Short,
                format!("Statement {n}"),
                format!("s{n}"),
            )
            .placeholder("There is a red tile orthogonally adjacent to a blue tile.")
            .required(true)
            .max_length(300),
        ));
    }
    CreateModal::new(
        form_id(game, &format!("bluff:{}:{smoke}", u8::from(nolimit))),
        "Your bluff",
    )
    .components(rows)
}

fn layout_modal(game: MatchId) -> CreateModal {
    CreateModal::new(form_id(game, "layout"), "The whole layout").components(vec![
        CreateActionRow::InputText(
            CreateInputText::new(InputTextStyle::Short, "Rows A-D, split by /", LAYOUT_FIELD)
                .placeholder("RBGY/YYGR/BRRG/GBYB")
                .required(true)
                .max_length(40),
        ),
    ])
}

/// A form's `bluffs:GAME:VERB:ARGS` read.
fn parse(custom_id: &str) -> Option<(MatchId, &str, Vec<&str>)> {
    let rest = custom_id.strip_prefix(PREFIX)?;
    let mut parts = rest.split(':');
    let game = MatchId(parts.next()?.parse().ok()?);
    let verb = parts.next()?;
    Some((game, verb, parts.collect()))
}

/// Acts for a player (by a control drawn at `shown`, or typed); a refusal in words.
async fn act(
    bot: &Data,
    game: MatchId,
    user: PlayerId,
    m: Move,
    shown: Option<u64>,
) -> Result<(), String> {
    bot.runtime
        .act(game, Actor::Player(user), AnyAction::from(m), shown)
        .await
        .map(|_| ())
        .map_err(|e| refusal(&e))
}

async fn player_view(bot: &Data, game: MatchId, user: PlayerId) -> Option<BluffsView> {
    let view = bot.runtime.view(game, &Viewer::Player(user)).await.ok()?;
    view_of(&view).filter(|v| v.you.is_some()).cloned()
}

const NOT_YOURS: &str = "these are the controls of a Logical Bluffs match you do not play in";

/// A press or a selection on a Bluffs control, its header read (see
/// `bot::kit::ids::Header`); the version it was drawn at goes to the engine with the
/// move it makes.
pub async fn on_component(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
    header: &Header,
) -> Result<(), Error> {
    let user = PlayerId(press.user.id.get());
    let args: Vec<&str> = header.args.iter().map(String::as_str).collect();
    let said = component(bot, header, user, &args, press).await;
    let response = match said {
        Ok(Answer::Modal(m)) => CreateInteractionResponse::Modal(m),
        Ok(Answer::Update(p)) => CreateInteractionResponse::UpdateMessage(p.response(true)),
        Err(e) => CreateInteractionResponse::Message(Private::text(e).response(true)),
    };
    press.create_response(ctx, response).await?;
    Ok(())
}

enum Answer {
    Modal(CreateModal),
    /// The control's own message, redrawn.
    Update(Private),
}

async fn component(
    bot: &Data,
    header: &Header,
    user: PlayerId,
    args: &[&str],
    press: &serenity::ComponentInteraction,
) -> Result<Answer, String> {
    let (game, shown) = (header.game, header.version);
    let Some(v) = player_view(bot, game, user).await else {
        return Err(NOT_YOURS.into());
    };
    // Controls posted by an older Mondo (`bluffs:GAME:VERB`) carry no version, so
    // nothing says which phase they were for: a round-1 claim or Detective pressed in
    // a later round would act on that round's statements. They act no more; the
    // current controls are drawn in their place.
    if shown.is_none() && header.verb != "mark" {
        let mut now = phase_controls(game, &v);
        now.lines.insert(
            0,
            "These controls are from an older Mondo and did nothing; here are the \
             current ones."
                .into(),
        );
        return Ok(Answer::Update(now));
    }
    match (header.verb.as_str(), args) {
        ("submit", args) => {
            let m = draft(bot, game, user, args.first()).await?;
            act(bot, game, user, m, shown).await?;
            if let Err(e) = bot.store.forget_bluff_drafts(game, user.0).await {
                tracing::warn!(%game, error = %e, "could not forget a player's bluff drafts");
            }
            Ok(Answer::Update(Private::text(
                "Your bluff is in: its truths come to you when Bluffing ends.",
            )))
        }
        ("mark", [chosen, pick]) => {
            // Marking acts on nothing, but must not turn a control left from an
            // earlier phase into a fresh one.
            marking(&v, shown)?;
            let mut marks = marks_of(chosen);
            marks.resize(STATEMENTS, None);
            let mut p = pick.chars();
            let n = p.next().and_then(|c| c.to_digit(10)).unwrap_or(0) as usize;
            let t = p.next() == Some('T');
            if (1..=STATEMENTS).contains(&n) {
                marks[n - 1] = Some(t);
            }
            Ok(Answer::Update(claim_controls(game, &v, &marks)))
        }
        ("claim", [chosen]) => {
            let skip = unmarkable(&v);
            let mut marks = marks_of(chosen);
            marks.resize(STATEMENTS, None);
            for (k, m) in marks.iter_mut().enumerate() {
                if skip[k] {
                    *m = None;
                }
            }
            act(
                bot,
                game,
                user,
                Move::Claim {
                    marks: marks.clone(),
                },
                shown,
            )
            .await?;
            Ok(Answer::Update(Private::text(format!(
                "Your marks are in: {}. How many were right comes when Claiming ends.",
                marks_text(&marks).replace('?', "-")
            ))))
        }
        ("detect", [n]) => {
            let n: usize = n.parse().map_err(|_| "no such statement".to_string())?;
            act(bot, game, user, Move::Detect { statement: n }, shown).await?;
            let v = player_view(bot, game, user).await.ok_or(NOT_YOURS)?;
            Ok(Answer::Update(claim_controls(game, &v, &[None; 4])))
        }
        ("reveal", _) => {
            let values = match &press.data.kind {
                serenity::ComponentInteractionDataKind::StringSelect { values } => values.clone(),
                _ => Vec::new(),
            };
            let tiles = values
                .iter()
                .map(|s| s.parse::<Cell>().map_err(|e| e.0))
                .collect::<Result<Vec<_>, _>>()?;
            act(bot, game, user, Move::Reveal { tiles }, shown).await?;
            Ok(Answer::Update(Private::text(
                "Bought: the tiles come to you in a moment.",
            )))
        }
        ("guess", _) => {
            let declared = v
                .mine
                .as_ref()
                .is_some_and(|m| matches!(m.reveal, RevealState::Declared { .. }));
            if !declared {
                act(bot, game, user, Move::DeclareGuess, shown).await?;
            }
            Ok(Answer::Modal(layout_modal(game)))
        }
        ("pass", _) => {
            act(bot, game, user, Move::Pass, shown).await?;
            Ok(Answer::Update(Private::text("You pass this Reveal.")))
        }
        _ => Err("that control is not one Mondo knows".into()),
    }
}

/// Whether a mark button drawn at `shown` may still mark: only in the Claiming it was
/// drawn in, before the player's marks are in. Marking acts on nothing (the engine's
/// version check never sees it), so the check the engine makes of every other
/// control is made here: a mark drawn before this phase began (a round ago) is
/// refused, politely, as a stale button is.
fn marking(v: &BluffsView, shown: Option<u64>) -> Result<(), String> {
    if v.phase != PhaseName::Claiming || v.mine.as_ref().is_some_and(|m| m.marks.is_some()) {
        return Err("Claiming is over for you: these marks can no longer be sent.".into());
    }
    if shown.is_some_and(|s| s < v.phase_since || s > v.version) {
        return Err(
            "these marks are from an earlier round, which is over: use the latest controls, \
             or `/bluffs status` to draw them again"
                .into(),
        );
    }
    Ok(())
}

/// The bluff a *Submit this bluff* button names (`submit:N`), as it was read back.
async fn draft(
    bot: &Data,
    game: MatchId,
    user: PlayerId,
    number: Option<&&str>,
) -> Result<Move, String> {
    const GONE: &str = "that bluff is no longer kept (one of yours was submitted since, or \
                        it was read back too long ago): send `/bluffs bluff` again";
    let Some(number) = number.and_then(|n| n.parse::<u64>().ok()) else {
        return Err(GONE.into());
    };
    let kept = bot
        .store
        .bluff_draft(game, user.0, number)
        .await
        .map_err(|e| {
            tracing::warn!(%game, error = %e, "could not read a player's bluff draft");
            "Mondo could not read that bluff back just now: press *Submit this bluff* again"
                .to_string()
        })?;
    let json = kept.ok_or(GONE)?;
    serde_json::from_str(&json).map_err(|_| GONE.to_string())
}

/// The text typed into a form's box.
fn field(data: &serenity::ModalInteractionData, name: &str) -> String {
    data.components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|c| match c {
            serenity::ActionRowComponent::InputText(t) if t.custom_id == name => t.value.clone(),
            _ => None,
        })
        .unwrap_or_default()
}

/// A Bluffs form sent back.
pub async fn on_modal(
    ctx: &serenity::Context,
    bot: &Data,
    submit: &serenity::ModalInteraction,
) -> Result<(), Error> {
    let user = PlayerId(submit.user.id.get());
    let said = match parse(&submit.data.custom_id) {
        Some((game, "bluff", args)) => read_back(bot, game, user, &args, &submit.data).await,
        Some((game, "layout", _)) => match field(&submit.data, LAYOUT_FIELD).parse::<Layout>() {
            Err(e) => Private::text(format!("{}: guess again with *Guess the layout*", e.0)),
            Ok(layout) => match act(bot, game, user, Move::Guess { layout }, None).await {
                Ok(()) => Private::text(format!(
                    "Your guess {layout} is in: it is judged when Reveal ends."
                )),
                Err(e) => Private::text(e),
            },
        },
        _ => Private::text("that form is not one Mondo knows"),
    };
    submit
        .create_response(ctx, CreateInteractionResponse::Message(said.response(true)))
        .await?;
    Ok(())
}

/// The bluff read back, each statement with its check; *Submit this bluff* when all
/// pass.
async fn read_back(
    bot: &Data,
    game: MatchId,
    user: PlayerId,
    args: &[&str],
    data: &serenity::ModalInteractionData,
) -> Private {
    let Some(v) = player_view(bot, game, user).await else {
        return Private::text(NOT_YOURS);
    };
    let no_limit = args.first() == Some(&"1");
    let smoke = args
        .get(1)
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|n| *n > 0);
    let subset_text = field(data, SUBSET_FIELD);
    let subset: Subset = match subset_text.parse() {
        Ok(s) => s,
        Err(e) => {
            return Private::text(format!(
                "the subset `{subset_text}` does not read: {}. Send `/bluffs bluff` again.",
                e.0
            ));
        }
    };
    let mut lines = vec![format!("**Your bluff on {subset}**, read back:")];
    let mut ok = true;
    if !no_limit && let Err(e) = subset.check_shape() {
        lines.push(format!("the subset: {}", e.0));
        ok = false;
    }
    let mut statements = Vec::new();
    for n in 1..=STATEMENTS {
        let text = field(data, &format!("s{n}"));
        let verdict = match judge(&text, &subset, v.settings.max_words) {
            Err(e) => {
                ok = false;
                format!("does not read: {e}")
            }
            Ok((_, check)) => {
                let mark = if check.valid {
                    "valid".to_string()
                } else {
                    ok = false;
                    format!("refused: {}", check.reason.unwrap_or_default())
                };
                format!(
                    "reads as “{}” ({} words): {mark}",
                    check.statement, check.words
                )
            }
        };
        let hidden = if smoke == Some(n) {
            " (smokescreened)"
        } else {
            ""
        };
        lines.push(format!("{n}. `{text}`{hidden} {verdict}"));
        statements.push(text);
    }
    if !ok {
        lines.push("Nothing counted: fix it and send `/bluffs bluff` again.".into());
        return Private {
            lines,
            ..Private::default()
        };
    }
    let bluff = Move::Bluff {
        subset: subset.to_string(),
        statements,
        no_limit,
        smokescreen: smoke,
    };
    let kept = match serde_json::to_string(&bluff) {
        Ok(json) => bot.store.put_bluff_draft(game, user.0, &json).await.ok(),
        Err(_) => None,
    };
    let Some(number) = kept else {
        // Only that it failed: the bluff is the player's alone, not the log's.
        tracing::warn!(%game, "could not keep a player's bluff draft");
        lines.push("Mondo could not keep this bluff to submit: send `/bluffs bluff` again.".into());
        return Private {
            lines,
            ..Private::default()
        };
    };
    lines.push("It counts once you submit it.".into());
    Private {
        lines,
        files: vec![("your-subset.png".into(), board_png(&[], Some(&subset)))],
        rows: vec![CreateActionRow::Buttons(vec![
            CreateButton::new(id(game, v.version, &format!("submit:{number}")))
                .label("Submit this bluff")
                .style(ButtonStyle::Success),
        ])],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::tiles::Colour;
    use crate::rules::bluffs::{BluffsMatch, Setup};
    use crate::rules::{Action, Actor, Game};

    const A: PlayerId = PlayerId(11);
    const B: PlayerId = PlayerId(22);

    fn act(g: &mut BluffsMatch, p: PlayerId, m: Move) {
        let a = Action::Move(m);
        if let Err(e) = g.play(&Actor::Player(p), &a, 5_000_000) {
            panic!("{a:?} by {p:?} refused: {e}");
        }
    }

    /// Both bluff (on subsets of their own), so Claiming begins.
    fn both_bluff(g: &mut BluffsMatch, subsets: [&str; 2]) {
        for (p, subset) in [(A, subsets[0]), (B, subsets[1])] {
            let statements = Colour::ALL
                .iter()
                .map(|c| format!("There is a {} tile.", c.name()))
                .collect();
            let bluff = Move::Bluff {
                subset: subset.into(),
                statements,
                no_limit: false,
                smokescreen: None,
            };
            act(g, p, bluff);
        }
    }

    #[test]
    fn a_mark_drawn_in_an_earlier_claiming_is_refused_as_stale() {
        let setup = Setup {
            players: [A, B],
            seed: 7,
            settings: Default::default(),
        };
        let (mut g, _) = BluffsMatch::start(setup, 5_000_000).expect("a good setup");
        both_bluff(&mut g, ["A1-A2-B1-B2", "C1-C2-D1-D2"]);
        let round1 = g.view(&Viewer::Player(A));
        assert_eq!((round1.round, round1.phase), (1, PhaseName::Claiming));
        // Drawn now, the marks mark; from before Claiming, or from the future, not.
        assert_eq!(marking(&round1, Some(round1.version)), Ok(()));
        assert_eq!(marking(&round1, None), Ok(()), "typed: no version to check");
        assert!(marking(&round1, Some(round1.phase_since - 1)).is_err());
        assert!(marking(&round1, Some(round1.version + 1)).is_err());
        // Round 2's Claiming: round 1's mark buttons are stale, politely.
        for p in [A, B] {
            act(
                &mut g,
                p,
                Move::Claim {
                    marks: vec![Some(true); STATEMENTS],
                },
            );
        }
        for p in [A, B] {
            act(&mut g, p, Move::Pass);
        }
        both_bluff(&mut g, ["A3-A4-B3-B4", "C3-C4-D3-D4"]);
        let round2 = g.view(&Viewer::Player(A));
        assert_eq!((round2.round, round2.phase), (2, PhaseName::Claiming));
        let refused = marking(&round2, Some(round1.version)).unwrap_err();
        assert!(refused.contains("earlier round"), "{refused}");
        assert_eq!(marking(&round2, Some(round2.version)), Ok(()));
    }
}
