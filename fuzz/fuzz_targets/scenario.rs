//! Fuzzes the scenario loader with arbitrary bytes, as `oddsmith run` reads
//! a file; the invariants are in `check_scenario` in `tests/common/fuzzing.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/fuzzing.rs"]
mod fuzzing;

fuzz_target!(|data: &[u8]| {
    fuzzing::check_scenario(data);
});
