//! What an operator's monitoring reads from `mondo serve` (docs/operators.md,
//! "Monitoring"): `/metrics` in Prometheus's text format and `/healthz`, on the address
//! `log.metrics_address` names. The runtime and the bot record through the `metrics`
//! facade; this installs the Prometheus recorder once per process and serves what it
//! holds.

use crate::runtime::{AnyMatch, Runtime, metric};
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use std::net::SocketAddr;
use std::sync::OnceLock;

/// Requests to Discord's REST API that failed or got no answer in time: a post in a
/// channel, a DM, an interaction's reply, an edit or a delete, a command's answer (the
/// log says which, and why). A rising count while the gateway is up is worth a look.
pub const DISCORD_ERRORS: &str = "mondo_discord_errors_total";

/// Counts one failed request to Discord (see [`DISCORD_ERRORS`]).
pub fn discord_failed() {
    metrics::counter!(DISCORD_ERRORS).increment(1);
}

/// The process's Prometheus recorder (installed on first use; a process has one).
pub fn recorder() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        // Another recorder set first (none in Mondo) would only leave this one empty.
        let _ = metrics::set_global_recorder(recorder);
        handle
    })
}

/// Serves `/metrics` and `/healthz` for `runtime` on `address` (`host:port`; port 0
/// picks one): where it listens, once it does. The server stops with the task.
pub async fn listen(
    address: &str,
    runtime: Runtime<AnyMatch>,
) -> Result<(SocketAddr, tokio::task::JoinHandle<()>), String> {
    let handle = recorder();
    // Every metric from the start, at 0 until it moves (a dashboard sees the names).
    for name in [
        metric::EVENTS_COMMITTED,
        metric::LEASE_RENEWALS,
        metric::LEASES_LOST,
        metric::STORE_ERRORS,
        DISCORD_ERRORS,
    ] {
        metrics::counter!(name).increment(0);
    }
    metrics::gauge!(metric::LIVE_MATCHES).increment(0.0);
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| format!("cannot listen on {address} for /metrics and /healthz: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    let app = Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .with_state((handle.clone(), runtime));
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "the /metrics and /healthz server stopped");
        }
    });
    Ok((bound, task))
}

type Shared = (PrometheusHandle, Runtime<AnyMatch>);

async fn metrics(State((handle, _)): State<Shared>) -> impl IntoResponse {
    // Summaries (commit latency) are folded in as they are read.
    handle.run_upkeep();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
}

/// `ok` (200) while the store answers and this process renews its leases; else 503
/// and why.
async fn healthz(State((_, runtime)): State<Shared>) -> impl IntoResponse {
    match runtime.health().await {
        Ok(()) => (StatusCode::OK, "ok\n".to_string()),
        Err(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("unhealthy: {why}\n"),
        ),
    }
}
