//! The gateway: a websocket per client on its own port (plain `ws://`, JSON text frames,
//! no compression even though serenity's IDENTIFY asks for `compress: true`: serenity reads
//! text frames as plain JSON).
//!
//! HELLO (op 10) on connect; IDENTIFY (op 2, token checked, else close 4004; `shard: [id,
//! total]` checked, else close 4010) starts a session of that shard: READY then a GUILD_CREATE
//! for each server on the shard (`shards.rs` routes every later event to its shard); RESUME (op 6) of a known session replays the dispatches after the
//! client's `seq` and sends RESUMED, of an unknown one answers INVALID_SESSION (op 9, false);
//! HEARTBEAT (op 1) is answered with op 11. Every dispatch gets the session's next `s`, and is
//! parsed with serenity's own `GatewayEvent` before it is sent: one serenity would drop
//! (unparseable, or an unknown event) is a problem.

use std::sync::Arc;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::{Conn, Inner, Out, Session, World};

pub(super) async fn serve(listener: TcpListener, inner: Arc<Inner>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let inner = inner.clone();
        tokio::spawn(async move { connection(stream, inner).await });
    }
}

// The handshake callback's error type is tungstenite's, large as it is.
#[allow(clippy::result_large_err)]
async fn connection(stream: tokio::net::TcpStream, inner: Arc<Inner>) {
    if inner
        .silent_gateway
        .load(std::sync::atomic::Ordering::Relaxed)
    {
        // Silent mode: held open, never answered, until the client gives up.
        let _held = stream;
        std::future::pending::<()>().await;
        return;
    }
    let mut query = None;
    let callback =
        |req: &tokio_tungstenite::tungstenite::handshake::server::Request,
         resp: tokio_tungstenite::tungstenite::handshake::server::Response| {
            query = req.uri().query().map(str::to_string);
            Ok(resp)
        };
    let ws = match tokio_tungstenite::accept_hdr_async(stream, callback).await {
        Ok(ws) => ws,
        Err(e) => {
            inner.with(|w| w.problem(format!("gateway: websocket handshake failed: {e}")));
            return;
        }
    };
    let (mut sink, mut source) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let conn_id = inner.with(|w| {
        if !query
            .as_deref()
            .is_some_and(|q| q.split('&').any(|kv| kv == "v=10"))
        {
            w.problem(format!(
                "gateway: connected without ?v=10 (query {query:?})"
            ));
        }
        let id = w.next_conn;
        w.next_conn += 1;
        w.stats.connections += 1;
        w.conns.insert(
            id,
            Conn {
                tx: tx.clone(),
                session: None,
                ready: false,
            },
        );
        id
    });
    let hello = json!({"op": 10, "d": {"heartbeat_interval": inner.heartbeat_interval_ms}, "s": null, "t": null});
    let _ = tx.send(Out::Text(hello.to_string()));
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(Out::Text(text)) => {
                    if sink.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                Some(Out::Close(code, reason)) => {
                    let frame = CloseFrame { code: CloseCode::from(code), reason: reason.into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    let _ = sink.close().await;
                    break;
                }
                None => break,
            },
            msg = source.next() => match msg {
                Some(Ok(Message::Text(text))) => inner.with(|w| w.receive(conn_id, &text, &inner.token)),
                Some(Ok(Message::Binary(_))) => {
                    inner.with(|w| w.problem("gateway: client sent a binary frame"));
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
    inner.with(|w| {
        if let Some(c) = w.conns.remove(&conn_id) {
            if let Some(s) = c.session.and_then(|s| w.sessions.get_mut(&s)) {
                if s.conn == Some(conn_id) {
                    s.conn = None;
                }
            }
        }
    });
}

impl World {
    fn send(&mut self, conn: u64, v: &Value) {
        if let Some(c) = self.conns.get(&conn) {
            let _ = c.tx.send(Out::Text(v.to_string()));
        }
    }

    pub(super) fn close(&mut self, conn: u64, code: u16, reason: &str) {
        if let Some(c) = self.conns.get(&conn) {
            let _ = c.tx.send(Out::Close(code, reason.to_string()));
        }
    }

    /// One frame from a client.
    fn receive(&mut self, conn: u64, text: &str, token: &str) {
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            self.problem(format!("gateway: client sent invalid JSON: {text}"));
            self.close(conn, 4002, "Error while decoding payload.");
            return;
        };
        let d = &v["d"];
        match v["op"].as_u64() {
            Some(1) => {
                self.stats.heartbeats += 1;
                self.send(conn, &json!({"op": 11, "d": null, "s": null, "t": null}));
            }
            Some(2) => {
                let sent = d["token"].as_str().unwrap_or("");
                if sent != token && sent != format!("Bot {token}") {
                    self.problem(format!("gateway: IDENTIFY with a wrong token {sent:?}"));
                    self.close(conn, 4004, "Authentication failed.");
                    return;
                }
                if self.conns.get(&conn).is_some_and(|c| c.session.is_some()) {
                    self.problem("gateway: IDENTIFY twice on one connection");
                    self.close(conn, 4005, "Already authenticated.");
                    return;
                }
                for key in ["properties", "intents"] {
                    if d[key].is_null() {
                        self.problem(format!("gateway: IDENTIFY without {key}"));
                    }
                }
                let Some((shard, total)) = self.identify_shard(conn, &d["shard"]) else {
                    return;
                };
                self.stats.identifies += 1;
                let session_id = format!("fakesession{:x}", self.snowflake());
                // The newest session of a shard gets its events. An older one still
                // connected (a client not shut down) is left alone but gets nothing more;
                // closing it would make its client resume, be refused, identify again and
                // take the events back.
                self.current.insert(shard, session_id.clone());
                self.sessions.insert(
                    session_id.clone(),
                    Session {
                        id: session_id.clone(),
                        seq: 0,
                        log: Vec::new(),
                        conn: Some(conn),
                        intents: d["intents"].as_u64().unwrap_or(0),
                        shard,
                        total,
                    },
                );
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.session = Some(session_id.clone());
                }
                let guilds = self.guilds_on(shard, total);
                let ready = self.ready_json(&session_id, json!([shard, total]), &guilds);
                self.dispatch_on(&session_id, "READY", ready);
                for g in guilds {
                    let guild = self.guild_json_of(g);
                    self.dispatch_on(&session_id, "GUILD_CREATE", guild);
                }
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.ready = true;
                }
            }
            Some(3) => {} // presence update
            Some(6) => {
                let sent = d["token"].as_str().unwrap_or("");
                if sent != token && sent != format!("Bot {token}") {
                    self.problem(format!("gateway: RESUME with a wrong token {sent:?}"));
                    self.close(conn, 4004, "Authentication failed.");
                    return;
                }
                let sid = d["session_id"].as_str().unwrap_or("").to_string();
                let seq = d["seq"].as_u64().unwrap_or(0);
                let known = self
                    .sessions
                    .get(&sid)
                    .is_some_and(|s| self.current.get(&s.shard) == Some(&sid));
                if !known {
                    self.send(conn, &json!({"op": 9, "d": false, "s": null, "t": null}));
                    return;
                }
                self.stats.resumes += 1;
                let s = self.sessions.get_mut(&sid).unwrap();
                let previous = s.conn.replace(conn);
                let replay: Vec<String> = s
                    .log
                    .iter()
                    .filter(|(n, _)| *n > seq)
                    .map(|(_, f)| f.clone())
                    .collect();
                if let Some(p) = previous.filter(|p| *p != conn) {
                    self.close(p, 4009, "Session resumed elsewhere.");
                }
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.session = Some(sid);
                    for frame in replay {
                        let _ = c.tx.send(Out::Text(frame));
                    }
                }
                self.dispatch_on(
                    &sid_of(self, conn),
                    "RESUMED",
                    json!({"_trace": ["fake-discord"]}),
                );
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.ready = true;
                }
            }
            Some(8) => {
                // Request guild members: answer with every member in one chunk.
                let members: Vec<Value> = self
                    .members()
                    .into_iter()
                    .map(|u| self.member_json(u, true, false))
                    .collect();
                let guild = d["guild_id"]
                    .as_str()
                    .and_then(|g| g.parse().ok())
                    .filter(|g| self.is_guild(*g))
                    .unwrap_or(self.guild_id);
                let chunk = json!({
                    "guild_id": guild.to_string(),
                    "members": members,
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": d["nonce"],
                });
                self.dispatch_on(&sid_of(self, conn), "GUILD_MEMBERS_CHUNK", chunk);
            }
            other => {
                self.problem(format!("gateway: unexpected op {other:?}: {text}"));
            }
        }
    }

    /// Sends a dispatch (op 0) for `guild` (None: a DM) on the session of the shard that
    /// owns it, if its intents include `intent`.
    pub fn dispatch_if(&mut self, guild: Option<u64>, intent: u64, t: &str, d: Value) {
        let wanted = self
            .session_for(guild)
            .is_some_and(|s| s.intents & intent != 0);
        if wanted {
            self.dispatch_to(guild, t, d);
        }
    }

    /// Sends a dispatch (op 0) for `guild` (None: a DM) on the current session of the
    /// shard that owns it; nothing if that shard has none.
    pub fn dispatch_to(&mut self, guild: Option<u64>, t: &str, d: Value) {
        if let Some(sid) = self.session_for(guild).map(|s| s.id.clone()) {
            self.dispatch_on(&sid, t, d);
        }
    }

    /// Sends a dispatch (op 0) with the next `s` of session `sid` (kept for RESUME).
    pub fn dispatch_on(&mut self, sid: &str, t: &str, d: Value) {
        let Some(s) = self.sessions.get_mut(sid) else {
            return;
        };
        s.seq += 1;
        let frame = json!({"op": 0, "s": s.seq, "t": t, "d": d});
        let text = frame.to_string();
        s.log.push((s.seq, text.clone()));
        let conn = s.conn;
        self.stats.dispatched += 1;
        if let Some(check) = self.checks.map(|c| c.event) {
            if let Err(e) = check(t, &frame) {
                self.problem(format!("gateway: serenity would drop {t}: {e}"));
            }
        }
        if let Some(c) = conn.and_then(|c| self.conns.get(&c)) {
            let _ = c.tx.send(Out::Text(text));
        }
    }
}

/// The session a connection is attached to.
fn sid_of(w: &World, conn: u64) -> String {
    w.conns
        .get(&conn)
        .and_then(|c| c.session.clone())
        .unwrap_or_default()
}

/// Parses a dispatch with the serenity type its shard parses it into; an error means
/// serenity would drop the event. Installed by [`super::FakeDiscord::check_with_serenity`].
/// Each event type is parsed on its own (not through `GatewayEvent`, whose Deserialize would
/// instantiate the whole model in the test binary).
pub(super) fn check_event(t: &str, frame: &Value) -> Result<(), String> {
    use serenity::model::event::*;
    fn parse<T: serde::de::DeserializeOwned>(d: &Value) -> Result<(), String> {
        serde_json::from_value::<T>(d.clone())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    if frame["op"] != 0 || !frame["s"].is_u64() || frame["t"] != t {
        return Err(format!("bad dispatch envelope {}", frame["op"]));
    }
    let d = &frame["d"];
    match t {
        "READY" => parse::<ReadyEvent>(d),
        "RESUMED" => parse::<ResumedEvent>(d),
        "GUILD_CREATE" => parse::<GuildCreateEvent>(d),
        "MESSAGE_CREATE" => parse::<MessageCreateEvent>(d),
        "MESSAGE_UPDATE" => parse::<MessageUpdateEvent>(d),
        "MESSAGE_DELETE" => parse::<MessageDeleteEvent>(d),
        "GUILD_MEMBER_ADD" => parse::<GuildMemberAddEvent>(d),
        "GUILD_MEMBER_UPDATE" => parse::<GuildMemberUpdateEvent>(d),
        "GUILD_ROLE_CREATE" => parse::<GuildRoleCreateEvent>(d),
        "THREAD_CREATE" => parse::<ThreadCreateEvent>(d),
        "GUILD_MEMBERS_CHUNK" => parse::<GuildMembersChunkEvent>(d),
        "INTERACTION_CREATE" => {
            let ev: InteractionCreateEvent =
                serde_json::from_value(d.clone()).map_err(|e| e.to_string())?;
            let want = d["type"].as_u64().unwrap_or(0);
            let got = ev.interaction.kind();
            if u64::from(u8::from(got)) != want {
                return Err(format!("interaction of type {want} parsed as {got:?}"));
            }
            Ok(())
        }
        other => Err(format!("the fake sends {other} but has no check for it")),
    }
}
