//! `oddsmith serve`'s page in a real browser (docs/serve.md): Debian's
//! Chromium, headless, driven through `chromedriver` over WebDriver
//! (fantoccini) against the server on a loopback port. A person's steps:
//! open a calculation, type a pool and see the success cell change,
//! switch views, open the shared link and get the same state, type a bad
//! pool and see its message beside the field with the last result kept,
//! and fetch the CSV download; then the balance form, in both its forms,
//! showing the rung the command line chooses. Screenshots at 1280 and
//! 390 px wide go to
//! `target/serve-screenshots/`. The whole test is bounded in time and
//! stops the browser and its driver itself.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use oddsmith::serve::limits::Limits;
use oddsmith::serve::router;
use serde_json::json;

use crate::common::{oddsmith, tool_available};

/// `name` on the PATH, or in /usr/bin.
fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The driver, ended when the test ends however it ends.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn screenshots() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("serve-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Polls `check` until it gives a value, for at most `limit`.
async fn until<T, F, Fut>(limit: Duration, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The text of the cell in `column` (1 = first value) of the row of the
/// metric called `metric` in words.
async fn cell(client: &Client, metric: &str, column: usize) -> Option<String> {
    let xpath = format!(
        "//div[@id='table']//tr[td[1][text()='{metric}']]/td[{}]",
        column + 1
    );
    let found = client.find(Locator::XPath(&xpath)).await.ok()?;
    found.text().await.ok()
}

async fn text_of(client: &Client, css: &str) -> String {
    match client.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

async fn type_into(client: &Client, css: &str, text: &str) {
    let input = client.find(Locator::Css(css)).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

async fn shoot(client: &Client, width: u32, height: u32, name: &str) -> PathBuf {
    client.set_window_size(width, height).await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let png = client.screenshot().await.unwrap();
    let path = screenshots().join(name);
    std::fs::write(&path, png).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_answers_as_you_type_in_a_real_browser() {
    let driver_path = find("chromedriver");
    if !tool_available(
        "chromedriver (Debian's chromium-driver)",
        driver_path.is_some(),
    ) {
        return;
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router(Limits::default())).await });

    let port = free_port();
    let _driver = Driver(
        Command::new(driver_path.unwrap())
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1600",
                         "--hide-scrollbars"] }),
    );
    let webdriver = format!("http://127.0.0.1:{port}");
    let client = until(
        Duration::from_secs(30),
        "chromedriver to accept a session",
        || {
            let caps = caps.clone();
            let webdriver = webdriver.clone();
            async move {
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                    .capabilities(caps)
                    .connect(&webdriver)
                    .await
                    .ok()
            }
        },
    )
    .await;
    let steps = tokio::time::timeout(Duration::from_secs(150), steps(&client, &base)).await;
    let _ = client.close().await;
    steps.expect("the browser steps finish within 150 seconds");
}

async fn steps(client: &Client, base: &str) {
    let wait = Duration::from_secs(30);
    client
        .goto(&format!("{base}?cmd=cortex&pool=d8+d6&vs=2d6"))
        .await
        .unwrap();
    let before = until(wait, "the first answer", || {
        cell(client, "chance of success", 1)
    })
    .await;
    assert_eq!(before, "55.03 %");
    assert!(text_of(client, "#method").await.contains("exact"));

    // Type a pool: the success cell changes without a click.
    type_into(client, "#f-pool", "d10 2d8 d6").await;
    let after = until(wait, "the success cell to change", || async {
        cell(client, "chance of success", 1)
            .await
            .filter(|t| *t != before)
    })
    .await;
    let cli = oddsmith()
        .args([
            "cortex",
            "d10 2d8 d6",
            "--vs",
            "2d6",
            "--format",
            "markdown",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let cli = String::from_utf8(cli).unwrap();
    assert!(
        cli.contains(&format!("| chance of success | {after} |")),
        "{after} in\n{cli}"
    );
    let command = text_of(client, "#command").await;
    assert_eq!(command, "oddsmith cortex 'd10 2d8 d6' --vs 2d6");

    // Switch views: at least, then the charts.
    client
        .find(Locator::Css("[data-view='at-least']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(wait, "the view on the command line", || async {
        Some(text_of(client, "#command").await).filter(|c| c.ends_with("--view at-least"))
    })
    .await;
    let head = text_of(client, "#distributions h3").await;
    assert_eq!(head, "total: at least");
    shoot(client, 1280, 1600, "page-1280.png").await;
    client
        .find(Locator::Css("[data-show='chart']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(wait, "a chart", || async {
        let figure = client.find(Locator::Css("#charts figure svg")).await.ok()?;
        figure.is_displayed().await.ok().filter(|shown| *shown)
    })
    .await;
    assert!(!client
        .find(Locator::Css("#table"))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap());
    shoot(client, 1280, 1600, "page-1280-chart.png").await;

    // The shared link reopens the same state.
    let url = client.current_url().await.unwrap();
    let query = url.query().unwrap_or_default().to_string();
    assert!(
        query.contains("view=at-least") && query.contains("show=chart"),
        "{query}"
    );
    client.goto(url.as_str()).await.unwrap();
    until(wait, "the shared page's chart", || async {
        client.find(Locator::Css("#charts figure svg")).await.ok()
    })
    .await;
    let pool = client
        .find(Locator::Css("#f-pool"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(pool.as_deref(), Some("d10 2d8 d6"));
    let pressed = client
        .find(Locator::Css("[data-view='at-least']"))
        .await
        .unwrap()
        .attr("aria-pressed")
        .await
        .unwrap();
    assert_eq!(pressed.as_deref(), Some("true"));
    client
        .find(Locator::Css("[data-show='table']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        until(wait, "the table", || cell(client, "chance of success", 1)).await,
        after
    );

    // A bad pool: its message beside the field, the last result kept.
    type_into(client, "#f-pool", "d8 d7").await;
    let message = until(wait, "the pool's message", || async {
        Some(text_of(client, "#e-pool").await).filter(|t| !t.is_empty())
    })
    .await;
    assert_eq!(
        message,
        "POOL: d7 is not a Cortex die: use d4, d6, d8, d10 or d12"
    );
    assert_eq!(
        cell(client, "chance of success", 1).await.as_deref(),
        Some(after.as_str())
    );

    // The CSV download is the command line's CSV of the result shown
    // (its view, `--view at-least`, as the command line shows).
    let href = client
        .find(Locator::Css("#downloads a[href*='download/csv']"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    let csv = client
        .execute_async(
            "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then(r => r.text()).then(done);",
            vec![json!(href)],
        )
        .await
        .unwrap();
    let cli = oddsmith()
        .args([
            "cortex",
            "d10 2d8 d6",
            "--vs",
            "2d6",
            "--view",
            "at-least",
            "--format",
            "csv",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(csv.as_str(), Some(String::from_utf8(cli).unwrap().as_str()));

    // At a phone's width: the bad pool's message, then a good answer.
    shoot(client, 390, 1400, "page-390-error.png").await;
    type_into(client, "#f-pool", "d10 d8").await;
    until(wait, "the phone's answer", || async {
        Some(text_of(client, "#e-pool").await).filter(|t| t.is_empty())
    })
    .await;
    shoot(client, 390, 1400, "page-390.png").await;

    balance_steps(client).await;
}

/// The text of the balance's sentence naming its chosen rung, once the
/// page shows one that contains every one of `wanted`.
async fn chosen_rung(client: &Client, wanted: &[&str]) -> String {
    until(
        Duration::from_secs(30),
        "the balance's chosen rung",
        || async {
            let found = client
                .find_all(Locator::XPath(
                    "//div[@id='table']//p[contains(., 'is closest to')]",
                ))
                .await
                .ok()?;
            for p in found {
                let text = p.text().await.ok()?;
                if wanted.iter().all(|w| text.contains(w)) {
                    return Some(text);
                }
            }
            None
        },
    )
    .await
}

/// The balance form: pick it, type hero pools and a target, and see the
/// rung the command line chooses; then the general form, whose system's
/// keys become fields once the system is named.
async fn balance_steps(client: &Client) {
    let wait = Duration::from_secs(30);
    client.set_window_size(1280, 1600).await.unwrap();
    client
        .find(Locator::Css("[data-cmd='balance']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let views = client.find(Locator::Css("#views")).await.unwrap();
    assert!(!views.is_displayed().await.unwrap());
    type_into(client, "#f-pools", "d8 d6 d6, d10 2d8 d6").await;
    type_into(client, "#f-target", "0.5").await;
    let cli = crate::common::json_of(&[
        "balance",
        "d8 d6 d6",
        "d10 2d8 d6",
        "--target",
        "0.5",
        "--format",
        "json",
    ]);
    for balance in cli["balance"].as_array().unwrap() {
        let best = balance["best"].as_str().unwrap();
        let label = balance["best_label"].as_str().unwrap();
        let pool = balance["pool"].as_str().unwrap();
        chosen_rung(client, &[pool, &format!("is {best} ({label})")]).await;
    }
    until(wait, "the balance's command line", || async {
        Some(text_of(client, "#command").await)
            .filter(|c| c == "oddsmith balance 'd8 d6 d6' 'd10 2d8 d6' --target 0.5")
    })
    .await;
    shoot(client, 1280, 1600, "balance-1280.png").await;
    client
        .find(Locator::Css("[data-show='chart']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(wait, "the balance's chart", || async {
        let figure = client.find(Locator::Css("#charts figure svg")).await.ok()?;
        figure.is_displayed().await.ok().filter(|shown| *shown)
    })
    .await;
    shoot(client, 1280, 1600, "balance-1280-chart.png").await;
    client
        .find(Locator::Css("[data-show='table']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // The general form: Storytelling's dice for 90 % at 9-again.
    type_into(client, "#f-pools", "").await;
    client
        .find(Locator::Css("#general summary"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    type_into(client, "#f-system", "storytelling").await;
    type_into(client, "#f-key", "dice").await;
    type_into(client, "#f-ladder", "1,2,3,4,5,6,7,8").await;
    type_into(client, "#f-metric", "p_success").await;
    type_into(client, "#f-target", "0.9").await;
    until(wait, "Storytelling's keys as fields", || async {
        client
            .find(Locator::Css("#system-keys #f-again"))
            .await
            .ok()
    })
    .await;
    type_into(client, "#f-again", "9").await;
    let cli = crate::common::json_of(&[
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
        "--format",
        "json",
    ]);
    let best = &cli["balance"][0]["best"];
    chosen_rung(client, &[&format!("is dice={best},")]).await;
    shoot(client, 390, 1400, "balance-390.png").await;
    // The answer, below the form on a phone.
    client
        .execute("document.getElementById('answer').scrollIntoView()", vec![])
        .await
        .unwrap();
    shoot(client, 390, 1400, "balance-390-answer.png").await;
}
