//! Pages read as a person reads them: opened in headless Chromium, laid out at a
//! phone's width (360 px), probed by a script once loaded.

use serde_json::Value;
use std::path::Path;

/// A phone's width in CSS pixels. (Headless Chromium's window is at least 500 wide:
/// the page is laid out at this width inside it.)
const PHONE: u64 = 360;

/// Debian's `chromium` (installing it is `.ci/run`'s job, or the developer's: a test
/// installs nothing); `None` only when MONDO_SKIP_BROWSER=1 says to skip. Missing, it
/// fails in one line saying what to install.
fn chromium() -> Option<std::path::PathBuf> {
    if std::env::var("MONDO_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("MONDO_SKIP_BROWSER=1: the page is not opened in a browser");
        return None;
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromium"))
            .find(|p| p.is_file())
    });
    match on_path {
        Some(path) => Some(path),
        None => panic!(
            "the page tests need Debian's chromium on PATH: apt-get install chromium \
             (or set MONDO_SKIP_BROWSER=1 to skip them)"
        ),
    }
}

/// Opens `html` (written in `dir`), lays it out at a phone's width and runs `script`
/// once the page has loaded: a function body returning an object, which comes back as
/// JSON with `phone` added (the width laid out, and the right edge of the widest thing
/// on the page). `None` when the browser is skipped.
pub(crate) fn probe(dir: &Path, html: &str, script: &str) -> Option<Value> {
    let chromium = chromium()?;
    let probe = html.replace(
        "</body>",
        &format!(
            "<script>window.addEventListener('load', () => {{\
             document.documentElement.style.width = '{PHONE}px';\
             const probe = (() => {{ {script} }})();\
             const edges = [...document.querySelectorAll('body *')]\
               .map(e => Math.ceil(e.getBoundingClientRect().right));\
             probe.phone = {{wide: Math.max(...edges), \
               viewport: document.documentElement.getBoundingClientRect().width}};\
             document.body.setAttribute('data-probe', JSON.stringify(probe));\
             }});</script></body>"
        ),
    );
    let probed = dir.join("probe.html");
    std::fs::write(&probed, probe).unwrap();
    let profile = dir.join("chromium-profile");
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=3000",
            "--window-size=500,900",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            &format!("file://{}", probed.display()),
        ])
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout).to_string();
    let start = dom.find("data-probe=\"").expect("the probe ran") + "data-probe=\"".len();
    let end = start + dom[start..].find('"').unwrap();
    // The attribute as the DOM dump writes it (`"`, `<`, `>`, `&` escaped).
    let attribute = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&amp;", "&");
    Some(serde_json::from_str(&attribute).unwrap())
}

/// The probed page fits a phone's screen: nothing reaches past its right edge (no
/// sideways scrolling).
pub(crate) fn fits_a_phone(probe: &Value) {
    let phone = &probe["phone"];
    assert_eq!(phone["viewport"], PHONE, "{probe}");
    assert!(phone["wide"].as_u64().unwrap() <= PHONE, "{probe}");
}
