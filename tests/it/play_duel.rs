//! `mondo play --duel`: two players at one terminal, driven through standard input as a
//! program would, with one JSON object per line.

use crate::play_support;

use play_support::{Mondo, message, of, play};

const HIDDEN: &str = "some piece points up";

const DUEL: [&str; 9] = [
    "--duel",
    "--players",
    "alice,bob",
    "--pattern",
    HIDDEN,
    "--seed",
    "3",
    "--host",
    "host",
];

#[test]
fn a_scripted_duel_names_its_actors_and_keeps_answers_secret_until_the_reveal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("duel.db");
    let out = play(
        &db,
        &DUEL,
        "koan 2^\n\
         alice: start bob\n\
         bob: start alice\n\
         bob: koan 2^ 3>\n\
         koan 2^ 3> challenge\n\
         answer obeys\n\
         alice: answer obeys\n\
         status\n\
         bob: answer not\n\
         guess exactly one piece points up\n\
         confirm\n\
         carol: skip\n\
         end\n\
         alice: pause\n\
         host: pause\n\
         status\n\
         bob: koan 1v\n\
         host: resume\n\
         pass\n\
         pass\n\
         board\n\
         bob: resign\n",
    );
    assert_eq!(out[0]["event"], "started");
    assert_eq!(out[0]["players"], serde_json::json!(["alice", "bob"]));
    // Before the start, the player with the advantage (bob, the second) must choose.
    let status = of(&out, "status");
    assert_eq!(status[0]["phase"], "choosing_starter");
    assert_eq!(status[0]["advantage"], "bob");

    let errors = of(&out, "error");
    let said: Vec<&str> = errors.iter().map(|e| message(e)).collect();
    assert!(said[0].contains("bob, who has the advantage"), "{said:?}");
    // A refusal is said to who acted (a shared table addresses it).
    assert!(said[1].starts_with("it is not your turn"), "{said:?}");
    assert_eq!(errors[1]["to"], "alice");
    assert!(
        said[2].contains("not your turn: waiting for alice"),
        "{said:?}"
    );
    assert!(said[3].contains("say who answers"), "{said:?}");
    assert!(said[4].contains("`carol` is not at this table"), "{said:?}");
    assert!(said[5].contains("`end turn`"), "{said:?}");
    assert!(said[6].contains("only a host can pause"), "{said:?}");
    assert!(said[7].contains("paused"), "{said:?}");
    assert_eq!(said.len(), 8, "{said:?}");

    // The challenge: alice's answer is said to be in, never what it is, until the
    // reveal, which says both with the truth and pays alice (right) a ticket.
    let revealed = out.iter().position(|e| e["event"] == "revealed").unwrap();
    for e in &out[..revealed] {
        let text = e.to_string();
        assert!(
            e.get("answer").is_none() && e.get("answers").is_none(),
            "an answer leaked before the reveal: {text}"
        );
    }
    let answered = of(&out, "answered");
    assert_eq!(answered[0]["player"], "alice");
    assert_eq!(answered[0].as_object().unwrap().len(), 2, "{}", answered[0]);
    assert_eq!(
        status[1]["challenge"]["answered"],
        serde_json::json!({"alice": true, "bob": false})
    );
    let r = &out[revealed];
    assert_eq!(r["koan"], "2^ 3>");
    assert_eq!(r["obeys"], true);
    assert_eq!(
        r["answers"],
        serde_json::json!({"alice": "obeys", "bob": "not"})
    );
    assert_eq!(r["right"], serde_json::json!({"alice": true, "bob": false}));

    // alice's guess, read back, confirmed and refuted by a structure not on the table.
    assert_eq!(of(&out, "reading")[0]["player"], "alice");
    let ce = of(&out, "counterexample");
    assert_eq!(ce.len(), 1, "{out:?}");
    assert_eq!(
        (&ce[0]["hidden"], &ce[0]["guess"]),
        (&true.into(), &false.into())
    );

    // The host paused: the status says so, and bob (out of turn anyway) waits.
    assert_eq!(status[2]["paused"], true);
    assert_eq!(
        status[2]["tickets"],
        serde_json::json!({"alice": 0, "bob": 0})
    );
    // `pass` ends alice's step 2, then skips bob's step 1 (alice gets a ticket).
    assert_eq!(of(&out, "turn_ended")[0]["player"], "alice");
    assert_eq!(of(&out, "skipped")[0]["player"], "bob");
    let board = of(&out, "board");
    let table = board.last().unwrap()["table"].as_array().unwrap();
    assert_eq!(table.len(), 4, "{table:?}");
    assert_eq!(table[2]["origin"]["how"], "challenged");
    assert_eq!(table[3]["origin"]["how"], "counterexample");

    // The result, then what it did to the ratings (docs/ratings.md).
    assert_eq!(out.last().unwrap()["event"], "ratings");
    let last = &out[out.len() - 2];
    assert_eq!(last["event"], "over");
    assert_eq!(last["how"], "resigned");
    assert_eq!(last["winner"], "alice");
    assert_eq!(last["pattern"], HIDDEN);
}

#[test]
fn clocks_run_out_by_themselves_and_status_says_the_time_left() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("clock.db");
    let mut args = DUEL.to_vec();
    args.extend(["--challenge-secs", "0.3", "--turn-secs", "600"]);
    let mut mondo = Mondo::start(&db, &args);
    mondo.send("bob: start alice");
    mondo.until("turn");
    let status = mondo.status();
    // The turn clock runs from 10:00; status reads it from the match's own clock.
    let left = status["turn_left_ms"].as_u64().unwrap();
    assert!(status["turn_clock_running"] == true && left <= 600_000 && left > 590_000);

    // Nobody answers the challenge: when its 0.3 s pass, the runtime reveals it alone
    // (both count as no answer), without any line typed.
    mondo.send("alice: koan 2^ challenge");
    let (revealed, _) = mondo.until("revealed");
    assert_eq!(revealed["time_up"], true);
    assert_eq!(
        revealed["answers"],
        serde_json::json!({"alice": "pass", "bob": "pass"})
    );
    // Nobody earned a ticket: step 2 has nothing to do, the turn passes.
    let (ended, _) = mondo.until("turn_ended");
    assert_eq!(ended["why"], "no_tickets");
    mondo.send("quit");
    mondo.until("left");
    assert!(mondo.wait());
}

#[test]
fn replaying_a_duel_in_play_shows_no_secret_until_it_is_over() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("replay.db");
    let out = play(
        &db,
        &DUEL,
        "bob: start alice\nalice: koan 2^ 3> challenge\nbob: answer not\nquit\n",
    );
    let id = out[0]["match"].to_string();
    let replay = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
            .args(["replay", &id, "--db"])
            .arg(&db)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    for text in [replay(&["--json"]), replay(&[])] {
        assert!(text.contains("challenge"), "{text}");
        assert!(!text.contains(HIDDEN), "the hidden pattern leaked: {text}");
        assert!(!text.contains("\"answer\""), "bob's answer leaked: {text}");
        assert!(
            !text.contains("answer is in:"),
            "bob's answer leaked: {text}"
        );
    }
    // A spectator hears that bob's answer is in, not what it is.
    assert!(replay(&[]).contains("bob's answer is in\n"));
    // Over, the whole log is there.
    play(&db, &["--resume", "--host", "host"], "host: end\n");
    let text = replay(&["--json"]);
    assert!(
        text.contains(HIDDEN) && text.contains("\"answer\":\"not\""),
        "{text}"
    );
}

/// `sketch`: a structure drawn for the one who typed it (addressed to them at a shared
/// table), in either piece set, read or refused; nothing reaches the match: the next
/// status is the same, and the structure is still new to the table afterwards.
#[test]
fn a_sketch_is_said_to_its_player_alone_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("sketch.db");
    let out = play(
        &db,
        &DUEL,
        "bob: start alice\n\
         status\n\
         alice: sketch 3> .. 2^ / .. 1< 1<\n\
         bob: sketch U R / . D\n\
         alice: sketch 1^ 1v arrows\n\
         alice: sketch 9z\n\
         status\n\
         alice: koan 3> .. 2^ / .. 1< 1<\n",
    );
    let sketches = of(&out, "sketch");
    assert_eq!(sketches.len(), 2, "{out:?}");
    assert_eq!(sketches[0]["to"], "alice");
    assert_eq!(sketches[0]["koan"], "3> .. 2^ / .. 1< 1<");
    assert_eq!(sketches[0]["pieces"], 4);
    assert_eq!(sketches[1]["to"], "bob");
    assert_eq!(sketches[1]["pieces"], 3);
    let errors = of(&out, "error");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|e| e["to"] == "alice"), "{errors:?}");
    assert!(message(errors[0]).contains("arrows"), "{errors:?}");
    assert!(message(errors[1]).contains("does not read"), "{errors:?}");
    // The two asked for, around the sketches (the opening said one before them).
    let status = of(&out, "status");
    let [.., before, after] = status.as_slice() else {
        panic!("{status:?}")
    };
    assert_eq!(before["turn"], 1, "{before}");
    assert_eq!(before["turn"], after["turn"]);
    assert_eq!(before["phase"], after["phase"]);
    // The sketched structure is still new: building it is accepted.
    assert_eq!(of(&out, "verdict").len(), 1, "{out:?}");
}
