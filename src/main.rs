//! The `oddsmith` binary: parse the command line, run it, print the whole
//! error chain on failure and map it to SPEC 8's exit codes.

use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;

static CANCEL: AtomicBool = AtomicBool::new(false);

fn main() {
    let cli = oddsmith::cli::Cli::parse();
    // Ctrl-C asks the Monte Carlo engine to stop at its next block; the run
    // then ends with 130 before any report file is written.
    let _ = ctrlc::set_handler(|| CANCEL.store(true, Ordering::SeqCst));
    if let Err(error) = oddsmith::app::run(cli, &CANCEL) {
        let code = oddsmith::errors::exit_code(&error);
        if code == 130 {
            eprintln!("interrupted: no report files were written");
        } else {
            eprintln!("error: {error:#}");
        }
        std::process::exit(code);
    }
}
