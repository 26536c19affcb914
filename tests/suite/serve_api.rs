//! `oddsmith serve`'s API in-process (docs/serve.md): the router called
//! with real requests, no server socket. Every system answers what its
//! quick command prints; lists compare cases; the views are the two tails;
//! bad input is 400 with the command line's message and its field; the
//! caps answer 413, 422 and 503; the downloads are the command line's
//! outputs and a scenario that `oddsmith run` reads to the same cases.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use oddsmith::serve::limits::Limits;
use oddsmith::serve::router;
use serde_json::Value;
use tower::ServiceExt;

use crate::common::{json_of, oddsmith};

/// Each quick command's example, as a query and as its command line.
const EXAMPLES: &[(&str, &[&str])] = &[
    (
        "cmd=cortex&pool=d10+2d8+d6&vs=2d6",
        &["cortex", "d10 2d8 d6", "--vs", "2d6"],
    ),
    (
        "cmd=scene&pool=d10+2d8+d6&doom=2d6&actions=4",
        &["scene", "d10 2d8 d6", "--doom", "2d6", "--actions", "4"],
    ),
    (
        "cmd=conflict&hero=d10+2d8+d6&foe=d10+d8",
        &["conflict", "d10 2d8 d6", "--foe", "d10 d8"],
    ),
    (
        "cmd=storytelling&dice=5&rote=true",
        &["storytelling", "5", "--rote"],
    ),
    (
        "cmd=advantage&die=d8&stat=1&rolls=6",
        &["advantage", "--die", "d8", "--stat", "1", "--rolls", "6"],
    ),
];

pub(crate) async fn get(app: &Router, uri: &str) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let response = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap()
        .to_vec();
    (status, headers, body)
}

pub(crate) async fn get_json(app: &Router, uri: &str) -> (StatusCode, Value) {
    let (status, _, body) = get(app, uri).await;
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("{uri}: {e}: {}", String::from_utf8_lossy(&body)));
    (status, value)
}

fn app() -> Router {
    router(Limits::default())
}

#[tokio::test]
async fn every_system_answers_what_its_quick_command_prints() {
    let app = app();
    for (query, args) in EXAMPLES {
        let (status, body) = get_json(&app, &format!("/api/evaluate?{query}")).await;
        assert_eq!(status, StatusCode::OK, "{query}: {body}");
        let mut cli = args.to_vec();
        cli.extend(["--format", "json"]);
        // To the last bit: the report is the one the command line prints.
        assert_eq!(body["report"], json_of(&cli), "{query}");
        assert_eq!(body["methods"], serde_json::json!(["exact"]), "{query}");
        assert!(
            body["table"].as_str().unwrap().contains("<table>"),
            "{query}"
        );
        assert!(!body["charts"].as_array().unwrap().is_empty(), "{query}");
        let svg = body["charts"][0]["svg"].as_str().unwrap();
        assert!(svg.starts_with("<svg"), "{query}");
        assert!(body["command"].as_str().unwrap().starts_with("oddsmith "));
    }
}

#[tokio::test]
async fn the_shown_command_line_prints_the_same_report() {
    let app = app();
    let (_, body) = get_json(
        &app,
        "/api/evaluate?cmd=cortex&pool=d8+d6&vs=2d6,3d8&ties=action",
    )
    .await;
    let command = body["command"].as_str().unwrap();
    assert_eq!(
        command,
        "oddsmith cortex 'd8 d6' --vs 2d6,3d8 --ties action"
    );
    let again = json_of(&[
        "cortex", "d8 d6", "--vs", "2d6,3d8", "--ties", "action", "--format", "json",
    ]);
    assert_eq!(body["report"], again);
}

#[tokio::test]
async fn lists_compare_cases_side_by_side() {
    let app = app();
    let (status, body) = get_json(&app, "/api/evaluate?cmd=cortex&pool=d8+d6&vs=2d6,3d8").await;
    assert_eq!(status, StatusCode::OK);
    let results = body["report"]["results"].as_array().unwrap();
    let cases: Vec<&str> = results
        .iter()
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(cases, ["vs=2d6", "vs=3d8"]);
    let table = body["table"].as_str().unwrap();
    assert!(table.contains("difference"), "{table}");
    let exactly = body["distributions"]["exactly"].as_str().unwrap();
    assert!(
        exactly.contains(">vs=2d6<") && exactly.contains(">vs=3d8<"),
        "{exactly}"
    );
}

#[tokio::test]
async fn each_view_is_the_command_lines_view() {
    let app = app();
    let (_, body) = get_json(&app, "/api/evaluate?cmd=storytelling&dice=3").await;
    assert_eq!(
        body["views"],
        serde_json::json!(["exactly", "at-least", "at-most"])
    );
    for view in ["exactly", "at-least", "at-most"] {
        let html = body["distributions"][view].as_str().unwrap();
        let cli = oddsmith()
            .args(["storytelling", "3", "--view", view, "--format", "markdown"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let cli = String::from_utf8(cli).unwrap();
        // Every row of the command line's grids is a row of the page's.
        let mut rows = 0;
        for line in cli
            .lines()
            .filter(|l| l.starts_with("| ") && !l.contains("---"))
        {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            let first = cells[0].replace('\\', "");
            if first == "successes" || first.is_empty() {
                continue;
            }
            let row = format!(
                "<tr><td>{}</td>{}</tr>",
                first.replace('<', "&lt;"),
                cells[1..]
                    .iter()
                    .map(|c| format!(
                        "<td class=\"num\">{}</td>",
                        c.replace('\\', "")
                            .replace('<', "&lt;")
                            .replace('>', "&gt;")
                    ))
                    .collect::<String>()
            );
            assert!(html.contains(&row), "{view}: {row} not in\n{html}");
            rows += 1;
        }
        assert!(rows >= 3, "{view}: {cli}");
    }
    // The view asked for is `--view` on the command line too.
    let (_, body) = get_json(&app, "/api/evaluate?cmd=storytelling&dice=3&view=at-most").await;
    assert_eq!(body["command"], "oddsmith storytelling 3 --view at-most");
}

#[tokio::test]
async fn bad_input_is_400_with_the_command_lines_message_beside_its_field() {
    let app = app();
    for (query, args, field) in [
        (
            "cmd=cortex&pool=d8+d7&vs=2d6",
            &["cortex", "d8 d7", "--vs", "2d6"][..],
            "pool",
        ),
        (
            "cmd=cortex&pool=d8&ties=acton",
            &["cortex", "d8", "--ties", "acton"][..],
            "ties",
        ),
        (
            "cmd=storytelling&dice=5&again=11",
            &["storytelling", "5", "--again", "11"][..],
            "again",
        ),
        (
            "cmd=advantage&die=d5",
            &["advantage", "--die", "d5"][..],
            "die",
        ),
    ] {
        let (status, body) = get_json(&app, &format!("/api/evaluate?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(body["field"], field, "{query}: {body}");
        let out = oddsmith()
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let stderr = String::from_utf8_lossy(&out);
        let message = stderr.trim().strip_prefix("error: ").unwrap();
        assert_eq!(body["error"], message, "{query}");
    }
    let (status, body) = get_json(&app, "/api/evaluate?cmd=cortex&pool=d8&tiez=action").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("a similar argument exists: '--ties'"));
    let (status, body) = get_json(&app, "/api/evaluate?cmd=cortx&pool=d8").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["field"], "cmd");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("did you mean `cortex`"));
    let (status, body) = get_json(&app, "/api/evaluate?cmd=cortex").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["field"], "pool", "{body}");
}

#[tokio::test]
async fn strings_are_escaped_in_the_table() {
    let app = app();
    // A pool is checked before it is shown, so markup never reaches the
    // table; the message quoting it is JSON the page sets as text.
    let (status, body) = get_json(&app, "/api/evaluate?cmd=cortex&pool=%3Cb%3Ed8").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("<b>d8"));
    let (_, headers, _) = get(&app, "/").await;
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"));
}

#[tokio::test]
async fn the_caps_answer_413_and_422() {
    let app = router(Limits {
        deadline: Duration::from_millis(1),
        ..Limits::default()
    });
    let long = format!("/api/evaluate?cmd=cortex&pool={}", "d8".repeat(3000));
    let (status, body) = get_json(&app, &long).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body["error"].as_str().unwrap().contains("query string"));
    let big = format!("cmd=cortex&pool=d8&vs={}", "2d6".repeat(10_000));
    let response = app
        .clone()
        .oneshot(
            Request::post("/api/evaluate")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from(big))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    for (query, needle, field) in [
        (
            "cmd=cortex&pool=d8&trials=2000000",
            "at most 1000000",
            Value::from("trials"),
        ),
        (
            "cmd=cortex&pool=d4,d6,d8,d10,d12&vs=d4,d6,d8,d10,d12",
            "25 cases",
            Value::Null,
        ),
        (
            "cmd=cortex&pool=d12+d12+d10+d8&vs=3d12&method=mc&trials=1000000",
            "longer than",
            Value::Null,
        ),
    ] {
        let (status, body) = get_json(&app, &format!("/api/evaluate?{query}")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{query}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(needle),
            "{query}: {body}"
        );
        assert_eq!(body["field"], field, "{query}");
    }
    // The exact budget refuses before the work; the server's own deadline
    // is left at its default here, so only the budget can answer (with a
    // 1 ms deadline a loaded machine could reach the deadline first).
    let (status, body) = get_json(
        &self::app(),
        "/api/evaluate?cmd=cortex&pool=1000d12&vs=5d12&keep=5&method=exact",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("use --method mc"),
        "{body}"
    );
    assert_eq!(body["field"], "method");
    // A POSTed form is the same question as the query string.
    let response = self::app()
        .oneshot(
            Request::post("/api/evaluate")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from("cmd=storytelling&dice=4"))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_permits_the_answer_is_503_with_retry_after() {
    let app = router(Limits {
        concurrent: 1,
        ..Limits::default()
    });
    // Six slow evaluations at once against one permit: one is answered,
    // the others are refused at once rather than queued.
    let asked: Vec<_> = (0..6)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move {
                get(
                    &app,
                    "/api/evaluate?cmd=cortex&pool=d12+d12+d10+d8&vs=3d12&method=mc&trials=1000000",
                )
                .await
            })
        })
        .collect();
    let mut answered = 0;
    let mut refused = 0;
    for task in asked {
        let (status, headers, body) = task.await.unwrap();
        match status {
            StatusCode::OK => answered += 1,
            StatusCode::SERVICE_UNAVAILABLE => {
                refused += 1;
                assert_eq!(headers["retry-after"], "1");
                let body: Value = serde_json::from_slice(&body).unwrap();
                assert!(body["error"].as_str().unwrap().contains("try again"));
            }
            other => panic!("{other}: {}", String::from_utf8_lossy(&body)),
        }
    }
    assert!(
        answered >= 1 && refused >= 1,
        "{answered} answered, {refused} refused"
    );
    // The permit is back once the first is done.
    let (status, _, _) = get(&app, "/api/evaluate?cmd=storytelling&dice=2").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn downloads_are_the_command_lines_outputs() {
    let app = app();
    let q = "cmd=cortex&pool=d8+d6&vs=2d6,3d8";
    let (status, headers, csv) = get(&app, &format!("/api/download/csv?{q}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-disposition"]
        .to_str()
        .unwrap()
        .contains("oddsmith-cortex.csv"));
    let cli = oddsmith()
        .args(["cortex", "d8 d6", "--vs", "2d6,3d8", "--format", "csv"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(csv, cli);
    let (_, _, md) = get(&app, &format!("/api/download/md?{q}")).await;
    assert!(String::from_utf8(md).unwrap().contains("| metric |"));
    let (status, headers, png) = get(
        &app,
        &format!("/api/download/png?{q}&chart=cortex-p-success"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&png));
    assert_eq!(headers["content-type"], "image/png");
    assert!(png.starts_with(b"\x89PNG"));
    let (_, _, svg) = get(&app, &format!("/api/download/svg?{q}")).await;
    assert!(svg.starts_with(b"<svg"));
    let (status, _, _) = get(&app, &format!("/api/download/svg?{q}&chart=nope")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, _, toml) = get(&app, &format!("/api/download/toml?{q}&seed=7")).await;
    let text = String::from_utf8(toml).unwrap();
    let scenario = oddsmith::scenario::parse(&text, "page.toml", "page").unwrap();
    let names: Vec<&str> = scenario.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["vs=2d6", "vs=3d8"], "{text}");
    assert_eq!(scenario.seed, Some(7), "{text}");
}

#[tokio::test]
async fn the_forms_come_from_the_key_descriptors() {
    let app = app();
    let (status, body) = get_json(&app, "/api/systems").await;
    assert_eq!(status, StatusCode::OK);
    let cortex = body["systems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["cmd"] == "cortex")
        .unwrap();
    let ties = cortex["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "ties")
        .unwrap();
    assert_eq!(ties["default"], "reaction");
    assert_eq!(ties["choices"], serde_json::json!(["reaction", "action"]));
    assert!(!ties["help"].as_str().unwrap().is_empty());
    let (status, _, page) = get(&app, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8(page).unwrap().contains("/app.js"));
}

/// `oddsmith serve ARGS` started with `env` set, and the address it says
/// it listens on.
fn start_serve(args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(crate::common::bin())
        .arg("serve")
        .args(args)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, addr)
}

/// The whole HTTP/1.1 answer to `GET path` from the server at `addr`.
fn http_get(addr: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

/// Ctrl-C to the server: its exit status and what it wrote on stderr.
fn stop(mut child: std::process::Child) -> (std::process::ExitStatus, String) {
    use std::io::Read;
    // SAFETY: signalling the child this test started, by its id.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "serve did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status, stderr)
}

#[test]
fn the_binary_serves_on_loopback_and_ctrl_c_exits_130() {
    let (child, addr) = start_serve(&["--bind", "127.0.0.1:0"], &[]);
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let answer = http_get(&addr, "/api/evaluate?cmd=storytelling&dice=3");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"p_success\""));
    let (status, stderr) = stop(child);
    assert_eq!(status.code(), Some(130));
    assert!(stderr.contains("interrupted"), "{stderr}");
}

#[test]
fn open_hands_the_url_to_the_browser_that_browser_names() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let opened = dir.path().join("opened");
    // A browser that writes the one argument it is given into a file
    // (through a temporary name, so the file appears whole).
    let script = dir.path().join("browser");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf '%s|%s' \"$#\" \"$1\" > '{0}.part' && mv '{0}.part' '{0}'\n",
            opened.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (child, addr) = start_serve(
        &["--bind", "127.0.0.1:0", "--open"],
        &[("BROWSER", script.as_os_str())],
    );
    let start = std::time::Instant::now();
    while !opened.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the browser was not run"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let given = std::fs::read_to_string(&opened).unwrap();
    assert_eq!(given, format!("1|http://{addr}/"));
    // The URL it was given is the page.
    let page = http_get(&addr, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("/app.js"), "{page}");
    let (status, stderr) = stop(child);
    assert_eq!(status.code(), Some(130));
    assert!(!stderr.contains("cannot open"), "{stderr}");

    // A browser that cannot be run: a note with the URL, and the server
    // serves all the same.
    let missing = dir.path().join("no-such-browser");
    let (child, addr) = start_serve(
        &["--bind", "127.0.0.1:0", "--open"],
        &[("BROWSER", missing.as_os_str())],
    );
    let page = http_get(&addr, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    let (status, stderr) = stop(child);
    assert_eq!(status.code(), Some(130));
    assert!(
        stderr.contains("cannot open a browser") && stderr.contains(&format!("http://{addr}/")),
        "{stderr}"
    );
}

#[test]
fn a_bad_bind_address_is_bad_input() {
    crate::common::refused(
        &["serve", "--bind", "localhost"],
        &["`--bind`", "127.0.0.1:7878"],
    );
}
