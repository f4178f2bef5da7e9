//! The REST side: one axum fallback handler. A request under `/api/v10` is matched to its
//! operation in Discord's OpenAPI document, its body validated against the operation's
//! request schema, then answered by the handler for that operation id; the answer is checked
//! against the response schema and parsed with the serenity type the bot's call expects.
//! Files uploaded with messages are served back at `/attachments/{id}/{filename}`.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::{Map, Value, json};
use tokio::net::TcpListener;

use super::payloads::{normalize_components, normalize_embeds, timestamp_now};
use super::schema::{Route, spec};
use super::{
    FileRec, Inner, RecordedRequest, Reply, ReplyKind, StoredMessage, Upload, World,
    content_type_of,
};

pub(super) async fn serve(listener: TcpListener, inner: Arc<Inner>) {
    let app = axum::Router::new().fallback(handle).with_state(inner);
    let _ = axum::serve(listener, app).await;
}

/// What a handler answers: status and JSON body (none for 204).
type Answer = (u16, Option<Value>);

/// How long Discord remembers an enforced nonce ("the past few minutes").
const NONCE_WINDOW: std::time::Duration = std::time::Duration::from_secs(5 * 60);

/// A nonce as a key: `"12"` and `12` are the same nonce (Discord echoes either).
fn nonce_key(nonce: &Value) -> String {
    match nonce {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn error(status: u16, code: u64, message: &str) -> Answer {
    (status, Some(json!({"code": code, "message": message})))
}

struct Incoming {
    method: String,
    path: String,
    query: Option<String>,
    content_type: Option<String>,
    authorization: Option<String>,
    body: Option<Value>,
    /// Text fields of a multipart body other than `payload_json`.
    form_fields: Map<String, Value>,
    uploads: Vec<Upload>,
    malformed: Option<String>,
    at: Instant,
    reason: Option<String>,
    user_agent: Option<String>,
}

async fn handle(State(inner): State<Arc<Inner>>, req: Request) -> Response {
    let at = Instant::now();
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let header_str = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let [content_type, authorization, reason, user_agent] = [
        "content-type",
        "authorization",
        "x-audit-log-reason",
        "user-agent",
    ]
    .map(header_str);

    if method == "GET" && path.starts_with("/attachments/") {
        return attachment(&inner, &path, at);
    }

    let media = content_type.as_deref().map(|c| {
        c.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    let mut incoming = Incoming {
        method,
        path,
        query,
        content_type: media.clone(),
        authorization,
        body: None,
        form_fields: Map::new(),
        uploads: Vec::new(),
        malformed: None,
        at,
        reason,
        user_agent,
    };
    if media.as_deref() == Some("multipart/form-data") {
        match Multipart::from_request(req, &()).await {
            Ok(mut form) => loop {
                match form.next_field().await {
                    Ok(Some(field)) => {
                        let name = field.name().unwrap_or("").to_string();
                        let filename = field.file_name().map(str::to_string);
                        let ctype = field.content_type().map(str::to_string);
                        let bytes = match field.bytes().await {
                            Ok(b) => b.to_vec(),
                            Err(e) => {
                                incoming.malformed = Some(format!("multipart field {name}: {e}"));
                                break;
                            }
                        };
                        if let Some(filename) = filename {
                            let content_type = ctype.unwrap_or_else(|| content_type_of(&filename));
                            incoming.uploads.push(Upload {
                                field: name,
                                filename,
                                content_type,
                                bytes,
                            });
                        } else if name == "payload_json" {
                            match serde_json::from_slice(&bytes) {
                                Ok(v) => incoming.body = Some(v),
                                Err(e) => {
                                    incoming.malformed =
                                        Some(format!("payload_json is not JSON: {e}"))
                                }
                            }
                        } else {
                            let text = String::from_utf8_lossy(&bytes).into_owned();
                            incoming.form_fields.insert(name, Value::String(text));
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        incoming.malformed = Some(format!("multipart body: {e}"));
                        break;
                    }
                }
            },
            Err(e) => incoming.malformed = Some(format!("multipart body: {e}")),
        }
    } else {
        match axum::body::to_bytes(req.into_body(), 64 << 20).await {
            Ok(bytes) if bytes.is_empty() => {}
            Ok(bytes) => match media.as_deref() {
                Some("application/json") => match serde_json::from_slice(&bytes) {
                    Ok(v) => incoming.body = Some(v),
                    Err(e) => incoming.malformed = Some(format!("body is not JSON: {e}")),
                },
                other => {
                    incoming.malformed = Some(format!("a body with content type {other:?}"));
                }
            },
            Err(e) => incoming.malformed = Some(format!("reading the body: {e}")),
        }
    }

    let (status, body) = inner.with(|w| w.rest(incoming, &inner.token));
    let mut resp = match &body {
        Some(v) => Response::new(Body::from(v.to_string())),
        None => Response::new(Body::empty()),
    };
    *resp.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = resp.headers_mut();
    if body.is_some() {
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
    }
    h.insert("x-ratelimit-limit", HeaderValue::from_static("50"));
    h.insert("x-ratelimit-remaining", HeaderValue::from_static("49"));
    h.insert("x-ratelimit-reset-after", HeaderValue::from_static("0.001"));
    h.insert("x-ratelimit-bucket", HeaderValue::from_static("fake"));
    resp
}

fn attachment(inner: &Inner, path: &str, at: Instant) -> Response {
    let id: Option<u64> = path
        .trim_start_matches("/attachments/")
        .split('/')
        .next()
        .and_then(|s| s.parse().ok());
    let found = inner.with(|w| {
        let found = id
            .and_then(|id| w.files.get(&id))
            .map(|f| (f.bytes.clone(), f.content_type.clone()));
        if found.is_none() {
            w.problem(format!("GET {path}: no such attachment"));
        }
        w.requests.push(RecordedRequest {
            method: "GET".into(),
            path: path.to_string(),
            query: None,
            content_type: None,
            body: None,
            files: Vec::new(),
            uploads: Vec::new(),
            status: if found.is_some() { 200 } else { 404 },
            response: None,
            operation_id: None,
            at,
            reason: None,
            user_agent: None,
        });
        found
    });
    match found {
        Some((bytes, ctype)) => {
            let mut r = Response::new(Body::from(bytes));
            if let Ok(v) = HeaderValue::from_str(&ctype) {
                r.headers_mut().insert(header::CONTENT_TYPE, v);
            }
            r
        }
        None => {
            let mut r = Response::new(Body::from("Not Found"));
            *r.status_mut() = StatusCode::NOT_FOUND;
            r
        }
    }
}

impl World {
    fn rest(&mut self, req: Incoming, token: &str) -> Answer {
        let mut rec = RecordedRequest {
            method: req.method.clone(),
            path: req.path.clone(),
            query: req.query.clone(),
            content_type: req.content_type.clone(),
            body: req.body.clone(),
            files: req
                .uploads
                .iter()
                .map(|u| (u.filename.clone(), u.bytes.clone()))
                .collect(),
            uploads: req.uploads.clone(),
            status: 0,
            response: None,
            operation_id: None,
            at: req.at,
            reason: req.reason.clone(),
            user_agent: req.user_agent.clone(),
        };
        let (status, body) = self.answer(&req, token, &mut rec);
        rec.status = status;
        rec.response = body.clone();
        self.requests.push(rec);
        (status, body)
    }

    fn answer(&mut self, req: &Incoming, token: &str, rec: &mut RecordedRequest) -> Answer {
        let what = format!("{} {}", req.method, req.path);
        if req.authorization.as_deref() != Some(&format!("Bot {token}")) {
            self.problem(format!(
                "{what}: Authorization {:?} is not the bot token",
                req.authorization
            ));
            return error(401, 0, "401: Unauthorized");
        }
        let Some(sub) = req.path.strip_prefix("/api/v10") else {
            self.problem(format!("{what}: not under /api/v10"));
            return error(404, 0, "404: Not Found");
        };
        let Some(route) = spec().route(&req.method, sub) else {
            self.problem(format!("{what}: no such route in Discord's API"));
            return error(404, 0, "404: Not Found");
        };
        let op = route.op.operation_id.clone();
        rec.operation_id = Some(op.clone());
        if let Some(m) = &req.malformed {
            self.problem(format!("{op} ({what}): malformed body: {m}"));
            return error(400, 50109, "The request body contains invalid JSON.");
        }
        // The instance Discord's schema describes: the JSON body, or for a multipart body its
        // payload_json with the other form fields and a string per file.
        let instance = match req.content_type.as_deref() {
            Some("multipart/form-data") => {
                let mut m = match &req.body {
                    Some(Value::Object(m)) => m.clone(),
                    Some(other) => {
                        self.problem(format!(
                            "{op} ({what}): payload_json is not an object: {other}"
                        ));
                        Map::new()
                    }
                    None => Map::new(),
                };
                m.extend(req.form_fields.clone());
                for u in &req.uploads {
                    m.insert(u.field.clone(), Value::String(String::new()));
                }
                Some(Value::Object(m))
            }
            _ => req.body.clone(),
        };
        if let Some(instance) = &instance {
            let ct = req.content_type.as_deref().unwrap_or("application/json");
            let violations = spec().check_request(&route.op, ct, instance);
            if !violations.is_empty() {
                for v in &violations {
                    self.problem(format!(
                        "{op} ({what}): request body violates the schema: {v}"
                    ));
                }
                let errors: Vec<Value> = violations
                    .iter()
                    .map(|v| json!({"code": "FAKE_SCHEMA_VIOLATION", "message": v}))
                    .collect();
                return (
                    400,
                    Some(
                        json!({"code": 50035, "message": "Invalid Form Body", "errors": {"_errors": errors}}),
                    ),
                );
            }
        } else if !spec().request_types(&route.op).is_empty()
            && spec().doc()["paths"][&route.op.template][route.op.method.to_lowercase()]["requestBody"]
                ["required"]
                == true
        {
            self.problem(format!(
                "{op} ({what}): the operation requires a body, none was sent"
            ));
            return error(400, 50035, "Invalid Form Body");
        }

        let body = req.body.clone().unwrap_or(Value::Null);
        let (status, answer) = self.operation(&op, &route, &body, req);
        if let Some(v) = &answer {
            if (200..300).contains(&status) {
                for p in spec().check_response(&route.op, status, v) {
                    self.problem(format!(
                        "{op}: the fake's own response violates the schema: {p}"
                    ));
                }
                if let Err(e) = check_serenity(&op, v) {
                    self.problem(format!(
                        "{op}: serenity cannot parse the fake's response: {e}"
                    ));
                }
            }
        }
        (status, answer)
    }

    fn operation(&mut self, op: &str, route: &Route, body: &Value, req: &Incoming) -> Answer {
        match op {
            "get_gateway" => (200, Some(json!({"url": self.gateway_url}))),
            "get_bot_gateway" => (
                200,
                Some(json!({
                    "url": self.gateway_url,
                    "shards": self.shard_count,
                    "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": self.max_concurrency},
                })),
            ),
            "get_my_oauth2_application" | "get_my_application" => {
                (200, Some(self.application_json()))
            }
            "get_my_user" => {
                let mut u = self.user_json_by_id(self.bot_id);
                u["mfa_enabled"] = false.into();
                u["locale"] = "en-US".into();
                u["premium_type"] = 0.into();
                u["verified"] = true.into();
                u["email"] = Value::Null;
                (200, Some(u))
            }
            "get_user" => match route.id("user_id").filter(|u| self.users.contains_key(u)) {
                Some(u) => (200, Some(self.user_json_by_id(u))),
                None => error(404, 10013, "Unknown User"),
            },
            "get_guild_member" => {
                if !route.id("guild_id").is_some_and(|g| self.is_guild(g)) {
                    return error(404, 10004, "Unknown Guild");
                }
                match route
                    .id("user_id")
                    .filter(|u| self.users.get(u).is_some_and(|u| u.member.is_some()))
                {
                    Some(u) => (200, Some(self.member_json(u, true, false))),
                    None => error(404, 10007, "Unknown Member"),
                }
            }
            "get_channel" => match route.id("channel_id") {
                Some(c) if self.is_guild_channel(c) => (200, Some(self.text_channel_json(c))),
                Some(c) if self.dm_user(c).is_some() => (200, Some(self.dm_channel_json(c))),
                _ => error(404, 10003, "Unknown Channel"),
            },
            "get_guild" | "list_guild_roles" | "list_guild_members" | "list_guild_channels"
                if !route.id("guild_id").is_some_and(|g| self.is_guild(g)) =>
            {
                error(404, 10004, "Unknown Guild")
            }
            "get_guild" => {
                let mut g = self.guild_json_of(route.id("guild_id").unwrap_or(self.guild_id));
                let m = g.as_object_mut().unwrap();
                for key in [
                    "joined_at",
                    "large",
                    "unavailable",
                    "member_count",
                    "voice_states",
                    "members",
                    "channels",
                    "threads",
                    "presences",
                    "stage_instances",
                    "guild_scheduled_events",
                    "soundboard_sounds",
                    "lazy",
                ] {
                    m.remove(key);
                }
                m.insert("home_header".into(), Value::Null);
                m.insert("region".into(), "deprecated".into());
                m.insert("nsfw".into(), false.into());
                if query_param(req, "with_counts").as_deref() == Some("true") {
                    m.insert(
                        "approximate_member_count".into(),
                        self.members().len().into(),
                    );
                    m.insert("approximate_presence_count".into(), 0.into());
                }
                (200, Some(g))
            }
            "list_guild_roles" => {
                let roles = self.roles.keys().map(|r| self.role_json(*r)).collect();
                (200, Some(Value::Array(roles)))
            }
            "list_guild_channels" => {
                let guild = route.id("guild_id").unwrap_or(self.guild_id);
                (200, Some(Value::Array(self.text_channels_json_of(guild))))
            }
            "list_guild_members" => {
                let limit = query_param(req, "limit")
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(1);
                let after: u64 = query_param(req, "after")
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(0);
                let members = self
                    .members()
                    .into_iter()
                    .filter(|u| *u > after)
                    .take(limit)
                    .map(|u| self.member_json(u, true, false))
                    .collect();
                (200, Some(Value::Array(members)))
            }
            "list_application_commands"
            | "bulk_set_application_commands"
            | "create_application_command"
            | "get_application_command"
            | "update_application_command"
            | "delete_application_command"
            | "list_guild_application_commands"
            | "bulk_set_guild_application_commands"
            | "create_guild_application_command"
            | "get_guild_application_command"
            | "update_guild_application_command"
            | "delete_guild_application_command" => self.commands_op(op, route, body),
            "create_dm" => {
                let recipient = body["recipient_id"].as_str().and_then(|s| s.parse().ok());
                // The bot may play (the AI student's seat is the bot's own user on
                // Discord), but Discord has no DM with oneself: a bot that asks is wrong.
                if recipient == Some(self.bot_id) {
                    self.problem("the bot asked for a DM channel with itself");
                }
                match recipient.filter(|u| self.users.contains_key(u) && *u != self.bot_id) {
                    Some(u) => {
                        let c = self.dm_channel_for(u);
                        (200, Some(self.dm_channel_json(c)))
                    }
                    None => error(400, 50033, "Invalid Recipient(s)"),
                }
            }
            "create_message" => self.create_message(route, body, req),
            "create_thread" => self.create_thread(route, body),
            "list_messages" => {
                let Some(c) = route.id("channel_id").filter(|c| self.is_channel(*c)) else {
                    return error(404, 10003, "Unknown Channel");
                };
                let limit = query_param(req, "limit")
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(50usize);
                let list: Vec<Value> = self
                    .messages
                    .values()
                    .rev()
                    .filter(|m| m.channel_id == c && !m.ephemeral)
                    .take(limit)
                    .map(|m| self.message_json(m))
                    .collect();
                (200, Some(Value::Array(list)))
            }
            "get_message" | "update_message" | "delete_message" => {
                let c = route.id("channel_id");
                let m = route.id("message_id");
                let Some(msg) = m
                    .and_then(|m| self.messages.get(&m))
                    .filter(|m| Some(m.channel_id) == c && !m.ephemeral)
                    .cloned()
                else {
                    return error(404, 10008, "Unknown Message");
                };
                match op {
                    "get_message" => (200, Some(self.message_json(&msg))),
                    "update_message" => {
                        if msg.author_id != self.bot_id {
                            return error(
                                403,
                                50005,
                                "Cannot edit a message authored by another user",
                            );
                        }
                        self.edit_message(msg.id, body, &req.uploads)
                    }
                    _ => {
                        self.remove_message(msg.id);
                        (204, None)
                    }
                }
            }
            "create_interaction_response" => self.interaction_callback(route, body, req),
            "execute_webhook"
            | "get_original_webhook_message"
            | "update_original_webhook_message"
            | "delete_original_webhook_message"
            | "get_webhook_message"
            | "update_webhook_message"
            | "delete_webhook_message" => self.webhook_op(op, route, body, req),
            _ => {
                self.problem(format!(
                    "{op} ({} {}): not implemented by the fake Discord",
                    req.method, req.path
                ));
                error(404, 0, "404: Not Found")
            }
        }
    }

    pub fn application_json(&self) -> Value {
        json!({
            "id": self.app_id.to_string(),
            "name": "Mondo",
            "icon": null,
            "description": "A Zendo umpire (fake Discord)",
            "type": null,
            "bot": self.user_json_by_id(self.bot_id),
            "bot_public": true,
            "bot_require_code_grant": false,
            "verify_key": "0000000000000000000000000000000000000000000000000000000000000000",
            "flags": 0,
            "flags_new": "0",
            "redirect_uris": [],
            "interactions_endpoint_url": null,
            "role_connections_verification_url": null,
            "owner": self.user_json_by_id(self.owner_id),
            "approximate_guild_count": 1,
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "team": null,
            "eligible_oauth2_scopes": [],
            "integration_types_config": {"0": {}},
        })
    }

    // ----- commands

    fn commands_op(&mut self, op: &str, route: &Route, body: &Value) -> Answer {
        if route.id("application_id") != Some(self.app_id) {
            self.problem(format!(
                "{op}: application id {} is not the bot's",
                route.param("application_id")
            ));
            return error(403, 50001, "Missing Access");
        }
        let guild = op.contains("guild");
        if guild && route.id("guild_id") != Some(self.guild_id) {
            return error(404, 10004, "Unknown Guild");
        }
        let command_id = route.id("command_id");
        match op {
            "bulk_set_application_commands" | "bulk_set_guild_application_commands" => {
                let defs = body.as_array().cloned().unwrap_or_default();
                let old = if guild {
                    &self.guild_commands
                } else {
                    &self.global_commands
                }
                .clone();
                let mut stored = Vec::new();
                for d in defs {
                    let kind = d["type"].as_u64().unwrap_or(1);
                    let id = old
                        .iter()
                        .find(|o| o["name"] == d["name"] && o["type"] == kind)
                        .and_then(|o| o["id"].as_str().and_then(|s| s.parse().ok()));
                    stored.push(self.command_json(d, id, guild));
                }
                if guild {
                    self.guild_commands = stored.clone();
                } else {
                    self.global_commands = stored.clone();
                }
                self.command_registrations += 1;
                (200, Some(Value::Array(stored)))
            }
            "create_application_command" | "create_guild_application_command" => {
                let list = if guild {
                    &self.guild_commands
                } else {
                    &self.global_commands
                };
                let kind = body["type"].as_u64().unwrap_or(1);
                let existing = list
                    .iter()
                    .position(|o| o["name"] == body["name"] && o["type"] == kind);
                let id = existing.and_then(|i| list[i]["id"].as_str().and_then(|s| s.parse().ok()));
                let c = self.command_json(body.clone(), id, guild);
                let list = if guild {
                    &mut self.guild_commands
                } else {
                    &mut self.global_commands
                };
                match existing {
                    Some(i) => list[i] = c.clone(),
                    None => list.push(c.clone()),
                }
                self.command_registrations += 1;
                (if existing.is_some() { 200 } else { 201 }, Some(c))
            }
            "list_application_commands" | "list_guild_application_commands" => (
                200,
                Some(Value::Array(
                    if guild {
                        &self.guild_commands
                    } else {
                        &self.global_commands
                    }
                    .clone(),
                )),
            ),
            _ => {
                let list = if guild {
                    &mut self.guild_commands
                } else {
                    &mut self.global_commands
                };
                let Some(i) = list
                    .iter()
                    .position(|c| c["id"].as_str().and_then(|s| s.parse().ok()) == command_id)
                else {
                    return error(404, 10063, "Unknown application command");
                };
                match op {
                    "get_application_command" | "get_guild_application_command" => {
                        (200, Some(list[i].clone()))
                    }
                    "delete_application_command" | "delete_guild_application_command" => {
                        list.remove(i);
                        (204, None)
                    }
                    _ => {
                        let mut merged = list[i].clone();
                        for (k, v) in body.as_object().into_iter().flatten() {
                            merged[k] = v.clone();
                        }
                        let c = self.command_json(merged, command_id, guild);
                        let list = if guild {
                            &mut self.guild_commands
                        } else {
                            &mut self.global_commands
                        };
                        list[i] = c.clone();
                        (200, Some(c))
                    }
                }
            }
        }
    }

    /// A command definition as Discord stores and answers it.
    fn command_json(&mut self, mut d: Value, id: Option<u64>, guild: bool) -> Value {
        strip_nulls_keep(&mut d);
        let id = id.unwrap_or_else(|| self.snowflake());
        let version = self.snowflake();
        let m = d
            .as_object_mut()
            .expect("a command definition is an object");
        m.insert("id".into(), id.to_string().into());
        m.insert("application_id".into(), self.app_id.to_string().into());
        m.insert("version".into(), version.to_string().into());
        m.entry("type").or_insert(1.into());
        m.entry("description").or_insert("".into());
        m.entry("default_member_permissions").or_insert(Value::Null);
        m.entry("nsfw").or_insert(false.into());
        if guild {
            m.insert("guild_id".into(), self.guild_id.to_string().into());
        } else {
            m.entry("integration_types").or_insert(json!([0]));
        }
        d
    }

    // ----- threads

    /// A public thread without a message in a guild's text channel (not a thread, not a
    /// DM). A private one (type 12) or a forum post is not what the fake models.
    fn create_thread(&mut self, route: &Route, body: &Value) -> Answer {
        let Some(parent) = route.id("channel_id").filter(|c| self.is_channel(*c)) else {
            return error(404, 10003, "Unknown Channel");
        };
        if !self.is_guild_channel(parent) || self.threads.iter().any(|t| t.id == parent) {
            return error(400, 50024, "Cannot execute action on this channel type");
        }
        if self.threads_refused {
            return error(403, 50013, "Missing Permissions");
        }
        if body["type"].as_u64() != Some(11) {
            self.problem(format!(
                "create_thread: type {} is not a public thread (11); without it Discord \
                 makes a private one",
                body["type"]
            ));
            return error(400, 50035, "Invalid Form Body");
        }
        let id = self.snowflake();
        let t = super::ThreadRec {
            id,
            parent,
            name: body["name"].as_str().unwrap_or_default().to_string(),
            owner: self.bot_id,
            auto_archive: body["auto_archive_duration"].as_u64().unwrap_or(1440),
        };
        self.threads.push(t.clone());
        let json = self.thread_json(&t);
        let mut event = json.clone();
        event["newly_created"] = true.into();
        let guild = self.guild_of(parent);
        self.dispatch_if(guild, 1, "THREAD_CREATE", event);
        (201, Some(json))
    }

    // ----- messages

    fn create_message(&mut self, route: &Route, body: &Value, req: &Incoming) -> Answer {
        let Some(channel) = route.id("channel_id").filter(|c| self.is_channel(*c)) else {
            return error(404, 10003, "Unknown Channel");
        };
        if let Some(u) = self.dm_user(channel) {
            if !self.users[&u].dms_open {
                return error(403, 50007, "Cannot send messages to this user");
            }
        }
        // With `enforce_nonce`, a nonce this author sent within the last few minutes
        // answers with the message it created; nothing is posted again.
        let nonce = body.get("nonce").filter(|n| !n.is_null()).cloned();
        let enforced = nonce
            .as_ref()
            .filter(|_| body["enforce_nonce"].as_bool() == Some(true))
            .map(|n| (self.bot_id, nonce_key(n)));
        if let Some(key) = &enforced {
            self.nonces.retain(|_, (_, at)| at.elapsed() < NONCE_WINDOW);
            if let Some(m) = self
                .nonces
                .get(key)
                .and_then(|(id, _)| self.messages.get(id))
            {
                let json = self.message_json(m);
                self.nonce_repeats += 1;
                return (200, Some(json));
            }
        }
        let id = self.snowflake();
        let mut m = self.blank_message(id, channel, None);
        if let Err(e) = self.apply_message_body(&mut m, body, &req.uploads, true) {
            return e;
        }
        if let Err(e) = self.check_not_empty(&m, "create_message") {
            return e;
        }
        m.nonce = nonce;
        if let Some(key) = enforced {
            self.nonces.insert(key, (id, Instant::now()));
        }
        let json = self.message_json(&m);
        self.put_message(m, "MESSAGE_CREATE");
        (200, Some(json))
    }

    /// Stores a message and tells the gateway (MESSAGE_CREATE/UPDATE; none for ephemeral
    /// messages, as on Discord; GUILD_MESSAGES or DIRECT_MESSAGES intent).
    pub(super) fn put_message(&mut self, m: StoredMessage, event: &str) {
        let id = m.id;
        let ephemeral = m.ephemeral;
        self.messages.insert(id, m);
        if !ephemeral {
            let m = &self.messages[&id];
            let mut d = self.message_json(m);
            // Without the MESSAGE_CONTENT intent Discord blanks others' messages (DMs and
            // mentions of the bot excepted; the fake blanks all of them).
            let guild = self.guild_of(m.channel_id);
            let content_intent = self
                .session_for(guild)
                .is_some_and(|s| s.intents & (1 << 15) != 0);
            if m.author_id != self.bot_id && !content_intent && self.is_guild_channel(m.channel_id)
            {
                d["content"] = "".into();
                d["embeds"] = json!([]);
                d["attachments"] = json!([]);
                d["components"] = json!([]);
            }
            let intent = if let Some(g) = guild {
                d["guild_id"] = g.to_string().into();
                if self
                    .users
                    .get(&m.author_id)
                    .is_some_and(|u| u.member.is_some())
                {
                    d["member"] = self.member_json(m.author_id, false, false);
                }
                1 << 9
            } else {
                1 << 12
            };
            self.dispatch_if(guild, intent, event, d);
        }
    }

    pub(super) fn remove_message(&mut self, id: u64) {
        if let Some(m) = self.messages.remove(&id) {
            if !m.ephemeral {
                let mut d = json!({"id": id.to_string(), "channel_id": m.channel_id.to_string()});
                let guild = self.guild_of(m.channel_id);
                let intent = if let Some(g) = guild {
                    d["guild_id"] = g.to_string().into();
                    1 << 9
                } else {
                    1 << 12
                };
                self.dispatch_if(guild, intent, "MESSAGE_DELETE", d);
            }
        }
    }

    fn blank_message(&self, id: u64, channel: u64, interaction: Option<u64>) -> StoredMessage {
        StoredMessage {
            interaction,
            ..super::plain_message(id, channel, self.bot_id, "", Vec::new())
        }
    }

    fn check_not_empty(&mut self, m: &StoredMessage, op: &str) -> Result<(), Answer> {
        if m.content.is_empty()
            && m.embeds.is_empty()
            && m.components.is_empty()
            && m.attachments.is_empty()
        {
            self.problem(format!("{op}: the bot sent an empty message"));
            return Err(error(400, 50006, "Cannot send an empty message"));
        }
        if m.content.chars().count() > 2000 {
            self.problem(format!("{op}: content longer than 2000 characters"));
            return Err((
                400,
                Some(
                    json!({"code": 50035, "message": "Invalid Form Body", "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}}}),
                ),
            ));
        }
        Ok(())
    }

    /// Applies a create/edit body (JSON or payload_json) and its uploads to a message.
    fn apply_message_body(
        &mut self,
        m: &mut StoredMessage,
        body: &Value,
        uploads: &[Upload],
        create: bool,
    ) -> Result<(), Answer> {
        match &body["content"] {
            Value::String(s) => m.content = s.clone(),
            Value::Null if body.get("content").is_some() => m.content.clear(),
            _ => {}
        }
        match &body["embeds"] {
            Value::Array(e) => {
                m.embeds = e.clone();
                normalize_embeds(&mut m.embeds);
            }
            Value::Null if body.get("embeds").is_some() => m.embeds.clear(),
            _ => {}
        }
        match &body["components"] {
            Value::Array(c) => {
                m.components = c.clone();
                normalize_components(&mut m.components);
            }
            Value::Null if body.get("components").is_some() => m.components.clear(),
            _ => {}
        }
        if let Some(f) = body["flags"].as_u64() {
            if create {
                m.ephemeral = m.interaction.is_some() && f & 64 != 0;
                if f & 64 != 0 && m.interaction.is_none() {
                    self.problem(
                        "create_message: the EPHEMERAL flag only works on interaction responses",
                    );
                }
            }
            m.flags = (m.flags & 64) | (f & (4 | 4096 | 32768));
        }
        if m.ephemeral {
            m.flags |= 64;
        }
        // Attachments: `attachments` lists what to keep (existing ids) and describes new
        // uploads (id = the n of files[n]); without it, an edit keeps what there was.
        let listed = body["attachments"].as_array();
        let mut attachments: Vec<Value> = match listed {
            Some(list) => m
                .attachments
                .iter()
                .filter(|a| list.iter().any(|l| id_str(&l["id"]) == id_str(&a["id"])))
                .cloned()
                .collect(),
            None if create => Vec::new(),
            None => m.attachments.clone(),
        };
        for u in uploads {
            let n = u
                .field
                .trim_start_matches("files[")
                .trim_end_matches(']')
                .to_string();
            let entry = listed.and_then(|l| l.iter().find(|a| id_str(&a["id"]) == n));
            let id = self.snowflake();
            let filename = entry
                .and_then(|e| e["filename"].as_str())
                .map(str::to_string)
                .unwrap_or_else(|| u.filename.clone());
            let description = entry
                .and_then(|e| e["description"].as_str())
                .map(str::to_string);
            self.files.insert(
                id,
                FileRec {
                    filename,
                    content_type: u.content_type.clone(),
                    bytes: u.bytes.clone(),
                    description,
                },
            );
            let mut a = self.attachment_json(id);
            if m.ephemeral {
                a["ephemeral"] = true.into();
            }
            attachments.push(a);
        }
        if let Some(list) = listed {
            for l in list {
                let id = id_str(&l["id"]);
                let known = attachments.iter().any(|a| id_str(&a["id"]) == id)
                    || uploads.iter().any(|u| u.field == format!("files[{id}]"));
                if !known {
                    self.problem(format!(
                        "message attachments list an unknown attachment {id}"
                    ));
                }
            }
        }
        m.attachments = attachments;
        m.files = m
            .attachments
            .iter()
            .filter_map(|a| {
                let id: u64 = id_str(&a["id"]).parse().ok()?;
                self.files
                    .get(&id)
                    .map(|f| (f.filename.clone(), f.bytes.clone()))
            })
            .collect();
        Ok(())
    }

    fn edit_message(&mut self, id: u64, body: &Value, uploads: &[Upload]) -> Answer {
        let mut m = self.messages[&id].clone();
        if let Err(e) = self.apply_message_body(&mut m, body, uploads, false) {
            return e;
        }
        m.updated = Instant::now();
        if m.loading {
            m.loading = false;
            m.flags &= !128;
        } else {
            m.edited_timestamp = Some(timestamp_now());
        }
        if let Err(e) = self.check_not_empty(&m, "edit") {
            return e;
        }
        let json = self.message_json(&m);
        self.put_message(m, "MESSAGE_UPDATE");
        (200, Some(json))
    }

    // ----- interactions

    fn interaction_callback(&mut self, route: &Route, body: &Value, req: &Incoming) -> Answer {
        let id = route.id("interaction_id");
        let token = route.param("interaction_token").to_string();
        let Some(i) = id.and_then(|id| self.interactions.get(&id)) else {
            self.problem(format!(
                "callback for an unknown interaction {}",
                route.param("interaction_id")
            ));
            return error(404, 10062, "Unknown interaction");
        };
        if i.token != token {
            self.problem(format!(
                "callback for interaction {} with a wrong token",
                i.id
            ));
            return error(401, 50027, "Invalid Webhook Token");
        }
        let (iid, ikind, ichannel, imessage) = (i.id, i.kind, i.channel_id, i.message);
        if let Some((t, _)) = i.acked {
            self.problem(format!(
                "interaction {iid} acknowledged twice (first with type {t}, then {})",
                body["type"]
            ));
            return error(400, 40060, "Interaction has already been acknowledged.");
        }
        let now = Instant::now();
        let kind = body["type"].as_u64().unwrap_or(0) as u8;
        let data = body.get("data").cloned().filter(|d| !d.is_null());
        let allowed = match kind {
            4 | 5 => true,
            // Discord closes a modal acknowledged with 6 even when it came from a command
            // (poise's execute_modal does this); 7 needs a message to update.
            6 => ikind == 3 || ikind == 5,
            7 => ikind == 3 || (ikind == 5 && imessage.is_some()),
            8 => false,
            9 => ikind != 5,
            _ => false,
        };
        if !allowed {
            self.problem(format!(
                "interaction {iid} (type {ikind}) answered with callback type {kind}"
            ));
            return error(
                400,
                40043,
                "Interaction callback type is not valid for this interaction",
            );
        }
        let mut reply_message = None;
        let mut original = None;
        match kind {
            4 | 5 => {
                let mid = self.snowflake();
                let mut m = self.blank_message(mid, ichannel, Some(iid));
                m.kind = if ikind == 2 { 20 } else { 0 };
                let flags = data.as_ref().and_then(|d| d["flags"].as_u64()).unwrap_or(0);
                m.ephemeral = flags & 64 != 0;
                if kind == 4 {
                    let d = data.clone().unwrap_or(json!({}));
                    if let Err(e) = self.apply_message_body(&mut m, &d, &req.uploads, true) {
                        return e;
                    }
                    if let Err(e) = self.check_not_empty(&m, "create_interaction_response") {
                        return e;
                    }
                    reply_message = Some(m.clone());
                } else {
                    m.loading = true;
                    m.flags = 128 | if m.ephemeral { 64 } else { 0 };
                }
                self.put_message(m, "MESSAGE_CREATE");
                original = Some(mid);
            }
            6 => original = imessage,
            7 => {
                let Some(mid) = imessage else { unreachable!() };
                let d = data.clone().unwrap_or(json!({}));
                let answer = self.edit_message(mid, &d, &req.uploads);
                if answer.0 != 200 {
                    return answer;
                }
                original = Some(mid);
                reply_message = self.messages.get(&mid).cloned();
            }
            9 if data.as_ref().is_none_or(|d| d["custom_id"].is_null()) => {
                self.problem(format!("interaction {iid}: modal without custom_id"));
            }
            _ => {}
        }
        let i = self.interactions.get_mut(&iid).unwrap();
        i.acked = Some((kind, now));
        i.original = original;
        if kind == 9 {
            i.modal = data.clone();
        }
        i.replies.push(Reply {
            kind: ReplyKind::Callback(kind),
            message: reply_message,
            at: now,
            data,
        });
        (204, None)
    }

    fn webhook_op(&mut self, op: &str, route: &Route, body: &Value, req: &Incoming) -> Answer {
        let token = route.param("webhook_token");
        let iid = self.tokens.get(token).copied();
        let Some(iid) = iid.filter(|_| route.id("webhook_id") == Some(self.app_id)) else {
            self.problem(format!(
                "{op}: unknown webhook {}/{token}",
                route.param("webhook_id")
            ));
            return error(404, 10015, "Unknown Webhook");
        };
        let now = Instant::now();
        let (acked, original, channel) = {
            let i = &self.interactions[&iid];
            (i.acked, i.original, i.channel_id)
        };
        if acked.is_none() {
            self.problem(format!(
                "{op} for interaction {iid} before it was acknowledged"
            ));
            return error(404, 10015, "Unknown Webhook");
        }
        let target = match op {
            "execute_webhook" => None,
            "get_original_webhook_message"
            | "update_original_webhook_message"
            | "delete_original_webhook_message" => {
                match original.filter(|m| self.messages.contains_key(m)) {
                    Some(m) => Some(m),
                    None => return error(404, 10008, "Unknown Message"),
                }
            }
            _ => match route.id("message_id").filter(|m| {
                self.messages
                    .get(m)
                    .is_some_and(|msg| msg.interaction == Some(iid) || Some(*m) == original)
            }) {
                Some(m) => Some(m),
                None => return error(404, 10008, "Unknown Message"),
            },
        };
        let reply = |w: &mut World, kind: ReplyKind, message: Option<StoredMessage>| {
            w.interactions.get_mut(&iid).unwrap().replies.push(Reply {
                kind,
                message,
                at: now,
                data: None,
            });
        };
        match op {
            "execute_webhook" => {
                // The first follow-up after a deferred response replaces its "thinking" message.
                if let Some(o) =
                    original.filter(|o| self.messages.get(o).is_some_and(|m| m.loading))
                {
                    let answer = self.edit_message(o, body, &req.uploads);
                    if answer.0 == 200 {
                        let m = self.messages.get(&o).cloned();
                        reply(self, ReplyKind::Followup, m);
                    }
                    return answer;
                }
                let id = self.snowflake();
                let mut m = self.blank_message(id, channel, Some(iid));
                if let Err(e) = self.apply_message_body(&mut m, body, &req.uploads, true) {
                    return e;
                }
                if let Err(e) = self.check_not_empty(&m, op) {
                    return e;
                }
                let json = self.message_json(&m);
                self.put_message(m.clone(), "MESSAGE_CREATE");
                reply(self, ReplyKind::Followup, Some(m));
                (200, Some(json))
            }
            "get_original_webhook_message" | "get_webhook_message" => {
                let m = &self.messages[&target.unwrap()];
                (200, Some(self.message_json(m)))
            }
            "update_original_webhook_message" | "update_webhook_message" => {
                let mid = target.unwrap();
                let answer = self.edit_message(mid, body, &req.uploads);
                if answer.0 == 200 {
                    let kind = if op == "update_original_webhook_message" {
                        ReplyKind::EditOriginal
                    } else {
                        ReplyKind::EditMessage(mid)
                    };
                    let m = self.messages.get(&mid).cloned();
                    reply(self, kind, m);
                }
                answer
            }
            _ => {
                let mid = target.unwrap();
                self.remove_message(mid);
                let kind = if op == "delete_original_webhook_message" {
                    ReplyKind::DeleteOriginal
                } else {
                    ReplyKind::DeleteMessage(mid)
                };
                reply(self, kind, None);
                (204, None)
            }
        }
    }
}

fn query_param(req: &Incoming, name: &str) -> Option<String> {
    req.query.as_deref()?.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

/// An id given as a string or a number, as a string.
fn id_str(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

/// Drops null members (Discord does not echo explicit nulls of a command definition).
fn strip_nulls_keep(v: &mut Value) {
    super::payloads::strip_nulls(v);
}

/// Parses a response with the serenity type the bot's call deserializes it into. Installed by
/// [`super::FakeDiscord::check_with_serenity`].
pub(super) fn check_serenity(op: &str, v: &Value) -> Result<(), String> {
    use serenity::model::prelude::*;
    fn parse<T: serde::de::DeserializeOwned>(v: &Value) -> Result<(), String> {
        serde_json::from_value::<T>(v.clone())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    match op {
        "create_message"
        | "get_message"
        | "update_message"
        | "execute_webhook"
        | "get_original_webhook_message"
        | "update_original_webhook_message"
        | "get_webhook_message"
        | "update_webhook_message" => parse::<Message>(v),
        "list_messages" => parse::<Vec<Message>>(v),
        "bulk_set_application_commands"
        | "bulk_set_guild_application_commands"
        | "list_application_commands"
        | "list_guild_application_commands" => parse::<Vec<Command>>(v),
        "create_application_command"
        | "create_guild_application_command"
        | "get_application_command"
        | "get_guild_application_command"
        | "update_application_command"
        | "update_guild_application_command" => parse::<Command>(v),
        "create_dm" => parse::<PrivateChannel>(v),
        "get_my_oauth2_application" | "get_my_application" => parse::<CurrentApplicationInfo>(v),
        "get_my_user" => parse::<CurrentUser>(v),
        "get_user" => parse::<User>(v),
        "get_guild_member" => parse::<Member>(v),
        "list_guild_members" => parse::<Vec<Member>>(v),
        "get_channel" => parse::<Channel>(v),
        "list_guild_channels" => parse::<Vec<GuildChannel>>(v),
        "create_thread" => parse::<GuildChannel>(v),
        "get_guild" => parse::<PartialGuild>(v),
        "list_guild_roles" => parse::<Vec<Role>>(v),
        "get_bot_gateway" => parse::<BotGateway>(v),
        "get_gateway" => parse::<serenity::model::gateway::Gateway>(v),
        _ => Ok(()),
    }
}
