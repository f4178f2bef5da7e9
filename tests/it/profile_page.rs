//! `mondo stats PLAYER --html FILE`: the profile page, with the rating over time drawn
//! as an inline chart, checked in a browser.

use crate::store_ratings::{duel, mondo, triple};
use mondo::rules::PlayerId;
use mondo::store::Store;

/// alice's record: four duels with bob (won, lost, won, won), then a Triple won; all
/// rated.
async fn alice_played(path: &std::path::Path) {
    let store = Store::open(path).await.unwrap();
    let alice = PlayerId(store.local_player("alice").await.unwrap());
    let bob = PlayerId(store.local_player("bob").await.unwrap());
    for (i, loser) in [bob, alice, bob, bob].into_iter().enumerate() {
        duel(
            &store,
            None,
            alice,
            bob,
            Some(loser),
            1_000 * (i as u64 + 1),
        )
        .await;
    }
    triple(&store, None, alice, bob, bob, 9).await;
    store.close().await;
}

#[tokio::test]
async fn the_profile_page_draws_the_rating_over_time_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("profile.db");
    alice_played(&path).await;
    let file = dir.path().join("alice.html");
    let out = mondo(&[
        "stats",
        "alice",
        "--html",
        file.to_str().unwrap(),
        "--db",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        said.trim(),
        format!("alice's profile page is {}", file.display())
    );
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("<script"),
        "nothing from elsewhere, no script"
    );
    assert!(
        html.contains("Favourite game: Zendo Duel (4 of 5 matches)"),
        "{html}"
    );
    assert!(
        html.contains("Current streak: 3 wins in a row. Longest winning streak: 3."),
        "{html}"
    );
    // The ratings along the left are round values, evenly spaced (as on `/stats`).
    let ticks: Vec<i64> = html
        .split("<text")
        .filter_map(|t| {
            let (tag, rest) = t.split_once('>')?;
            let label = &rest[..rest.find('<')?];
            tag.contains("tick").then(|| {
                label
                    .parse()
                    .unwrap_or_else(|_| panic!("{label:?} is not whole"))
            })
        })
        .collect();
    assert!(ticks.len() >= 3, "{ticks:?}");
    let step = ticks[1] - ticks[0];
    assert!([10, 20, 50, 100, 200, 500].contains(&step), "{ticks:?}");
    assert!(ticks.iter().all(|t| t % step == 0), "{ticks:?}");
    assert!(ticks.windows(2).all(|w| w[1] - w[0] == step), "{ticks:?}");
    // --json and --html are one or the other.
    let both = mondo(&[
        "stats",
        "alice",
        "--json",
        "--html",
        "x.html",
        "--db",
        path.to_str().unwrap(),
    ]);
    assert_eq!(both.status.code(), Some(2), "{both:?}");

    let Some(probe) = crate::browser::probe(
        dir.path(),
        &html,
        "const lines = [...document.querySelectorAll('svg polyline.rating')].map(p => {\
           const box = p.getBBox();\
           return {game: p.dataset.game, points: p.points.numberOfItems, \
             width: box.width, height: box.height}; });\
         const svg = document.querySelector('#chart svg').getBoundingClientRect();\
         const dots = [...document.querySelectorAll('#chart circle title')].map(t => t.textContent);\
         const ratings = [...document.querySelectorAll('#ratings li')].map(li => li.innerText);\
         return {lines, dots, ratings, chart: {width: svg.width, height: svg.height}};",
    ) else {
        return;
    };
    crate::browser::fits_a_phone(&probe);
    // A line per game: the duel's from before its first match through four, the
    // Triple's through one; each drawn (a box with a width).
    let lines = probe["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{probe}");
    assert_eq!(lines[0]["game"], "zendo-duel");
    assert_eq!(lines[0]["points"], 5);
    assert_eq!(lines[1]["game"], "zendo-triple");
    assert_eq!(lines[1]["points"], 2);
    for line in lines {
        assert!(line["width"].as_f64().unwrap() > 0.0, "{probe}");
        assert!(line["height"].as_f64().unwrap() > 0.0, "{probe}");
    }
    let chart = &probe["chart"];
    assert!(chart["width"].as_f64().unwrap() > 250.0, "{probe}");
    assert!(chart["height"].as_f64().unwrap() > 100.0, "{probe}");
    let dots: Vec<String> = serde_json::from_value(probe["dots"].clone()).unwrap();
    assert_eq!(dots.len(), 5, "{probe}");
    assert!(dots[0].starts_with("Zendo Duel #1: 1"), "{dots:?}");
    let ratings: Vec<String> = serde_json::from_value(probe["ratings"].clone()).unwrap();
    assert_eq!(ratings.len(), 2, "{probe}");
    assert!(
        ratings
            .iter()
            .any(|r| r.ends_with("4 rated games: 3 wins, 1 loss, 0 draws")),
        "{ratings:?}"
    );
}
