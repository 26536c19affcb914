//! `oddsmith serve` (docs/serve.md): the calculator in the browser. A web
//! server on axum and tokio serves one page ([`page`]) and a JSON API
//! ([`api`]) that evaluates a query string as the quick command it spells
//! ([`query`]), through the quick commands' own path, and answers with the
//! report, its table, its distributions in three views ([`views`]) and its
//! charts; the forms come from the key descriptors ([`forms`]) and the
//! downloads are made in memory ([`download`]). [`limits`] keeps each
//! request's work and the number at once bounded.
//!
//! It listens on loopback unless `--bind` says otherwise, writes no file,
//! and stops on Ctrl-C: the binary's handler sets the cancel flag, the
//! server stops accepting and the command returns interrupted (exit 130).

pub mod api;
pub mod download;
pub mod forms;
pub mod limits;
pub mod page;
pub mod query;
pub mod views;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::cli::ServeArgs;
use crate::engine::monte_carlo::Interrupted;
use crate::errors::input_error;
use api::{AppState, Refusal};
use limits::{Gate, Limits};

/// The server's routes under `limits`: the page, its two files and the API.
pub fn router(limits: Limits) -> Router {
    let state = AppState {
        gate: Gate::new(limits.concurrent),
        limits: limits.clone(),
    };
    Router::new()
        .route("/", get(page::index))
        .route("/app.css", get(page::style))
        .route("/app.js", get(page::script))
        .route("/api/systems", get(api::systems))
        .route(
            "/api/evaluate",
            get(api::evaluate_get).post(api::evaluate_post),
        )
        .route("/api/download/{kind}", get(api::download))
        .fallback(|| async { Refusal::NotFound("no such page".into()) })
        .layer(DefaultBodyLimit::max(limits.max_body))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Every request: refused with 413 when its query string or its declared
/// body is past the cap (before anything reads them), and every answer
/// carries the page's security headers.
async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let limits = &state.limits;
    let query = request.uri().query().map_or(0, str::len);
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut response = if query > limits.max_query {
        Refusal::TooLarge(limits::query_too_long(query, limits.max_query)).into_response()
    } else if declared > limits.max_body {
        Refusal::TooLarge(format!(
            "the request body is {declared} bytes; at most {} are taken",
            limits.max_body
        ))
        .into_response()
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    for (name, value) in page::security_headers() {
        headers.insert(name, value);
    }
    response
}

/// The address `--bind` names.
fn address(bind: &str) -> anyhow::Result<SocketAddr> {
    use std::net::ToSocketAddrs;
    // `localhost:7878` is looked up locally (the hosts file).
    let found = bind.to_socket_addrs().ok().and_then(|mut all| all.next());
    found.ok_or_else(|| {
        input_error(format!(
            "`--bind` is \"{bind}\"; give an address and port such as 127.0.0.1:7878 (port 0 takes any free port)"
        ))
    })
}

/// `oddsmith serve`: listens until Ctrl-C sets `cancel`.
pub fn run(args: &ServeArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let addr = address(&args.bind)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
            anyhow::anyhow!("cannot listen on {addr} ({e}); give another address with --bind")
        })?;
        let local = listener.local_addr()?;
        let url = format!("http://{local}/");
        println!("oddsmith serve: listening on {url} (Ctrl-C stops it)");
        if !local.ip().is_loopback() {
            crate::messages::say(format_args!(
                "note: {local} is reachable from other machines; the page has no log-in"
            ));
        }
        if args.open {
            open_browser(&url);
        }
        let server = axum::serve(listener, router(Limits::default()));
        let stopped = async {
            while !cancel.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        tokio::select! {
            served = server => served.map_err(anyhow::Error::from),
            () = stopped => Err(Interrupted.into()),
        }
    })
}

/// The program `--open` runs: the one `$BROWSER` names (the first of its
/// `:`-separated list, the convention's form), else the desktop's opener
/// (`xdg-open`, or `open` on macOS).
fn opener() -> std::ffi::OsString {
    let named = std::env::var_os("BROWSER")
        .and_then(|list| {
            let list = list.to_string_lossy().into_owned();
            list.split(':')
                .map(str::trim)
                .find(|p| !p.is_empty())
                .map(str::to_string)
        })
        .map(std::ffi::OsString::from);
    named.unwrap_or_else(|| {
        if cfg!(target_os = "macos") {
            "open".into()
        } else {
            "xdg-open".into()
        }
    })
}

/// Opens the page in the desktop's browser: runs [`opener`] with the URL
/// as its one argument, once the server listens; says so when it cannot.
/// The opener's exit is waited for on a thread of its own, so no process
/// is left behind.
fn open_browser(url: &str) {
    let opener = opener();
    match std::process::Command::new(&opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(e) => crate::messages::say(format_args!(
            "note: cannot open a browser ({}: {e}); open {url} yourself",
            opener.to_string_lossy()
        )),
    }
}
