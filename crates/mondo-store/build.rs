// `sqlx::migrate!` embeds the workspace's migrations/sqlite and migrations/postgres at
// compile time: a new migration file alone must rebuild the crate (the build script
// sqlx's documentation recommends).
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
    println!("cargo:rerun-if-changed=../../migrations/sqlite");
    println!("cargo:rerun-if-changed=../../migrations/postgres");
}
