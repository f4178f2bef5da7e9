//! `/metrics` and `/healthz` of `mondo serve` (`log.metrics_address`): Prometheus's
//! text format with the metrics docs/operators.md names, and a health check that is
//! ok only while the store answers and the leases are renewed.

use crate::runtime_zendo::duel_on;
use crate::stores::TestDb;
use mondo::runtime::{Config, ManualTime};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// `GET path` on `address`: the status code and the body.
async fn get(address: std::net::SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: mondo\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect(&answer);
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok());
    (status.expect(head), body.to_string())
}

/// The value of the sample that starts `line` (a name with its labels).
fn sample(text: &str, line: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(line)?.strip_prefix(' ')?.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_and_health_are_served_and_health_fails_with_the_store() {
    let db = TestDb::sqlite();
    // Installed first, as `mondo serve` does, so the duel's setup is counted.
    mondo::metrics::recorder();
    let (runtime, _) = duel_on(&db, ManualTime::new(0), Config::default()).await;
    let (address, server) = mondo::metrics::listen("127.0.0.1:0", runtime.clone())
        .await
        .unwrap();
    let (status, text) = get(address, "/metrics").await;
    assert_eq!(status, 200);
    for name in [
        "mondo_lease_renewals_total",
        "mondo_leases_lost_total",
        "mondo_store_errors_total",
        "mondo_live_matches",
    ] {
        assert!(sample(&text, name).is_some(), "no {name} in\n{text}");
    }
    // The duel's setup was committed, and timed.
    assert!(
        sample(&text, "mondo_events_committed_total").unwrap_or(0.0) >= 1.0,
        "{text}"
    );
    assert!(
        sample(&text, "mondo_commit_seconds{quantile=\"0.99\"}").is_some(),
        "{text}"
    );
    assert!(
        text.contains("# TYPE mondo_commit_seconds summary"),
        "{text}"
    );
    assert_eq!(get(address, "/healthz").await, (200, "ok\n".into()));
    // The store goes away: unhealthy, saying why.
    runtime.store().clone().close().await;
    let (status, why) = get(address, "/healthz").await;
    assert_eq!(status, 503, "{why}");
    assert!(
        why.starts_with("unhealthy: the store does not answer"),
        "{why}"
    );
    server.abort();
}
