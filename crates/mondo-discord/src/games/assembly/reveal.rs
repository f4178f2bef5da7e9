//! The grid's picture during a reveal: posted when the grid is shown, deleted when it
//! is hidden. The messages are found again by their attachment's name, so a grid
//! shown before a restart is still deleted after it (nothing to remember or store).

use super::view::own;
use crate::Bot;
use crate::post::Post;
use crate::rules::assembly::{AssemblyEvent, AssemblyView, PhaseView};
use crate::runtime::AnyEvent;
use crate::store::MatchId;
use poise::serenity_prelude as serenity;

/// The attachment name of a match's grid picture.
pub fn file_name(game: MatchId) -> String {
    format!("assembly-{game}-grid.png")
}

/// Whether a batch showed or hid the grid (`None` at a desk's start: check anyway).
pub fn touches_grid(events: Option<&[AnyEvent]>) -> bool {
    events.is_none_or(|events| {
        own(events)
            .iter()
            .any(|e| matches!(e, AssemblyEvent::Revealed { .. } | AssemblyEvent::Hidden))
    })
}

/// The picture post of a shown grid.
pub fn picture(game: MatchId, rows: &[String]) -> Post {
    let mut post = Post::text(format!(
        "**Pattern Assembly #{game}**: the grid (rows A-{} top to bottom, columns 1-{} left \
         to right). Memorise it: it is deleted when the reveal ends.",
        (b'A' + rows.len().saturating_sub(1).min(25) as u8) as char,
        rows.iter().map(|r| r.chars().count()).max().unwrap_or(0)
    ));
    post.files
        .push((file_name(game), crate::render::symbol_grid_png(rows)));
    post
}

impl Bot {
    /// Makes the channel match the grid's state: during a reveal exactly one grid
    /// picture, otherwise none. `events` is the batch just said (None at a desk's start).
    pub(crate) async fn assembly_grid(
        &self,
        channel: serenity::ChannelId,
        game: MatchId,
        view: &AssemblyView,
        events: Option<&[AnyEvent]>,
    ) {
        if !touches_grid(events) {
            return;
        }
        let name = file_name(game);
        let recent = match channel
            .messages(&self.http, serenity::GetMessages::new().limit(100))
            .await
        {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(%game, error = %e, "could not look for the grid's picture");
                Vec::new()
            }
        };
        let pictures: Vec<serenity::MessageId> = recent
            .iter()
            .filter(|m| m.attachments.iter().any(|a| a.filename == name))
            .map(|m| m.id)
            .collect();
        match (&view.phase, &view.grid) {
            (PhaseView::Reveal { .. }, Some(rows)) => {
                if pictures.is_empty() {
                    self.post(channel, &picture(game, rows)).await;
                }
            }
            _ => {
                for id in pictures {
                    if let Err(e) = channel.delete_message(&self.http, id).await {
                        crate::metrics::discord_failed();
                        tracing::warn!(%game, error = %e, "could not delete the grid's picture");
                    }
                }
            }
        }
    }
}
