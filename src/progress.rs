//! The progress bar for Monte Carlo runs: an indicatif bar on stderr showing
//! trials done, the rate and the time left. It is hidden with `--quiet` or
//! when stderr is not a terminal, so pipes and CI logs stay clean.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Trials per second as a whole number ("1,261,418/s"): indicatif's own
/// `{per_sec}` shows four decimals of a figure that is never that exact.
fn whole_rate(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = write!(out, "{}/s", HumanCount(state.per_sec().round() as u64));
}

/// Whether a bar should be drawn at all.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// Runs `work` while a bar follows `counter` up to `total` trials. The bar
/// only appears if the work takes longer than a moment.
pub fn with_bar<T>(
    label: &str,
    total: u64,
    enabled: bool,
    counter: &AtomicU64,
    work: impl FnOnce() -> T,
) -> T {
    if !enabled {
        return work();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            // Short runs finish before the bar would be worth drawing.
            for _ in 0..5 {
                if done.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:30}] {human_pos}/{human_len} trials  {rate}  ETA {eta}",
                )
                .map(|style| style.with_key("rate", whole_rate))
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_message(label.to_string());
            while !done.load(Ordering::Relaxed) {
                bar.set_position(counter.load(Ordering::Relaxed));
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    })
}
