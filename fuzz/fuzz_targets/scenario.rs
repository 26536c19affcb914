//! Fuzzes the scenario loader with arbitrary bytes, as `oddsmith run` reads
//! a file; the invariants are in `oddsmith::fuzzing::check_scenario`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    oddsmith::fuzzing::check_scenario(data);
});
