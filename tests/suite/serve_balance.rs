//! `oddsmith serve`'s balance form and its answers against the command
//! line, in-process (docs/serve.md): a balance asked on the page is
//! `oddsmith balance` with the same flags, in the Cortex form and the
//! general form, its bad input is the command line's message beside its
//! field, its rungs are capped, and its downloads are the command line's
//! outputs and a scenario whose `[[balance]]` gives the same answer. And
//! every system's report, a balance's and a conflict's included, is the
//! bytes `--format json` prints, to the last bit, whatever the server
//! evaluated before it.

use axum::http::StatusCode;
use axum::Router;
use oddsmith::serve::limits::Limits;
use oddsmith::serve::router;
use serde_json::Value;

use crate::common::{json_of, oddsmith};
use crate::serve_api::{get, get_json};

fn app() -> Router {
    router(Limits::default())
}

/// What `oddsmith ARGS` prints on stdout.
fn stdout_of(args: &[&str]) -> Vec<u8> {
    oddsmith()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

#[tokio::test]
async fn a_balance_answers_what_oddsmith_balance_prints() {
    let app = app();
    let (status, body) = get_json(
        &app,
        "/api/evaluate?cmd=balance&pools=d10+2d8+d6&target=0.6",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let cli = json_of(&[
        "balance",
        "d10 2d8 d6",
        "--target",
        "0.6",
        "--format",
        "json",
    ]);
    assert_eq!(body["report"], cli);
    assert_eq!(
        body["command"],
        "oddsmith balance 'd10 2d8 d6' --target 0.6"
    );
    assert_eq!(body["methods"], serde_json::json!(["exact"]));
    // The chosen rung, in the Markdown output's words, is on the page.
    let best = cli["balance"][0]["best"].as_str().unwrap();
    let markdown = String::from_utf8(stdout_of(&[
        "balance",
        "d10 2d8 d6",
        "--target",
        "0.6",
        "--format",
        "markdown",
    ]))
    .unwrap();
    let sentence = markdown
        .lines()
        .find(|l| l.contains("is closest to"))
        .unwrap();
    assert!(sentence.contains(best), "{sentence}");
    let table = body["table"].as_str().unwrap();
    assert!(table.contains("<table>"), "{table}");
    assert!(table.contains(&format!("is {best} (")), "{table}");
    let charts = body["charts"].as_array().unwrap();
    assert!(!charts.is_empty());
    assert!(charts[0]["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(body["words"]["p_success"].is_string(), "{body}");

    // A comma list of hero pools is one balance per pool, as several
    // POOL arguments are; the roll rules are flags as on the command line.
    let (status, body) = get_json(
        &app,
        "/api/evaluate?cmd=balance&pools=d8+d6+d6,d10+2d8+d6&ladder=2d6,3d8,4d10&ties=action",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["command"],
        "oddsmith balance 'd8 d6 d6' 'd10 2d8 d6' --ladder 2d6,3d8,4d10 --ties action"
    );
    let cli = json_of(&[
        "balance",
        "d8 d6 d6",
        "d10 2d8 d6",
        "--ladder",
        "2d6,3d8,4d10",
        "--ties",
        "action",
        "--format",
        "json",
    ]);
    assert_eq!(body["report"], cli);
    assert_eq!(body["report"]["balance"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn the_general_balance_takes_the_systems_keys_as_flags() {
    let app = app();
    let (status, body) = get_json(
        &app,
        "/api/evaluate?cmd=balance&system=storytelling&key=dice&ladder=1,2,3,4,5,6,7,8&metric=p_success&target=0.9&again=9&set=target%3D7",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let args = [
        "balance",
        "--system",
        "storytelling",
        "--key",
        "dice",
        "--ladder",
        "1,2,3,4,5,6,7,8",
        "--metric",
        "p_success",
        "--target",
        "0.9",
        "--again",
        "9",
        "--set",
        "target=7",
    ];
    assert_eq!(
        body["command"],
        "oddsmith balance --system storytelling --key dice --ladder 1,2,3,4,5,6,7,8 --metric p_success --target 0.9 --again 9 --set target=7"
    );
    let mut cli = args.to_vec();
    cli.extend(["--format", "json"]);
    assert_eq!(body["report"], json_of(&cli));
}

#[tokio::test]
async fn bad_balance_input_is_the_command_lines_message_beside_its_field() {
    let app = app();
    for (query, args, field) in [
        ("pools=d8+d7", &["d8 d7"][..], Some("pools")),
        (
            "pools=d8&target=1.5",
            &["d8", "--target", "1.5"][..],
            Some("target"),
        ),
        (
            "pools=d8&ladder=2d6,3d7",
            &["d8", "--ladder", "2d6,3d7"][..],
            Some("ladder"),
        ),
        (
            "system=storytelling&key=dice&ladder=1,2&metric=p_sucess&target=0.9",
            &[
                "--system",
                "storytelling",
                "--key",
                "dice",
                "--ladder",
                "1,2",
                "--metric",
                "p_sucess",
                "--target",
                "0.9",
            ][..],
            Some("metric"),
        ),
        (
            "system=advantage&key=die&ladder=d4,d8&metric=p_success&target=0.5&rolls=6,10",
            &[
                "--system",
                "advantage",
                "--key",
                "die",
                "--ladder",
                "d4,d8",
                "--metric",
                "p_success",
                "--target",
                "0.5",
                "--rolls",
                "6,10",
            ][..],
            Some("rolls"),
        ),
    ] {
        let (status, body) = get_json(&app, &format!("/api/evaluate?cmd=balance&{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        let mut cli = vec!["balance"];
        cli.extend(args);
        let out = oddsmith()
            .args(&cli)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let stderr = String::from_utf8_lossy(&out);
        let message = stderr.trim().strip_prefix("error: ").unwrap();
        assert_eq!(body["error"], message, "{query}");
        assert_eq!(body["field"].as_str(), field, "{query}: {body}");
    }
    // The page's table layout flags are no flags of `balance`.
    let (status, body) = get_json(&app, "/api/evaluate?cmd=balance&pools=d8&view=at-least").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn a_balance_past_the_rung_cap_is_422() {
    let app = app();
    // Eleven hero pools on the nine-rung default ladder: 99 rungs.
    let pools = ["d8"; 11].join(",");
    let (status, body) = get_json(&app, &format!("/api/evaluate?cmd=balance&pools={pools}")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("99 rungs"),
        "{body}"
    );
    let (status, _) = get_json(&app, "/api/evaluate?cmd=balance&pools=d8&trials=2000000").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_balances_downloads_are_the_command_lines_outputs() {
    let app = app();
    let q = "cmd=balance&pools=d8+d6+d6,d10+2d8+d6&target_heroic=0.3&heroic_step=4&seed=7";
    let args = [
        "balance",
        "d8 d6 d6",
        "d10 2d8 d6",
        "--target-heroic",
        "0.3",
        "--heroic-step",
        "4",
        "--seed",
        "7",
    ];
    for (kind, format) in [("csv", "csv"), ("md", "markdown"), ("json", "json")] {
        let (status, headers, bytes) = get(&app, &format!("/api/download/{kind}?{q}")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains(&format!("oddsmith-balance.{kind}")));
        let mut cli = args.to_vec();
        cli.extend(["--format", format]);
        assert_eq!(bytes, stdout_of(&cli), "{kind}");
    }
    let (status, _, svg) = get(&app, &format!("/api/download/svg?{q}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(svg.starts_with(b"<svg"));
    // The scenario's `[[balance]]` is the same question: answered
    // exactly, it picks the same rungs with the same values.
    let (_, _, toml) = get(&app, &format!("/api/download/toml?{q}")).await;
    let text = String::from_utf8(toml).unwrap();
    let scenario = oddsmith::scenario::parse(&text, "page.toml", "page").unwrap();
    assert_eq!(scenario.seed, Some(7), "{text}");
    let report = json_of(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(scenario.balances.len(), 2, "{text}");
    for (question, shown) in scenario
        .balances
        .iter()
        .zip(report["balance"].as_array().unwrap())
    {
        let answer = question.answer_exactly().unwrap();
        let best = &answer.ladder[answer.best.unwrap()];
        assert_eq!(best.value, shown["best"], "{text}");
        assert_eq!(
            best.metric.unwrap(),
            shown["best_value"].as_f64().unwrap(),
            "{text}"
        );
    }
    // The general form's scenario holds the fixed keys in its `case`.
    let q = "cmd=balance&system=advantage&key=die&ladder=d4,d6,d8&metric=strong_per_encounter&target=1.25&rolls=6&gain_on=miss%3D1";
    let (status, _, toml) = get(&app, &format!("/api/download/toml?{q}")).await;
    assert_eq!(status, StatusCode::OK);
    let text = String::from_utf8(toml).unwrap();
    let scenario = oddsmith::scenario::parse(&text, "page.toml", "page").unwrap();
    let (_, body) = get_json(&app, &format!("/api/evaluate?{q}")).await;
    let answer = scenario.balances[0].answer_exactly().unwrap();
    assert_eq!(
        answer.ladder[answer.best.unwrap()].value,
        body["report"]["balance"][0]["best"],
        "{text}"
    );
}

/// One typical request of each form, and its command line.
const EVERY_FORM: &[(&str, &[&str])] = &[
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
        "cmd=conflict&hero=d8+d6+d6&foe=d10+2d8&exchanges=4",
        &[
            "conflict",
            "d8 d6 d6",
            "--foe",
            "d10 2d8",
            "--exchanges",
            "4",
        ],
    ),
    (
        "cmd=storytelling&dice=5&rote=true",
        &["storytelling", "5", "--rote"],
    ),
    (
        "cmd=advantage&die=d8&stat=1&rolls=6",
        &["advantage", "--die", "d8", "--stat", "1", "--rolls", "6"],
    ),
    (
        "cmd=balance&pools=d10+2d8+d6&target=0.6",
        &["balance", "d10 2d8 d6", "--target", "0.6"],
    ),
];

#[tokio::test]
async fn every_report_is_the_command_lines_json_byte_for_byte() {
    // Twice over, in one server: the second round meets whatever the
    // first left in the process (memos, the workers), as a long-running
    // server does, and must still print the command line's bytes.
    let app = app();
    for round in 0..2 {
        for (query, args) in EVERY_FORM {
            let mut cli = args.to_vec();
            cli.extend(["--format", "json"]);
            let printed = stdout_of(&cli);
            let (status, _, bytes) = get(&app, &format!("/api/download/json?{query}")).await;
            assert_eq!(status, StatusCode::OK, "{query}");
            assert!(
                bytes == printed,
                "round {round}, {query}: the server's JSON differs from the command line's:\n{}\n{}",
                String::from_utf8_lossy(&bytes),
                String::from_utf8_lossy(&printed)
            );
            let (_, body) = get_json(&app, &format!("/api/evaluate?{query}")).await;
            let printed: Value = serde_json::from_slice(&printed).unwrap();
            assert_eq!(body["report"], printed, "round {round}, {query}");
        }
    }
}
