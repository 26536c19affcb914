//! The JSON API behind the page (docs/serve.md, "The API"): the systems'
//! forms from their key descriptors (`GET /api/systems`), an evaluation
//! (`GET /api/evaluate?QUERY`, or the same pairs POSTed as a form) and the
//! downloads (`GET /api/download/KIND?QUERY`). An evaluation goes through
//! the quick commands' own path ([`crate::commands::quick`]): the query is
//! parsed as their flags, the cases are built and evaluated as the command
//! line does, and the answer carries the report as `--format json` prints
//! it, its table as the Markdown output's cells, its distributions in each
//! view and its charts as SVG from the chart module.
//!
//! Bad input is 400 with the command line's message and the field it names;
//! work past a limit is 422, a full server 503 (see [`super::limits`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Form, Json};
use serde_json::{json, Value as Json_};

use super::download::{self, Kind as DownloadKind};
use super::limits::{self, Gate, Limits};
use super::query::{self, field_in, Args, Asked, BadInput, Cmd};
use super::views;
use crate::commands::balance::{balance_report, questions_of};
use crate::commands::evaluate::Settings;
use crate::commands::output::{entries, Flag};
use crate::commands::quick::{cases_from, flags_of, quick_report};
use crate::engine::exact::ExactError;
use crate::engine::monte_carlo::Interrupted;
use crate::errors::{kind, ErrorKind};
use crate::options::{combination_count, KeyStyle};
use crate::report::chart::{self, render};
use crate::report::{self, CaseResult, Format, MethodUsed, Report};

/// What every handler shares.
#[derive(Debug, Clone)]
pub struct AppState {
    pub limits: Limits,
    pub gate: Gate,
}

/// A request not answered: its status and message.
#[derive(Debug)]
pub enum Refusal {
    /// 400: the command line's message, beside its field.
    Bad(BadInput),
    /// 422: more work than a request may ask.
    Limit(BadInput),
    /// 413: a query string or body past its cap.
    TooLarge(String),
    /// 503: every evaluation permit taken.
    Busy(String),
    /// 404: no such download.
    NotFound(String),
    /// 500: the server failed (never the user's input).
    Failed(String),
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, message, field) = match self {
            Refusal::Bad(bad) => (StatusCode::BAD_REQUEST, bad.message, bad.field),
            Refusal::Limit(bad) => (StatusCode::UNPROCESSABLE_ENTITY, bad.message, bad.field),
            Refusal::TooLarge(m) => (StatusCode::PAYLOAD_TOO_LARGE, m, None),
            Refusal::Busy(m) => (StatusCode::SERVICE_UNAVAILABLE, m, None),
            Refusal::NotFound(m) => (StatusCode::NOT_FOUND, m, None),
            Refusal::Failed(m) => (StatusCode::INTERNAL_SERVER_ERROR, m, None),
        };
        let body = json!({ "error": message, "field": field, "status": status.as_u16() });
        let mut response = (status, Json(body)).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(limits::RETRY_AFTER_SECONDS),
            );
        }
        response
    }
}

/// A calculation evaluated: what was asked, its flags and its report.
pub struct Evaluated {
    pub asked: Asked,
    /// A quick command's flags as scenario keys (none for a balance).
    pub flags: Vec<Flag>,
    pub report: Report,
    /// How each result (or rung) was computed.
    pub used: Vec<Used>,
}

/// `GET /api/systems`: each quick command's form, from its keys' descriptors.
pub async fn systems() -> Response {
    Json(super::forms::systems()).into_response()
}

/// `GET /api/evaluate?QUERY`.
pub async fn evaluate_get(
    State(state): State<AppState>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Response {
    evaluate(state, pairs).await
}

/// `POST /api/evaluate` with the query's pairs as a form body.
pub async fn evaluate_post(
    State(state): State<AppState>,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    evaluate(state, pairs).await
}

async fn evaluate(state: AppState, pairs: Vec<(String, String)>) -> Response {
    match answer(&state, pairs, answer_json).await {
        Ok(body) => Json(body).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// `GET /api/download/KIND?QUERY`: the current result as a file.
pub async fn download(
    State(state): State<AppState>,
    Path(kind): Path<String>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Response {
    let Some(kind) = DownloadKind::from_name(&kind) else {
        return Refusal::NotFound(format!(
            "no download \"{kind}\": csv, json, md, svg, png or toml"
        ))
        .into_response();
    };
    let stem = pairs
        .iter()
        .find(|(k, _)| k == "chart")
        .map(|(_, v)| v.clone());
    let made = answer(&state, pairs, move |done| {
        download::file(
            kind,
            &done.report,
            &done.asked,
            &done.flags,
            stem.as_deref(),
        )
    })
    .await;
    match made {
        Ok(Some(file)) => (
            [
                (header::CONTENT_TYPE, kind.content_type().to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{}\"", file.name),
                ),
            ],
            file.bytes,
        )
            .into_response(),
        Ok(None) => Refusal::NotFound("this result has no such chart".into()).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// What an evaluation found past a limit only once its cases were built.
enum Past {
    Cases(usize),
    Rungs(usize),
}

/// Reads the query, checks it against the limits, evaluates it on a
/// blocking thread under a permit and a deadline, and hands the result to
/// `make` there (rendering charts is work too).
pub async fn answer<T: Send + 'static>(
    state: &AppState,
    pairs: Vec<(String, String)>,
    make: impl FnOnce(&Evaluated) -> anyhow::Result<T> + Send + 'static,
) -> Result<T, Refusal> {
    let limits = &state.limits;
    let asked = query::read(&pairs).map_err(Refusal::Bad)?;
    let cmd = asked.cmd;
    let input = |e: anyhow::Error| {
        let message = format!("{e:#}");
        let field = field_in(&message, cmd);
        Refusal::Bad(BadInput { message, field })
    };
    if let Some(trials) = asked.common().trials.filter(|&t| t > limits.max_trials) {
        return Err(Refusal::Limit(BadInput {
            message: limits::too_many_trials(trials, limits.max_trials),
            field: Some("trials".into()),
        }));
    }
    let flags = match &asked.args {
        Args::Quick(args) => {
            let flags = flags_of(args).map_err(input)?;
            // Lists form their product unless `--paired` zips them; the
            // cases themselves are counted again once built.
            let count = combination_count(
                &entries(flags.clone(), KeyStyle::Flag).map_err(|e| input(e.into()))?,
            );
            if count > limits.max_cases && !args.pivot.paired {
                return Err(Refusal::Limit(BadInput {
                    message: limits::too_many_cases(count, limits.max_cases),
                    field: None,
                }));
            }
            flags
        }
        Args::Balance(_) => Vec::new(),
    };
    let permit = state
        .gate
        .try_enter()
        .ok_or_else(|| Refusal::Busy(limits::busy(limits.concurrent)))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let deadline = limits.deadline;
    let (max_cases, max_rungs) = (limits.max_cases, limits.max_rungs);
    let timer = {
        let cancel = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(deadline).await;
            cancel.store(true, Ordering::SeqCst);
        })
    };
    let job = {
        let cancel = cancel.clone();
        tokio::task::spawn_blocking(move || {
            // Held until the work is done, even when the client has gone.
            let _permit = permit;
            let mut common = asked.common().clone();
            common.quiet = true;
            let settings = Settings::resolve(&common, None, None)?;
            let mut used = Vec::new();
            let report = match &asked.args {
                Args::Quick(args) => {
                    let system = match asked.cmd {
                        Cmd::Quick(system) => system,
                        Cmd::Balance => unreachable!("a quick command's arguments"),
                    };
                    let (cases, presentation) = cases_from(system, args, flags.clone())?;
                    if cases.len() > max_cases {
                        return Ok(Err(Past::Cases(cases.len())));
                    }
                    let report = quick_report(&cases, &settings, presentation, &cancel)?;
                    used.extend(report.results.iter().map(Used::of));
                    report
                }
                Args::Balance(args) => {
                    let questions = questions_of(args)?;
                    let rungs = questions.iter().map(|q| q.rungs.len()).sum::<usize>();
                    if rungs > max_rungs {
                        return Ok(Err(Past::Rungs(rungs)));
                    }
                    balance_report(&questions, &settings, &cancel, &mut |r| {
                        used.push(Used::of(r));
                    })?
                }
            };
            let done = Evaluated {
                asked,
                flags,
                report,
                used,
            };
            make(&done).map(Ok)
        })
    };
    let outcome = job.await;
    timer.abort();
    match outcome {
        Ok(Ok(Ok(made))) => Ok(made),
        Ok(Ok(Err(past))) => Err(Refusal::Limit(BadInput {
            message: match past {
                Past::Cases(count) => limits::too_many_cases(count, limits.max_cases),
                Past::Rungs(count) => limits::too_many_rungs(count, limits.max_rungs),
            },
            field: None,
        })),
        Ok(Err(error)) => Err(refusal_of(error, cmd, limits, &cancel)),
        Err(join) => Err(Refusal::Failed(format!("the evaluation failed: {join}"))),
    }
}

/// An evaluation's error as the page is told it.
fn refusal_of(error: anyhow::Error, cmd: Cmd, limits: &Limits, cancel: &AtomicBool) -> Refusal {
    let message = format!("{error:#}");
    let interrupted = error.chain().any(|e| e.is::<Interrupted>());
    if interrupted && cancel.load(Ordering::SeqCst) {
        return Refusal::Limit(BadInput {
            message: limits::past_deadline(limits.deadline),
            field: None,
        });
    }
    let too_large = error.chain().any(|e| {
        matches!(
            e.downcast_ref::<ExactError>(),
            Some(ExactError::TooLarge(_))
        )
    });
    if too_large {
        return Refusal::Limit(BadInput {
            message,
            field: Some("method".into()),
        });
    }
    match kind(&error) {
        ErrorKind::Input => {
            let field = field_in(&message, cmd);
            Refusal::Bad(BadInput { message, field })
        }
        ErrorKind::Interrupted | ErrorKind::Failed => Refusal::Failed(message),
    }
}

/// How one result was computed: its method, and for Monte Carlo its
/// trials and seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Used {
    pub method: MethodUsed,
    pub trials: Option<u64>,
    pub seed: Option<u64>,
}

impl Used {
    fn of(result: &CaseResult) -> Used {
        Used {
            method: result.method,
            trials: result.trials,
            seed: result.seed,
        }
    }
}

/// How the results (a balance's rungs) were computed, in words: "exact",
/// or "Monte Carlo, 1000000 trials, seed 1", each method once.
fn methods(used: &[Used]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in used {
        let label = match r.method {
            MethodUsed::Exact => "exact".to_string(),
            MethodUsed::MonteCarlo => format!(
                "Monte Carlo, {} trials, seed {}",
                r.trials.unwrap_or(0),
                r.seed.unwrap_or(0)
            ),
        };
        if !out.contains(&label) {
            out.push(label);
        }
    }
    out
}

/// An evaluation's answer: the command line, the link's query, the
/// method used, the table, the distributions, the charts and the report.
fn answer_json(done: &Evaluated) -> anyhow::Result<Json_> {
    let report = &done.report;
    let report_json: Json_ = serde_json::from_slice(&report::render(report, Format::Json)?)?;
    let charts = chart::charts(report)
        .iter()
        .map(|c| {
            Ok(json!({
                "stem": c.stem,
                "title": c.title,
                "svg": render::svg(c)?,
            }))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Each metric in words (the metric descriptors' phrases), which the
    // page shows under the metric's name.
    let mut words = serde_json::Map::new();
    for r in &report.results {
        for m in &r.metrics {
            if let Some(described) = r.system.declared().describe(m.name()) {
                words.insert(m.name().to_string(), described.phrase.into());
            }
        }
    }
    for b in &report.balances {
        if let Some(described) = b.system.declared().describe(&b.metric) {
            words.insert(b.metric.clone(), described.phrase.into());
        }
    }
    Ok(json!({
        "command": done.asked.command,
        "words": words,
        "query": done.asked.query,
        "methods": methods(&done.used),
        "table": report::cases_html(report)?,
        "views": views::ALL.iter().map(|v| v.name()).collect::<Vec<_>>(),
        "distributions": views::distributions(report),
        "charts": charts,
        "report": report_json,
    }))
}
