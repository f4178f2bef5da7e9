//! A whole solo practice match through the public API: build, guess, be refuted,
//! win, and see the score.

use mondo::rules::zendo::testing::flat::{EventKind, flat};
use mondo::rules::zendo::testing::*;
use mondo::rules::zendo::{Outcome, Practice, Score, Zendo, ZendoMove};
use mondo::rules::{Actor, Game, Seat, Viewer};

const A: Actor = Actor::Player(ALICE);

#[test]
fn a_practice_match_from_first_koan_to_the_score() {
    let mut h: Harness<Practice> =
        Harness::practice(practice_setup(parsed("there is exactly one large piece")));
    let me = Viewer::Player(ALICE);
    assert_eq!(h.game.view(&me).table.len(), 2);
    // Three structures, observed at once (no clock: the time taken does not matter).
    for (text, obeys) in [("3^ 1^", true), ("3^ 3^", false), ("2> 2>", false)] {
        h.wait(3_600_000);
        let events = h.ok(A, observe(koan(text)));
        assert!(
            matches!(flat(&events[0].kind), EventKind::Observed { obeys: o, .. } if o == obeys),
            "{text}"
        );
    }
    // (A challenge needs an opponent: practice's moves have none, and the fronts say
    // so; see crates/mondo-play/src/games/zendo/practice.rs.)
    // A wrong guess the table does not already refute, refuted by a new structure.
    h.ok(
        A,
        guess("exactly one piece is large and some piece points up"),
    );
    h.ok(A, ZendoMove::Confirm);
    let counterexample = h.umpire_refutes();
    assert!(h.game.table().find(&counterexample.koan).is_some());
    assert_eq!(h.game.view(&me).revealed, None);
    // The right one.
    h.ok(A, guess("exactly one piece is large"));
    h.ok(A, ZendoMove::Confirm);
    h.umpire();
    let view = h.game.view(&me);
    assert_eq!(
        view.outcome,
        Some(Outcome::Solved {
            by: Seat::FIRST,
            guess: 2
        })
    );
    assert_eq!(
        view.score,
        Score {
            koans: 3,
            guesses: 2
        }
    );
    assert_eq!(view.score.total(), 5);
    assert_eq!(
        view.revealed.as_deref(),
        Some("there is exactly one large piece")
    );
    assert_eq!(h.game.version(), h.log.len() as u64);
    assert_eq!(
        serde_json::to_value(&h.game).unwrap(),
        serde_json::to_value(h.replayed()).unwrap()
    );
}
