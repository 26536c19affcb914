//! Fuzzes the dice notation parsers (`dice::parse_terms`,
//! `Pool::parse_cortex`) with arbitrary text; the invariants are in
//! `check_dice` in `tests/common/fuzzing.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/fuzzing.rs"]
mod fuzzing;

fuzz_target!(|data: &[u8]| {
    // The parsers take text; lossy decoding still reaches them with the
    // replacement character where the bytes were not UTF-8.
    fuzzing::check_dice(&String::from_utf8_lossy(data));
});
