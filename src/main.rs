//! The `oddsmith` binary: parse the command line, run it, print the whole
//! error chain on failure and map it to SPEC 8's exit codes.

use std::sync::atomic::AtomicBool;

use clap::Parser;

static CANCEL: AtomicBool = AtomicBool::new(false);

fn main() {
    let cli = oddsmith::cli::Cli::parse();
    // Ctrl-C asks the run to stop at its next Monte Carlo block or case; the
    // run then ends with 130 before any report file is written (a watchdog
    // makes sure of it within a second: see `oddsmith::interrupt`).
    let _ = ctrlc::set_handler(|| oddsmith::interrupt::on_interrupt(&CANCEL));
    if let Err(error) = oddsmith::app::run(cli, &CANCEL) {
        let code = oddsmith::errors::exit_code(&error);
        if code == 130 {
            oddsmith::interrupt::exit_interrupted();
        } else {
            eprintln!("error: {error:#}");
        }
        std::process::exit(code);
    }
}
