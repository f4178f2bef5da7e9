//! The integration tests, one binary: each module was a test file of its own, and one
//! build of this crate serves them all (a fresh clone's `cargo test` links two test
//! binaries, this and the fake-Discord end-to-end tests, instead of forty).

mod finder_support;
mod lang_support;
mod play_support;
mod race_game;

mod ai_seats;
mod cli_koan;
mod cli_lang;
mod cli_pipes;
mod finder_bruteforce;
mod finder_cli;
mod finder_compare;
mod finder_generate;
mod finder_semantics;
mod finder_suite;
mod game_folders;
mod host_lookup;
mod koan_enumerate;
mod koan_notation;
mod lang_coverage;
mod lang_families;
mod lang_golden;
mod lang_heldout;
mod lang_phrasings;
mod lang_refusals;
mod lang_roundtrip;
mod lang_sentences;
mod lang_spec;
mod lang_symbolic;
mod lang_terms;
mod lang_tiles;
mod lang_vocabulary;
mod module_graph;
mod play_assembly;
mod play_bluffs;
mod play_classic;
mod play_cli;
mod play_duel;
mod play_triple;
mod pure_modules;
mod render_cli;
mod restart_duel;
mod rules_duel;
mod rules_practice;
mod rules_props;
mod runtime_race;
mod runtime_zendo;
mod secrecy;
mod serve_cli;
mod store_faults;
mod store_log;
mod store_migrate;
mod store_ratings;
mod store_replay_cli;
