//! What the bot says, before it is a Discord message: text, pictures (PNG bytes built
//! in memory), buttons, and whether only the reader sees it. One value serves as a
//! channel message, a DM, an interaction response or a poise reply.

use super::card::{self, Card, Menu};
use crate::koan::Koan;
use crate::render::{self, Mark, Picture};
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseMessage, CreateMessage,
};

/// Discord's limit on a message's text.
pub const MAX_CONTENT: usize = 2000;
/// Discord's limit on attachments per message.
const MAX_FILES: usize = 10;

/// A button as drawn: its custom id (a game's verb under the header every button
/// carries, `kit::ids::Header`), its label and its colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    pub id: String,
    pub label: String,
    pub style: ButtonStyle,
}

impl Button {
    pub fn new(id: impl std::fmt::Display, label: impl Into<String>, style: ButtonStyle) -> Button {
        Button {
            id: id.to_string(),
            label: label.into(),
            style,
        }
    }
}

/// A message to send.
#[derive(Clone, Debug, Default)]
pub struct Post {
    pub lines: Vec<String>,
    /// (file name, PNG bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// Rows of buttons (at most 5 per row).
    pub buttons: Vec<Vec<Button>>,
    /// Only the person who asked sees it (interaction responses only).
    pub ephemeral: bool,
    /// Embed cards, after the text (see [`card`]).
    pub cards: Vec<Card>,
    /// A select menu, in a row of its own after the buttons.
    pub menu: Option<Menu>,
    /// Sent as a channel message or DM: its nonce, enforced (see [`nonce`]).
    pub nonce: Option<String>,
}

/// The nonce of one post of a match: the events up to `seq` said as `part` (the
/// channel's message, one player's DM, ...). Sent with `enforce_nonce`, so a process
/// that takes the match over and posts the same range again gets Discord's first
/// message back instead of a second one. The same on every process and build: FNV-1a
/// (a fixed, specified hash; std's hasher may change between Rust releases) within
/// Discord's 25 characters.
pub fn nonce(game: crate::store::MatchId, seq: u64, part: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in format!("{game}:{seq}:{part}").bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("m{hash:016x}")
}

impl Post {
    pub fn text(text: impl Into<String>) -> Post {
        Post {
            lines: vec![text.into()],
            ..Post::default()
        }
    }

    /// Seen only by the person who asked.
    pub fn private(text: impl Into<String>) -> Post {
        Post {
            ephemeral: true,
            ..Post::text(text)
        }
    }

    pub fn line(&mut self, text: impl Into<String>) -> &mut Post {
        self.lines.push(text.into());
        self
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.files.is_empty() && self.cards.is_empty()
    }

    /// The same post as an embed card ([`Card::status`]): its lines become the card,
    /// its first picture the card's picture.
    pub fn as_card(mut self) -> Post {
        if self.lines.is_empty() {
            return self;
        }
        let mut card = Card::status(&self.lines);
        card.image = self.files.first().map(|(name, _)| name.clone());
        self.lines.clear();
        self.cards.push(card);
        self
    }

    /// Appends another post's text, pictures and buttons.
    pub fn append(&mut self, other: Post) {
        self.lines.extend(other.lines);
        self.files.extend(other.files);
        self.buttons.extend(other.buttons);
        self.cards.extend(other.cards);
        self.menu = self.menu.take().or(other.menu);
        self.nonce = self.nonce.take().or(other.nonce);
        self.ephemeral |= other.ephemeral;
    }

    /// A picture of one structure, named after its table number.
    pub fn koan(&mut self, koan: &Koan, number: Option<u32>, mark: Option<Mark>) -> &mut Post {
        let picture = Picture {
            mark,
            caption: number.map(|n| format!("#{n}")),
        };
        let name = match number {
            Some(n) => format!("koan-{n}.png"),
            None => format!("koan-{}.png", self.files.len() + 1),
        };
        self.files.push((name, render::koan_png(koan, &picture)));
        self
    }

    pub fn buttons(&mut self, row: Vec<Button>) -> &mut Post {
        if !row.is_empty() {
            self.buttons.push(row);
        }
        self
    }

    /// The text as sent: lines joined, cut to Discord's limit with a note.
    pub fn content(&self) -> String {
        let mut text = self.lines.join("\n");
        if self.files.len() > MAX_FILES {
            // A message carries at most ten files (a long catch-up after a restart).
            text.push_str(&format!(
                "\n({} more pictures than fit in one message: `/zendo board` shows every \
                 structure)",
                self.files.len() - MAX_FILES
            ));
        }
        if text.chars().count() <= MAX_CONTENT {
            return text;
        }
        let note = "\n… (cut: too long for one message)";
        let keep = MAX_CONTENT - note.chars().count();
        let mut cut: String = text.chars().take(keep).collect();
        cut.push_str(note);
        cut
    }

    /// The post's pictures as attachments.
    pub fn attachments(&self) -> Vec<CreateAttachment> {
        self.files
            .iter()
            .take(MAX_FILES)
            .map(|(name, png)| CreateAttachment::bytes(png.clone(), name.clone()))
            .collect()
    }

    /// The post's cards as embeds, fitted within Discord's limits.
    pub fn embeds(&self) -> Vec<serenity::CreateEmbed> {
        card::fit(&self.cards).iter().map(Card::embed).collect()
    }

    fn rows(&self) -> Vec<CreateActionRow> {
        let room = if self.menu.is_some() { 4 } else { 5 };
        let mut rows: Vec<CreateActionRow> = self
            .buttons
            .iter()
            .take(room)
            .map(|row| {
                CreateActionRow::Buttons(
                    row.iter()
                        .take(5)
                        .map(|b| {
                            CreateButton::new(b.id.clone())
                                .label(b.label.chars().take(80).collect::<String>())
                                .style(b.style)
                        })
                        .collect(),
                )
            })
            .collect();
        rows.extend(self.menu.as_ref().map(Menu::row));
        rows
    }

    fn has_rows(&self) -> bool {
        !self.buttons.is_empty() || self.menu.is_some()
    }

    /// Mentions ping only users, never roles or @everyone (text from players, such as
    /// a guess, could hold any of them).
    fn mentions() -> CreateAllowedMentions {
        CreateAllowedMentions::new().all_users(true)
    }

    /// The same post sent under `nonce` (see [`nonce`]).
    pub fn once(mut self, nonce: String) -> Post {
        self.nonce = Some(nonce);
        self
    }

    pub fn message(&self) -> CreateMessage {
        let mut m = CreateMessage::new()
            .content(self.content())
            .allowed_mentions(Post::mentions())
            .add_files(self.attachments())
            .embeds(self.embeds());
        if let Some(nonce) = &self.nonce {
            m = m
                .nonce(serenity::Nonce::String(nonce.clone()))
                .enforce_nonce(true);
        }
        if self.has_rows() {
            m = m.components(self.rows());
        }
        m
    }

    pub fn response(&self) -> CreateInteractionResponseMessage {
        let mut m = CreateInteractionResponseMessage::new()
            .content(self.content())
            .allowed_mentions(Post::mentions())
            .ephemeral(self.ephemeral)
            .add_files(self.attachments())
            .embeds(self.embeds());
        if self.has_rows() {
            m = m.components(self.rows());
        }
        m
    }

    pub fn reply(&self) -> poise::CreateReply {
        let mut r = poise::CreateReply::default()
            .content(self.content())
            .allowed_mentions(Post::mentions())
            .ephemeral(self.ephemeral);
        for a in self.attachments() {
            r = r.attachment(a);
        }
        for e in self.embeds() {
            r = r.embed(e);
        }
        if self.has_rows() {
            r = r.components(self.rows());
        }
        r
    }
}

pub fn mark(obeys: bool) -> Mark {
    if obeys { Mark::Obeys } else { Mark::DoesNot }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posts_nonce_is_the_same_everywhere_and_fits_discords_limit() {
        let id = crate::store::MatchId(i64::MAX);
        let n = nonce(id, u64::MAX, "dm 18446744073709551615");
        assert!(n.len() <= 25, "{n}");
        assert_eq!(n, nonce(id, u64::MAX, "dm 18446744073709551615"));
        // Pinned: a process of another build must send the same nonce.
        assert_eq!(
            nonce(crate::store::MatchId(1), 2, "channel"),
            "m3331e575894d0259"
        );
        assert_ne!(nonce(id, 1, "channel"), nonce(id, 2, "channel"));
        assert_ne!(nonce(id, 1, "channel"), nonce(id, 1, "dm 7"));
    }

    #[test]
    fn long_text_is_cut_to_discords_limit_and_says_so() {
        let mut p = Post::default();
        for i in 0..500 {
            p.line(format!("line {i}"));
        }
        let c = p.content();
        assert!(c.chars().count() <= MAX_CONTENT);
        assert!(c.ends_with("(cut: too long for one message)"));
        assert_eq!(Post::text("short").content(), "short");
    }

    #[test]
    fn pictures_beyond_discords_ten_are_named_not_silently_dropped() {
        let koan: Koan = "1^".parse().expect("koan");
        let mut p = Post::text("caught up");
        for n in 1..=12 {
            p.koan(&koan, Some(n), None);
        }
        assert_eq!(p.attachments().len(), MAX_FILES);
        assert!(
            p.content().contains("2 more pictures") && p.content().contains("/zendo board"),
            "{}",
            p.content()
        );
    }

    #[test]
    fn pictures_are_pngs_named_by_table_number() {
        let koan: Koan = "1^ 2>".parse().expect("koan");
        let mut p = Post::default();
        p.koan(&koan, Some(7), Some(Mark::Obeys));
        assert_eq!(p.files[0].0, "koan-7.png");
        assert_eq!(&p.files[0].1[1..4], b"PNG");
    }
}
