//! Discord's OpenAPI 3.1 document (`tests/data/discord-openapi.json`): route matching and
//! JSON Schema validation of request and response bodies.
//!
//! The document is read once per process ([`spec`]). Every operation is indexed by method and
//! path template; a request path is matched segment by segment, a literal segment (`@original`,
//! `@me`) beating a `{parameter}` one. Validators are compiled on first use per
//! (operation, request content type) or (operation, response status) and cached.
//!
//! How a validator is built: the whole document is put into a `jsonschema` registry under
//! [`DOC_URI`]; the operation's schema is cloned and every local `$ref` in the clone
//! (`#/components/schemas/X`) is rewritten to `DOC_URI#/components/schemas/X`, so references
//! inside referenced schemas resolve against the whole document (draft 2020-12, Discord's
//! schemas are plain 2020-12 plus OpenAPI annotations such as `x-discord-union`, which JSON
//! Schema ignores).
//!
//! What this cannot check, and why:
//! - `format: int32`, `int64`, `double`: JSON Schema `format` only applies to strings, and
//!   these annotate numbers; the ranges that matter are also spelled as `minimum`/`maximum`
//!   in Discord's schemas, and those are checked.
//! - `format: snowflake` and `nonce` are not JSON Schema formats; they are registered here as
//!   custom formats (a snowflake is a decimal string; a nonce is any string, its length being
//!   checked by `maxLength`). `date-time` and `uri` are asserted.
//! - `contentEncoding: binary` (uploaded files in multipart bodies) is an annotation in
//!   2020-12. A multipart body is validated as the object Discord describes: the JSON of its
//!   `payload_json` part with every file part added as `"files[n]": ""`.
//! - Anything Discord enforces beyond its published schemas (cross-field rules such as
//!   "content, embeds, components, files or poll must be present", or the 2000-character
//!   content limit of a message the spec gives as 4000) is not in the document, so not here.
//! - Query parameters and headers are not validated.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::{Draft, Registry, Validator};
use serde_json::Value;

/// The URI the document is registered under in the schema registry.
pub const DOC_URI: &str = "https://discord.test/openapi.json";
/// The same with SnowflakeType relaxed for requests (see [`Spec::load`]).
pub const REQUEST_DOC_URI: &str = "https://discord.test/openapi-requests.json";

pub struct Spec {
    doc: Arc<Value>,
    ops: Vec<Operation>,
    registry: Registry<'static>,
    validators: Mutex<HashMap<String, Result<Arc<Validator>, String>>>,
}

#[derive(Clone, Debug)]
pub struct Operation {
    pub method: String,
    pub template: String,
    pub operation_id: String,
    segments: Vec<Segment>,
}

#[derive(Clone, Debug)]
enum Segment {
    Literal(String),
    Param(String),
}

/// A request path matched against the document.
#[derive(Clone, Debug)]
pub struct Route {
    pub op: Operation,
    pub params: HashMap<String, String>,
}

impl Route {
    pub fn param(&self, name: &str) -> &str {
        self.params.get(name).map(String::as_str).unwrap_or("")
    }
    pub fn id(&self, name: &str) -> Option<u64> {
        self.params.get(name).and_then(|s| s.parse().ok())
    }
}

/// The process-wide document, read on first use.
pub fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(Spec::load)
}

impl Spec {
    fn load() -> Spec {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/discord-openapi.json"
        );
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("fake Discord: cannot read {path}: {e}"));
        let doc: Value = serde_json::from_str(&text).expect("discord-openapi.json is JSON");
        let mut ops = Vec::new();
        for (template, item) in doc["paths"].as_object().expect("paths") {
            for (method, op) in item.as_object().expect("path item") {
                if !["get", "put", "post", "patch", "delete", "head", "options"]
                    .contains(&method.as_str())
                {
                    continue;
                }
                let segments = template
                    .trim_start_matches('/')
                    .split('/')
                    .map(|s| {
                        if s.starts_with('{') && s.ends_with('}') {
                            Segment::Param(s[1..s.len() - 1].to_string())
                        } else {
                            Segment::Literal(s.to_string())
                        }
                    })
                    .collect();
                ops.push(Operation {
                    method: method.to_uppercase(),
                    template: template.clone(),
                    operation_id: op["operationId"].as_str().unwrap_or("?").to_string(),
                    segments,
                });
            }
        }
        // Requests: Discord accepts a snowflake as a JSON integer as well as a string (its
        // file-upload docs send `"attachments": [{"id": 0}]`, and serenity sends new
        // attachments' ids so); the spec's SnowflakeType only allows strings. Requests are
        // checked against a copy where SnowflakeType also allows a non-negative integer;
        // the fake's own responses against the document as published.
        let mut relaxed = doc.clone();
        let snowflake = relaxed["components"]["schemas"]["SnowflakeType"].take();
        relaxed["components"]["schemas"]["SnowflakeType"] =
            serde_json::json!({"anyOf": [snowflake, {"type": "integer", "minimum": 0}]});
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(DOC_URI, doc.clone())
            .expect("registry accepts the document")
            .add(REQUEST_DOC_URI, relaxed)
            .expect("registry accepts the relaxed document")
            .prepare()
            .expect("registry prepares the document");
        Spec {
            doc: Arc::new(doc),
            ops,
            registry,
            validators: Mutex::new(HashMap::new()),
        }
    }

    pub fn doc(&self) -> &Value {
        &self.doc
    }

    /// The operation for `method` and `path` (the part after `/api/v10`, query excluded).
    pub fn route(&self, method: &str, path: &str) -> Option<Route> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let mut best: Option<(usize, Route)> = None;
        for op in self.ops.iter().filter(|o| o.method == method) {
            if op.segments.len() != parts.len() {
                continue;
            }
            let mut literals = 0;
            let mut params = HashMap::new();
            let ok = op.segments.iter().zip(&parts).all(|(seg, part)| match seg {
                Segment::Literal(l) => {
                    literals += 1;
                    l == part
                }
                Segment::Param(name) => {
                    params.insert(name.clone(), percent_decode(part));
                    !part.is_empty()
                }
            });
            if ok && best.as_ref().is_none_or(|(n, _)| literals > *n) {
                best = Some((
                    literals,
                    Route {
                        op: op.clone(),
                        params,
                    },
                ));
            }
        }
        best.map(|(_, r)| r)
    }

    fn operation_json(&self, op: &Operation) -> &Value {
        &self.doc["paths"][&op.template][op.method.to_lowercase()]
    }

    /// Follows a local `$ref` (used for `components/responses`).
    fn deref<'a>(&'a self, v: &'a Value) -> &'a Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) if r.starts_with("#/") => self.doc.pointer(&r[1..]).unwrap_or(v),
            _ => v,
        }
    }

    /// The request content types the operation accepts (empty: it takes no body).
    pub fn request_types(&self, op: &Operation) -> Vec<String> {
        self.operation_json(op)["requestBody"]["content"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Validates a request body; `content_type` is the media type without parameters.
    /// Returns readable violations (empty when valid).
    pub fn check_request(&self, op: &Operation, content_type: &str, body: &Value) -> Vec<String> {
        let content = &self.operation_json(op)["requestBody"]["content"];
        let Some(schema) = content.get(content_type).map(|c| &c["schema"]) else {
            let accepted = self.request_types(op);
            return if accepted.is_empty() {
                vec![format!(
                    "{}: sent a {content_type} body, the operation takes none",
                    op.operation_id
                )]
            } else {
                vec![format!(
                    "{}: content type {content_type} not accepted (accepted: {})",
                    op.operation_id,
                    accepted.join(", ")
                )]
            };
        };
        let key = format!("{} {} request {content_type}", op.method, op.template);
        self.run(&key, REQUEST_DOC_URI, schema, body)
    }

    /// Validates a JSON response body sent with `status` (only 2xx are checked).
    pub fn check_response(&self, op: &Operation, status: u16, body: &Value) -> Vec<String> {
        if !(200..300).contains(&status) {
            return Vec::new();
        }
        let responses = &self.operation_json(op)["responses"];
        let Some(resp) = responses
            .get(status.to_string())
            .or_else(|| responses.get("2XX"))
        else {
            return vec![format!(
                "{}: status {status} is not a documented response",
                op.operation_id
            )];
        };
        let resp = self.deref(resp);
        let Some(schema) = resp.pointer("/content/application~1json/schema") else {
            return vec![format!(
                "{}: response {status} documents no JSON body",
                op.operation_id
            )];
        };
        let key = format!("{} {} response {status}", op.method, op.template);
        self.run(&key, DOC_URI, schema, body)
    }

    fn run(&self, key: &str, base: &str, schema: &Value, instance: &Value) -> Vec<String> {
        let validator = {
            let mut cache = self.validators.lock().unwrap();
            cache
                .entry(key.to_string())
                .or_insert_with(|| self.compile(base, schema))
                .clone()
        };
        match validator {
            Err(e) => vec![format!("{key}: the fake cannot compile this schema: {e}")],
            Ok(v) => {
                if v.is_valid(instance) {
                    return Vec::new();
                }
                // A failed anyOf/oneOf only says "not valid under any of the schemas".
                // Discord's unions are told apart by a `type` field (enum/const): a branch
                // whose discriminator does not match is not the one meant, so the errors of
                // the remaining branches are the real ones. Read them from the list output
                // (its evaluation paths say which branch an error is in).
                let list = serde_json::to_value(v.evaluate(instance).list()).unwrap_or_default();
                let units: Vec<(String, String, String)> = list["details"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|u| {
                        let errors = u["errors"].as_object()?;
                        let path = u["evaluationPath"].as_str().unwrap_or("").to_string();
                        let at = u["instanceLocation"].as_str().unwrap_or("").to_string();
                        let kw: Vec<&str> = errors.keys().map(String::as_str).collect();
                        let msg = errors
                            .iter()
                            .map(|(k, m)| format!("{k}: {}", shorten(m.as_str().unwrap_or(""))))
                            .collect::<Vec<_>>()
                            .join("; ");
                        Some((path, at, format!("{}|{msg}", kw.join(","))))
                    })
                    .collect();
                let mut wrong_branches: Vec<String> = Vec::new();
                for (path, at, msg) in &units {
                    // A branch whose `type` discriminator does not match, or whose own `type`
                    // keyword rejects the value (the `{"type": "null"}` of a nullable union).
                    let discriminator = at.ends_with("/type")
                        && (msg.starts_with("enum") || msg.starts_with("const"));
                    let own_type = msg.starts_with("type|")
                        && path.strip_suffix("/type").and_then(last_branch)
                            == Some(path.len() - "/type".len());
                    if let Some(cut) = (discriminator || own_type)
                        .then(|| last_branch(path))
                        .flatten()
                    {
                        wrong_branches.push(path[..cut].to_string());
                    }
                }
                let mut out: Vec<String> = units
                    .iter()
                    .filter(|(path, _, msg)| {
                        !wrong_branches.iter().any(|b| path.starts_with(b.as_str()))
                            && !["anyOf|", "oneOf|", "allOf|"]
                                .iter()
                                .any(|k| msg.starts_with(k))
                    })
                    .map(|(_, at, msg)| {
                        let at = if at.is_empty() { "/" } else { at };
                        format!(
                            "at '{at}': {}",
                            msg.split_once('|').map_or(msg.as_str(), |x| x.1)
                        )
                    })
                    .collect();
                out.dedup();
                out.truncate(4);
                if out.is_empty() {
                    out = v
                        .iter_errors(instance)
                        .map(|e| format!("at '{}': {}", e.instance_path(), shorten(&e.to_string())))
                        .collect();
                }
                out
            }
        }
    }

    fn compile(&self, base: &str, schema: &Value) -> Result<Arc<Validator>, String> {
        let mut schema = schema.clone();
        absolutize_refs(&mut schema, base);
        jsonschema::options()
            .with_draft(Draft::Draft202012)
            .with_registry(&self.registry)
            .should_validate_formats(true)
            .with_format("snowflake", |s: &str| {
                !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
            })
            .with_format("nonce", |_: &str| true)
            .with_format("int32", |_: &str| true)
            .with_format("int64", |_: &str| true)
            .with_format("double", |_: &str| true)
            .build(&schema)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    }
}

/// The end of the last `/anyOf/N` or `/oneOf/N` in an evaluation path.
fn last_branch(path: &str) -> Option<usize> {
    let segs: Vec<&str> = path.split('/').collect();
    let mut end = None;
    let mut pos = 0;
    for (i, seg) in segs.iter().enumerate() {
        pos += seg.len() + usize::from(i > 0);
        if i > 0 && (segs[i - 1] == "anyOf" || segs[i - 1] == "oneOf") {
            end = Some(pos);
        }
    }
    end
}

fn shorten(msg: &str) -> String {
    if msg.len() <= 300 {
        return msg.to_string();
    }
    let cut = (0..=300)
        .rev()
        .find(|&i| msg.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}...", &msg[..cut])
}

fn absolutize_refs(v: &mut Value, base: &str) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                match x {
                    Value::String(s) if k == "$ref" && s.starts_with('#') => {
                        *s = format!("{base}{s}");
                    }
                    _ => absolutize_refs(x, base),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| absolutize_refs(x, base)),
        _ => {}
    }
}

/// Decodes `%XX` escapes in a path segment (emoji names, tokens are plain).
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() && s.is_char_boundary(i + 3) {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
