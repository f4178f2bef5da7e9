//! Discord's own presentation: embed cards and select menus, kept within Discord's
//! limits. A [`Card`] is one embed (a title, text, short labelled fields, a picture
//! from the post's own attachments); a [`Menu`] is one string select. A game's status
//! post becomes a card with [`Card::status`]: its first line's bold part is the title,
//! `label: value` lines become fields, the rest its text, and the board's picture.

use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateEmbed, CreateEmbedFooter, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

/// Discord's limits on an embed (all in characters).
pub const MAX_TITLE: usize = 256;
pub const MAX_DESCRIPTION: usize = 4096;
pub const MAX_FIELDS: usize = 25;
pub const MAX_FIELD_NAME: usize = 256;
pub const MAX_FIELD_VALUE: usize = 1024;
pub const MAX_FOOTER: usize = 2048;
/// Every embed of one message together.
pub const MAX_EMBEDS_TOTAL: usize = 6000;
/// Embeds in one message.
pub const MAX_EMBEDS: usize = 10;
/// Options in one select menu, and characters of an option's label, value and text.
pub const MAX_OPTIONS: usize = 25;
const MAX_OPTION_TEXT: usize = 100;

/// Mondo's colour on its cards.
pub const COLOUR: u32 = 0x5b8c5a;

/// One embed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Card {
    pub title: String,
    pub description: String,
    /// (name, value) pairs, shown side by side where they fit.
    pub fields: Vec<(String, String)>,
    /// The file name of one of the post's attachments, shown as the card's picture.
    pub image: Option<String>,
    pub footer: Option<String>,
}

/// `text` cut to `max` characters, saying so.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mark = " …";
    let mut out: String = text.chars().take(max - mark.chars().count()).collect();
    out.push_str(mark);
    out
}

impl Card {
    pub fn new(title: impl Into<String>) -> Card {
        Card {
            title: title.into(),
            ..Card::default()
        }
    }

    /// A status post's lines as a card: `**Title #N**: rest` gives the title and the
    /// first text; each later `label: value` line with a short plain label becomes a
    /// field; other lines stay text.
    pub fn status(lines: &[String]) -> Card {
        let mut card = Card::default();
        let mut text = Vec::new();
        for (i, line) in lines.iter().flat_map(|l| l.lines()).enumerate() {
            if i == 0 {
                if let Some(rest) = line.strip_prefix("**")
                    && let Some((title, after)) = rest.split_once("**")
                {
                    card.title = title.to_string();
                    let after = after.trim_start_matches(':').trim();
                    if !after.is_empty() {
                        text.push(after.to_string());
                    }
                    continue;
                }
            }
            match field_of(line) {
                Some((name, value)) if card.fields.len() < MAX_FIELDS => {
                    card.fields.push((name, value.to_string()));
                }
                _ => text.push(line.to_string()),
            }
        }
        card.description = text.join("\n");
        card
    }

    /// The characters Discord counts toward [`MAX_EMBEDS_TOTAL`].
    pub fn size(&self) -> usize {
        let fields: usize = self
            .fields
            .iter()
            .map(|(n, v)| n.chars().count() + v.chars().count())
            .sum();
        self.title.chars().count()
            + self.description.chars().count()
            + fields
            + self.footer.as_ref().map_or(0, |f| f.chars().count())
    }

    /// The embed, every part within its limit.
    pub fn embed(&self) -> CreateEmbed {
        let mut e = CreateEmbed::new().colour(COLOUR);
        if !self.title.is_empty() {
            e = e.title(cut(&self.title, MAX_TITLE));
        }
        if !self.description.is_empty() {
            e = e.description(cut(&self.description, MAX_DESCRIPTION));
        }
        for (name, value) in self.fields.iter().take(MAX_FIELDS) {
            let value = if value.trim().is_empty() { "-" } else { value };
            e = e.field(
                cut(name, MAX_FIELD_NAME),
                cut(value, MAX_FIELD_VALUE),
                value.chars().count() <= 40,
            );
        }
        if let Some(image) = &self.image {
            e = e.image(format!("attachment://{image}"));
        }
        if let Some(footer) = &self.footer {
            e = e.footer(CreateEmbedFooter::new(cut(footer, MAX_FOOTER)));
        }
        e
    }
}

/// `tickets: @a 1, @b 0` as ("Tickets", "@a 1, @b 0"): a label of at most three plain
/// words before the first `: `.
fn field_of(line: &str) -> Option<(String, &str)> {
    let (label, value) = line.split_once(": ")?;
    let plain = label
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '\'');
    if !plain || label.is_empty() || label.split(' ').count() > 3 || value.trim().is_empty() {
        return None;
    }
    let mut name = label.to_string();
    if let Some(first) = name.get(..1) {
        name = first.to_ascii_uppercase() + &name[1..];
    }
    Some((name, value.trim()))
}

/// Cards cut to fit one message: at most ten, the last one shortened (and the rest
/// dropped) once all of them together would pass Discord's 6,000 characters.
pub fn fit(cards: &[Card]) -> Vec<Card> {
    let mut out = Vec::new();
    let mut total = 0;
    for card in cards.iter().take(MAX_EMBEDS) {
        let mut card = card.clone();
        card.description = cut(&card.description, MAX_DESCRIPTION);
        let size = card.size();
        if total + size <= MAX_EMBEDS_TOTAL {
            total += size;
            out.push(card);
            continue;
        }
        // Room for part of this one's text: keep what fits, say it was cut.
        card.fields.clear();
        let room =
            MAX_EMBEDS_TOTAL.saturating_sub(total + card.size() - card.description.chars().count());
        if room > 40 {
            card.description = cut(&card.description, room.min(MAX_DESCRIPTION));
            out.push(card);
        }
        break;
    }
    out
}

/// One string select menu: its custom id, what it says before a choice, and its
/// options (label, value, description, chosen).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Menu {
    pub id: String,
    pub placeholder: String,
    pub options: Vec<MenuOption>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MenuOption {
    pub label: String,
    pub value: String,
    pub description: String,
    pub chosen: bool,
}

impl Menu {
    /// The menu's row.
    pub fn row(&self) -> CreateActionRow {
        let options = self
            .options
            .iter()
            .take(MAX_OPTIONS)
            .map(|o| {
                let mut opt = CreateSelectMenuOption::new(
                    cut(&o.label, MAX_OPTION_TEXT),
                    cut(&o.value, MAX_OPTION_TEXT),
                )
                .default_selection(o.chosen);
                if !o.description.is_empty() {
                    opt = opt.description(cut(&o.description, MAX_OPTION_TEXT));
                }
                opt
            })
            .collect();
        CreateActionRow::SelectMenu(
            CreateSelectMenu::new(self.id.clone(), CreateSelectMenuKind::String { options })
                .placeholder(cut(&self.placeholder, 150)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_post_reads_as_a_card_with_fields() {
        let lines = vec![
            "**Zendo duel #3**: <@1> vs <@2>, turn 4".to_string(),
            "<@1> to play: build with `/koan`".to_string(),
            "tickets: <@1> 1, <@2> 0".to_string(),
            "clocks: <@1> 2:31 left, ends <t:1700000030:R>".to_string(),
            "2 structures on the table, 1 guess (`/zendo board` shows them)".to_string(),
        ];
        let card = Card::status(&lines);
        assert_eq!(card.title, "Zendo duel #3");
        assert!(card.description.starts_with("<@1> vs <@2>, turn 4"));
        assert!(card.description.contains("2 structures on the table"));
        assert_eq!(
            card.fields,
            vec![
                ("Tickets".to_string(), "<@1> 1, <@2> 0".to_string()),
                (
                    "Clocks".to_string(),
                    "<@1> 2:31 left, ends <t:1700000030:R>".to_string()
                ),
            ]
        );
        // A line that only has a colon in its text is not a field.
        assert!(card.description.contains("<@1> to play"));
    }

    #[test]
    fn cards_together_stay_within_discords_limits() {
        let long = "x".repeat(5000);
        let cards = vec![
            Card {
                description: long.clone(),
                ..Card::new("one")
            },
            Card {
                description: long,
                ..Card::new("two")
            },
        ];
        let fitted = fit(&cards);
        let total: usize = fitted.iter().map(Card::size).sum();
        assert!(total <= MAX_EMBEDS_TOTAL, "{total}");
        assert!(
            fitted
                .iter()
                .all(|c| c.description.chars().count() <= MAX_DESCRIPTION)
        );
        assert_eq!(fitted.len(), 2, "the second is cut, not dropped");
        assert!(fitted[1].description.ends_with('…'));
        assert_eq!(cut("short", 10), "short");
    }
}
