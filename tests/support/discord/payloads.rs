//! JSON payloads the fake sends: users, members, roles, channels, the guild, READY, messages,
//! interactions. Each carries every field serenity 0.12.5's model requires (a payload serenity
//! cannot parse is dropped silently on the gateway, or fails the bot's REST call); the fake
//! checks its own gateway payloads and REST responses by parsing them with serenity's types
//! (see `gateway.rs` and `rest.rs`), and REST responses against Discord's response schemas.
//!
//! Fields serenity requires that are easy to miss (found in its `model/`, and enforced by
//! those self-checks): `Member.deaf/mute/flags`; `Role.colors` (with `primary_color`),
//! `hoist/managed/permissions/position`; `Guild.verification_level`,
//! `default_message_notifications`, `explicit_content_filter`, `emojis`, `features`,
//! `mfa_level`, `system_channel_flags`, `premium_tier`, `preferred_locale`, `nsfw_level`,
//! `stickers`, `premium_progress_bar_enabled`, `joined_at`, `large`, `member_count`,
//! `voice_states`, `members`, `channels`, `threads`, `presences`, `stage_instances`,
//! `guild_scheduled_events`; `Ready.application {id, flags}`; every interaction's `version`,
//! `locale`, `entitlements`, `attachment_size_limit` (and `app_permissions` present);
//! `ComponentInteraction.message` (a complete message); `Message.tts/mention_everyone/
//! mentions/mention_roles/attachments/embeds/pinned/type/timestamp`; `Attachment.proxy_url/
//! size`; `Command.version/application_id/type`; `CurrentApplicationInfo.bot_public/
//! bot_require_code_grant/verify_key/description`.

use serde_json::{Map, Value, json};

use super::{StoredMessage, UserRec, World};

/// Permissions of `@everyone` in the fake guild: view channel, send messages, embed links,
/// attach files, read history, use application commands.
pub const EVERYONE_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31);
/// The bot's own permissions (administrator).
pub const BOT_PERMISSIONS: u64 = 1 << 3;
/// What `app_permissions` says in interactions: everything a bot usually needs.
pub const APP_PERMISSIONS: u64 = EVERYONE_PERMISSIONS | (1 << 6) | (1 << 13) | (1 << 38);
pub const ATTACHMENT_SIZE_LIMIT: u64 = 25 * 1024 * 1024;

pub fn timestamp_now() -> String {
    serenity::model::Timestamp::now().to_string()
}

/// Removes `null` members from objects, recursively (request bodies may carry explicit nulls
/// that Discord drops from what it stores).
pub fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(strip_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

impl World {
    pub fn user_json(&self, u: &UserRec) -> Value {
        json!({
            "id": u.id.to_string(),
            "username": u.name,
            "discriminator": "0",
            "global_name": u.name,
            "avatar": null,
            "bot": u.bot,
            "system": false,
            "banner": null,
            "accent_color": null,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": null,
            "avatar_decoration_data": null,
            "collectibles": null,
        })
    }

    pub fn user_json_by_id(&self, id: u64) -> Value {
        match self.users.get(&id) {
            Some(u) => self.user_json(u),
            None => panic!("fake Discord: no user {id}"),
        }
    }

    /// Everything a member's roles and own bits grant (no channel overwrites in the fake).
    pub fn member_permissions(&self, user: u64) -> u64 {
        let Some(m) = self.users.get(&user).and_then(|u| u.member.as_ref()) else {
            return 0;
        };
        let mut p = self.roles.get(&self.guild_id).map_or(0, |r| r.permissions) | m.permissions;
        for r in &m.roles {
            p |= self.roles.get(r).map_or(0, |r| r.permissions);
        }
        p
    }

    /// A guild member; `with_user` false gives the partial member of `resolved.members`;
    /// `with_permissions` adds the computed `permissions` (interactions only).
    pub fn member_json(&self, user: u64, with_user: bool, with_permissions: bool) -> Value {
        let u = &self.users[&user];
        let m = u
            .member
            .as_ref()
            .unwrap_or_else(|| panic!("fake Discord: {user} is no member"));
        let mut v = json!({
            "nick": null,
            "avatar": null,
            "banner": null,
            "roles": m.roles.iter().map(u64::to_string).collect::<Vec<_>>(),
            "joined_at": m.joined_at,
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "communication_disabled_until": null,
        });
        if with_user {
            v["user"] = self.user_json(u);
        }
        if with_permissions {
            v["permissions"] = self.member_permissions(user).to_string().into();
        }
        v
    }

    pub fn role_json(&self, id: u64) -> Value {
        let r = &self.roles[&id];
        json!({
            "id": r.id.to_string(),
            "name": r.name,
            "description": null,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false,
            "icon": null,
            "unicode_emoji": null,
            "position": r.position,
            "permissions": r.permissions.to_string(),
            "managed": false,
            "mentionable": false,
            "flags": 0,
        })
    }

    /// The guild's text channel `channel` (the main one, or one added by a test).
    pub fn channel_name_of(&self, channel: u64) -> &str {
        if let Some(t) = self.threads.iter().find(|t| t.id == channel) {
            return &t.name;
        }
        if let Some(g) = self.guilds.iter().find(|g| g.channel_id == channel) {
            return &g.channel_name;
        }
        self.more_channels
            .iter()
            .find(|(c, _)| *c == channel)
            .map_or(self.channel_name.as_str(), |(_, n)| n.as_str())
    }

    /// Every text channel of the main guild.
    pub fn text_channels_json(&self) -> Vec<Value> {
        self.text_channels_json_of(self.guild_id)
    }

    /// Every text channel of `guild`.
    pub fn text_channels_json_of(&self, guild: u64) -> Vec<Value> {
        if let Some(g) = self.guilds.iter().find(|g| g.id == guild) {
            return vec![self.text_channel_json(g.channel_id)];
        }
        std::iter::once(self.channel_id)
            .chain(self.more_channels.iter().map(|(c, _)| *c))
            .map(|c| self.text_channel_json(c))
            .collect()
    }

    pub fn text_channel_json(&self, channel: u64) -> Value {
        if let Some(t) = self.threads.iter().find(|t| t.id == channel) {
            return self.thread_json(t);
        }
        json!({
            "id": channel.to_string(),
            "type": 0,
            "guild_id": self.guild_of(channel).unwrap_or(self.guild_id).to_string(),
            "name": self.channel_name_of(channel),
            "position": 0,
            "permission_overwrites": [],
            "topic": null,
            "nsfw": false,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "parent_id": null,
            "last_pin_timestamp": null,
            "flags": 0,
        })
    }

    pub fn dm_channel_json(&self, channel: u64) -> Value {
        let user = self
            .dm_channels
            .iter()
            .find(|(_, c)| **c == channel)
            .map(|(u, _)| *u)
            .expect("a DM channel");
        json!({
            "id": channel.to_string(),
            "type": 1,
            "last_message_id": null,
            "flags": 0,
            "last_pin_timestamp": null,
            "recipients": [self.user_json_by_id(user)],
        })
    }

    /// A public thread, as `create_thread` and `get_channel` answer it (and THREAD_CREATE
    /// says it).
    pub fn thread_json(&self, t: &super::ThreadRec) -> Value {
        let count = self
            .messages
            .values()
            .filter(|m| m.channel_id == t.id)
            .count();
        json!({
            "id": t.id.to_string(),
            "type": 11,
            "guild_id": self.guild_of(t.parent).unwrap_or(self.guild_id).to_string(),
            "parent_id": t.parent.to_string(),
            "owner_id": t.owner.to_string(),
            "name": t.name,
            "last_message_id": null,
            "last_pin_timestamp": null,
            "rate_limit_per_user": 0,
            "flags": 0,
            "message_count": count,
            "member_count": 1,
            "total_message_sent": count,
            "thread_metadata": {
                "archived": false,
                "archive_timestamp": timestamp_now(),
                "auto_archive_duration": t.auto_archive,
                "locked": false,
                "create_timestamp": timestamp_now(),
            },
        })
    }

    /// The `channel` of an interaction (a partial channel).
    pub fn partial_channel_json(&self, channel: u64) -> Value {
        if let Some(t) = self.threads.iter().find(|t| t.id == channel) {
            return json!({
                "id": channel.to_string(),
                "type": 11,
                "name": t.name,
                "guild_id": self.guild_of(channel).unwrap_or(self.guild_id).to_string(),
                "parent_id": t.parent.to_string(),
                "permissions": APP_PERMISSIONS.to_string(),
                "flags": 0,
            });
        }
        if self.is_guild_channel(channel) {
            json!({
                "id": channel.to_string(),
                "type": 0,
                "name": self.channel_name_of(channel),
                "guild_id": self.guild_of(channel).unwrap_or(self.guild_id).to_string(),
                "permissions": APP_PERMISSIONS.to_string(),
                "flags": 0,
            })
        } else {
            let user = self
                .dm_channels
                .iter()
                .find(|(_, c)| **c == channel)
                .map(|(u, _)| *u);
            json!({
                "id": channel.to_string(),
                "type": 1,
                "flags": 0,
                "recipients": user.map(|u| vec![self.user_json_by_id(u)]).unwrap_or_default(),
            })
        }
    }

    pub fn members(&self) -> Vec<u64> {
        self.users
            .values()
            .filter(|u| u.member.is_some())
            .map(|u| u.id)
            .collect()
    }

    /// The GUILD_CREATE payload of another server (`add_guild_on_shard`): the main
    /// guild's roles and members under its own id, name and channel.
    pub fn guild_json_of(&self, guild: u64) -> Value {
        let mut v = self.guild_json();
        let Some(g) = self.guilds.iter().find(|g| g.id == guild) else {
            return v;
        };
        v["id"] = g.id.to_string().into();
        v["name"] = g.name.clone().into();
        v["system_channel_id"] = g.channel_id.to_string().into();
        v["channels"] = self.text_channels_json_of(guild).into();
        // @everyone's id is the guild's.
        if let Some(roles) = v["roles"].as_array_mut() {
            for r in roles {
                if r["id"].as_str().and_then(|v| v.parse().ok()) == Some(self.guild_id) {
                    r["id"] = g.id.to_string().into();
                }
            }
        }
        v
    }

    /// The GUILD_CREATE payload: a complete guild with its channel, roles and members.
    pub fn guild_json(&self) -> Value {
        let members: Vec<Value> = self
            .members()
            .into_iter()
            .map(|u| self.member_json(u, true, false))
            .collect();
        let bot_member = self.users[&self.bot_id]
            .member
            .as_ref()
            .expect("bot is a member");
        let base = json!({
            "id": self.guild_id.to_string(),
            "name": self.guild_name,
            "icon": null,
            "icon_hash": null,
            "splash": null,
            "discovery_splash": null,
            "owner_id": self.owner_id.to_string(),
            "afk_channel_id": null,
            "afk_timeout": 300,
            "widget_enabled": false,
            "widget_channel_id": null,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": self.roles.keys().map(|r| self.role_json(*r)).collect::<Vec<_>>(),
            "emojis": [],
            "features": [],
            "mfa_level": 0,
            "application_id": null,
            "system_channel_id": self.channel_id.to_string(),
            "system_channel_flags": 0,
            "rules_channel_id": null,
            "max_presences": null,
            "max_members": 500000,
            "vanity_url_code": null,
            "description": null,
            "banner": null,
        });
        let extra = json!({
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": null,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw_level": 0,
            "stickers": [],
            "premium_progress_bar_enabled": false,
            "safety_alerts_channel_id": null,
            "incidents_data": null,
            "joined_at": bot_member.joined_at,
            "large": false,
            "unavailable": false,
            "member_count": members.len(),
            "voice_states": [],
            "members": members,
            "channels": self.text_channels_json(),
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "lazy": true,
        });
        let (Value::Object(mut a), Value::Object(b)) = (base, extra) else {
            unreachable!()
        };
        a.extend(b);
        Value::Object(a)
    }

    pub fn ready_json(&self, session_id: &str, shard: Value, guilds: &[u64]) -> Value {
        let guilds: Vec<Value> = guilds
            .iter()
            .map(|g| json!({"id": g.to_string(), "unavailable": true}))
            .collect();
        let mut user = self.user_json_by_id(self.bot_id);
        user["verified"] = true.into();
        user["mfa_enabled"] = false.into();
        user["email"] = Value::Null;
        json!({
            "v": 10,
            "user": user,
            "guilds": guilds,
            "session_id": session_id,
            "resume_gateway_url": self.gateway_url,
            "shard": shard,
            "application": {"id": self.app_id.to_string(), "flags": 0},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "guild_join_requests": [],
            "user_settings": {},
            "session_type": "normal",
            "auth_session_id_hash": "fake",
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        })
    }

    /// A stored message as Discord's REST API answers it (and as interactions embed it).
    pub fn message_json(&self, m: &StoredMessage) -> Value {
        let mut v = json!({
            "id": m.id.to_string(),
            "channel_id": m.channel_id.to_string(),
            "author": self.user_json_by_id(m.author_id),
            "content": m.content,
            "timestamp": m.timestamp,
            "edited_timestamp": m.edited_timestamp,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": m.attachments,
            "embeds": m.embeds,
            "pinned": false,
            "type": m.kind,
            "flags": m.flags,
            "components": m.components,
        });
        if let Some(nonce) = &m.nonce {
            v["nonce"] = nonce.clone();
        }
        if m.interaction.is_some() {
            v["webhook_id"] = self.app_id.to_string().into();
            v["application_id"] = self.app_id.to_string().into();
        }
        v
    }

    /// The fields every interaction has; `kind` is the interaction type.
    pub fn interaction_base(
        &self,
        id: u64,
        token: &str,
        kind: u8,
        user: u64,
        channel: u64,
    ) -> Map<String, Value> {
        let mut v = json!({
            "id": id.to_string(),
            "application_id": self.app_id.to_string(),
            "type": kind,
            "channel": self.partial_channel_json(channel),
            "channel_id": channel.to_string(),
            "token": token,
            "version": 1,
            "app_permissions": APP_PERMISSIONS.to_string(),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        });
        if let Some(guild) = self.guild_of(channel) {
            v["guild_id"] = guild.to_string().into();
            v["guild_locale"] = "en-US".into();
            v["member"] = self.member_json(user, true, true);
            v["authorizing_integration_owners"] = json!({"0": guild.to_string()});
            v["context"] = 0.into();
            v["guild"] = json!({"id": guild.to_string(), "locale": "en-US", "features": []});
        } else {
            v["user"] = self.user_json_by_id(user);
            v["authorizing_integration_owners"] = json!({"0": "0"});
            v["context"] = 1.into();
        }
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    pub fn attachment_json(&self, id: u64) -> Value {
        let f = &self.files[&id];
        let url = format!("{}/attachments/{}/{}", self.rest_url, id, f.filename);
        let mut v = json!({
            "id": id.to_string(),
            "filename": f.filename,
            "size": f.bytes.len(),
            "url": url,
            "proxy_url": url,
            "content_type": f.content_type,
        });
        if let Some(d) = &f.description {
            v["description"] = d.clone().into();
        }
        if let Some((w, h)) = png_size(&f.bytes) {
            v["width"] = w.into();
            v["height"] = h.into();
        }
        v
    }
}

/// Width and height of a PNG (from its IHDR chunk).
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

/// Gives every component an `id` (Discord numbers them depth-first from 1) and drops nulls.
pub fn normalize_components(components: &mut [Value]) {
    fn walk(v: &mut Value, next: &mut u64) {
        if let Value::Object(m) = v {
            if !m.contains_key("id") {
                m.insert("id".into(), (*next).into());
            }
            *next += 1;
            for key in ["components", "accessory"] {
                match m.get_mut(key) {
                    Some(Value::Array(items)) => items.iter_mut().for_each(|c| walk(c, next)),
                    Some(obj @ Value::Object(_)) => walk(obj, next),
                    _ => {}
                }
            }
        }
    }
    let mut next = 1;
    for c in components.iter_mut() {
        strip_nulls(c);
        walk(c, &mut next);
    }
}

/// Embeds as Discord stores them: `type: rich`, fields with `inline`, no nulls.
pub fn normalize_embeds(embeds: &mut [Value]) {
    for e in embeds.iter_mut() {
        strip_nulls(e);
        if let Value::Object(m) = e {
            m.entry("type").or_insert_with(|| "rich".into());
            if let Some(Value::Array(fields)) = m.get_mut("fields") {
                for f in fields {
                    if let Value::Object(f) = f {
                        f.entry("inline").or_insert(false.into());
                    }
                }
            }
        }
    }
}
