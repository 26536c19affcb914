//! Hardening, second adversarial pass, item 1: a conflict against a huge
//! mob. The Monte Carlo sampler prepared a pool for every team dice count,
//! though a fight of `exchanges` exchanges takes at most one team die an
//! exchange: `--mob 100000d4` aborted ("memory allocation failed", exit
//! 134) and `--mob 10000d4` took 588 MiB. Now only the reachable counts are
//! prepared (release build, `/usr/bin/time -v`: docs/development.md).

use std::process::Command;

/// Address space the child may map: far below what the tables of every
/// team count took (gigabytes), far above what the reachable ones take.
#[cfg(target_os = "linux")]
const ADDRESS_LIMIT: u64 = 1 << 30;

#[cfg(target_os = "linux")]
#[test]
fn a_conflict_against_a_huge_mob_runs_in_bounded_memory() {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oddsmith"));
    cmd.args([
        "conflict",
        "d10 2d8 d6",
        "--mob",
        "100000d4",
        "--exchanges",
        "100",
        "--method",
        "mc",
        "--trials",
        "10",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    // SAFETY: setrlimit is async-signal-safe; the closure allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: ADDRESS_LIMIT,
                rlim_max: ADDRESS_LIMIT,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json.to_string().contains("100000d4"), "{json}");
}
