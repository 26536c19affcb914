//! The `oddsmith` binary: parse the command line, run it, print the whole
//! error chain on failure and map it to docs/reports.md's exit codes. Process exits
//! and the Ctrl-C handler live here and nowhere in the library.

use std::sync::atomic::AtomicBool;

use oddsmith::interrupt;

static CANCEL: AtomicBool = AtomicBool::new(false);

fn main() {
    let cli = oddsmith::cli::Cli::parse_args();
    // SIGTERM and SIGHUP too (ctrlc's `termination` feature): a `kill` or a
    // closed terminal must not leave temporary files or a half-new folder.
    // Ctrl-C asks the run to stop at its next Monte Carlo block or case; the
    // run then ends with 130 before any report file is written (a watchdog
    // makes sure of it within a second: see `oddsmith::interrupt`).
    let _ = ctrlc::set_handler(|| {
        if let Some(_ending) = interrupt::on_interrupt(&CANCEL) {
            oddsmith::messages::say(interrupt::MESSAGE);
            std::process::exit(130);
        }
    });
    if let Err(error) = oddsmith::commands::run(cli, &CANCEL) {
        let code = oddsmith::errors::exit_code(&error);
        // Held until the exit, so the watchdog cannot print a second message.
        let _ending = (code == 130).then(interrupt::ending);
        if _ending.is_some() {
            oddsmith::messages::say(interrupt::MESSAGE);
        } else {
            oddsmith::messages::say(format_args!("error: {error:#}"));
        }
        std::process::exit(code);
    }
}
