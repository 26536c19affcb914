//! `oddsmith serve` under sustained load keeps its memory flat (docs/serve.md,
//! "Limits"): the bytes the process holds on its heap are counted by a
//! global allocator of this binary's own (so no other test shares it), while
//! the router answers the same mix of requests round after round: every
//! system, lists, views, a balance, bad input and the downloads, with a
//! different pool in each request of a round. After the first rounds (the
//! memos and the tables of shared inputs filled), a later round must end
//! holding what an earlier one did, give or take a little: a request that
//! left something behind would show as growth by the round (before the
//! fix every evaluation left about 2.8 KB: the command-line parser's
//! argument names were leaked strings, made afresh for each request). That
//! the memo of pool distributions forgets rather than collects is a unit
//! test of its own (`pool_cache`); `benches/serve-soak.sh` shows the
//! resident memory of a real server under a minute and more of load.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use oddsmith::serve::limits::Limits;
use oddsmith::serve::router;
use tower::ServiceExt;

/// The system allocator, counting the bytes live on the heap.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only the
// count of live bytes is kept beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        moved
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn live_bytes() -> isize {
    LIVE.load(Ordering::SeqCst)
}

/// One round of requests: each system's form with the pool `n`, lists and
/// views, a balance, bad input and downloads. `n` varies the pools, so the
/// shared tables see many distinct inputs within a round.
fn round(pools: usize) -> Vec<String> {
    let mut uris = Vec::new();
    for n in 0..pools {
        let dice = 1 + n % 4;
        let size = [4, 6, 8, 10, 12][n % 5];
        let pool = format!("d10+{dice}d{size}+d6");
        let vs = format!("{}d{}", 2 + n % 3, [6, 8, 10][n % 3]);
        uris.push(format!(
            "/api/evaluate?cmd=cortex&pool={pool}&vs={vs}&method=exact"
        ));
        uris.push(format!(
            "/api/evaluate?cmd=cortex&pool={pool}&vs={vs},5d4&view=at-least"
        ));
        uris.push(format!(
            "/api/evaluate?cmd=scene&pool={pool}&doom=2d6&actions={}",
            2 + n % 4
        ));
        uris.push(format!(
            "/api/evaluate?cmd=conflict&hero={pool}&foe=d10+d8&view=at-most"
        ));
        uris.push(format!(
            "/api/evaluate?cmd=storytelling&dice={}&rote={}",
            1 + n % 12,
            n % 2 == 0
        ));
        uris.push(format!(
            "/api/evaluate?cmd=advantage&die=d{size}&stat=1&rolls={}",
            2 + n % 5
        ));
        uris.push(format!("/api/download/csv?cmd=cortex&pool={pool}&vs={vs}"));
        uris.push(format!("/api/evaluate?cmd=cortex&pool={pool}x&vs={vs}"));
    }
    uris.push("/api/evaluate?cmd=balance&pools=d10+2d8+d6&target=0.6".into());
    uris.push("/api/download/png?cmd=cortex&pool=d10+2d8+d6&vs=2d6&chart=cortex-p-success".into());
    uris.push("/api/download/svg?cmd=cortex&pool=d10+2d8+d6&vs=2d6&chart=cortex-p-success".into());
    uris.push("/api/download/toml?cmd=cortex&pool=d10+2d8+d6&vs=2d6".into());
    uris.push("/".into());
    uris.push("/api/systems".into());
    uris
}

async fn status_of(app: &Router, uri: &str) -> StatusCode {
    let response = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    // Read the body whole, as a client would, so nothing is left pending.
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    assert!(!body.is_empty(), "{uri}: an empty answer");
    status
}

/// Plays `uris` two at a time (the server's permits on a 2-core machine)
/// and checks that every answer is one the page expects.
async fn play(app: &Router, uris: &[String]) {
    for pair in uris.chunks(2) {
        let answers = answer_together(app, pair).await;
        for (uri, status) in pair.iter().zip(answers) {
            let expected = if uri.contains("x&vs") {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::OK
            };
            assert_eq!(status, expected, "{uri}");
        }
    }
}

async fn answer_together(app: &Router, uris: &[String]) -> Vec<StatusCode> {
    let tasks: Vec<_> = uris
        .iter()
        .map(|uri| {
            let app = app.clone();
            let uri = uri.clone();
            tokio::spawn(async move { status_of(&app, &uri).await })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.unwrap());
    }
    statuses
}

/// What a later round may hold beyond an earlier one. A leak of even one
/// small string a request (over 160 requests a round) passes it by the
/// last round.
const SLACK_BYTES: isize = 16 * 1024;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_heap_is_flat_over_rounds_of_the_same_requests() {
    let app = router(Limits::default());
    let uris = round(20);
    let mut after = Vec::new();
    for _ in 0..5 {
        play(&app, &uris).await;
        after.push(live_bytes());
    }
    let report = format!(
        "live heap after each round of {} requests: {:?} bytes",
        uris.len(),
        after
    );
    eprintln!("{report}");
    // Rounds 1 and 2 fill the memos, the shared tables and the runtime's
    // threads; from round 3 on nothing may grow.
    for (round, &bytes) in after.iter().enumerate().skip(3) {
        assert!(
            bytes - after[2] <= SLACK_BYTES,
            "round {} holds {} bytes more than round 3; {report}",
            round + 1,
            bytes - after[2]
        );
    }
}
