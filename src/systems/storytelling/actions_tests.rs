//! Extended and contested actions held to hand-worked figures, to brute
//! force (every face sequence, scored roll after roll by the one scorer),
//! to the reroll rule's limit and to Wald's identity.

use crate::distribution::Evaluation;
use crate::engine::exact::Budget;
use crate::options::{KeyStyle, RawItem, RawValue};
use crate::systems::{System, SystemCase};

use super::extended::{End, ExtHists, ExtendedCase};
use super::keys::ContestTies;
use super::rules::{tests::rules, Rules, SIDES};
use super::{ContestCase, StorytellingCase};

fn resolve(pairs: &[(&str, i64)]) -> Box<dyn SystemCase> {
    let entries = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), RawItem::new(RawValue::Int(*v))))
        .collect();
    System::Storytelling
        .resolve(System::Storytelling.options(KeyStyle::Toml, entries))
        .unwrap()
}

fn exact(pairs: &[(&str, i64)]) -> Evaluation {
    resolve(pairs).exact(&mut Budget::unlimited()).unwrap()
}

fn value(e: &Evaluation, name: &str) -> f64 {
    e.value(name)
        .unwrap_or_else(|| panic!("no value for {name}"))
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-12, "{what}: {a} vs {b}");
}

fn single(rules: Rules) -> StorytellingCase {
    StorytellingCase::plain(rules)
}

#[test]
fn one_die_by_hand() {
    // One die: 0 (0.7), 1 (0.27), 2 or more (0.03). Two successes in two
    // rolls: at once (0.03), or 1 then at least 1 (0.27 x 0.3), or 0 then
    // at least 2 (0.7 x 0.03).
    let e = exact(&[("dice", 1), ("extended", 2), ("rolls", 2)]);
    close(value(&e, "p_extended_success"), 0.03 + 0.081 + 0.021, "p");
    close(value(&e, "p_extended_dramatic"), 0.0, "dramatic");
    close(value(&e, "mean_rolls"), 0.03 + 2.0 * 0.97, "rolls");
    close(
        value(&e, "mean_rolls_to_success"),
        (0.03 + 2.0 * 0.102) / 0.132,
        "rolls to success",
    );
    let row = |outcome: &str| {
        e.rows
            .iter()
            .find(|r| r.variable == "success_roll" && r.outcome == outcome)
            .map(|r| r.probability)
            .unwrap()
    };
    close(row("1"), 0.03, "roll 1");
    close(row("2"), 0.102, "roll 2");
    close(row("never"), 0.868, "never");
    // One success in one roll is the single roll's p_success.
    let e = exact(&[("dice", 4), ("extended", 1), ("rolls", 1)]);
    close(
        value(&e, "p_extended_success"),
        value(&e, "p_success"),
        "one roll",
    );
}

#[test]
fn a_dramatic_failure_ends_the_action() {
    // A chance die over three rolls, needing one success: each roll
    // succeeds (0.1), fails dramatically (0.1) or goes on (0.8).
    let e = exact(&[("dice", 0), ("extended", 1), ("rolls", 3)]);
    let reached = 1.0 + 0.8 + 0.64;
    close(value(&e, "p_extended_success"), 0.1 * reached, "p");
    close(value(&e, "p_extended_dramatic"), 0.1 * reached, "dramatic");
    close(
        value(&e, "mean_rolls"),
        0.2 + 2.0 * 0.16 + 3.0 * 0.64,
        "rolls",
    );
    // The rolls default to the unmodified pool: three dice at -3 are a
    // chance die rolled three times.
    let modified = exact(&[("dice", 3), ("modifier", -3), ("extended", 1)]);
    assert_eq!(modified.metrics, e.metrics);
    // A dramatic failure keeps what was gathered: two successes needed
    // with no rerolls, so a first success is kept whatever follows (1 +
    // 0.1 on average), and a plain failure first leaves only the second
    // roll's 0.1.
    let e = exact(&[("dice", 0), ("again", 0), ("extended", 2), ("rolls", 2)]);
    close(value(&e, "p_extended_success"), 0.01, "p");
    close(
        value(&e, "mean_total_successes"),
        0.1 * 1.1 + 0.8 * 0.1,
        "total",
    );
    // With no dice the rolls are at least 1.
    let e = exact(&[("dice", 0), ("extended", 1)]);
    close(value(&e, "mean_rolls"), 1.0, "rolls");
}

fn contest(me: Rules, them: Rules, ties: ContestTies) -> ContestCase {
    ContestCase {
        base: single(me),
        vs_dice: them.pool,
        vs_modifier: 0,
        opponent: them,
        ties,
    }
}

const TIES: [ContestTies; 3] = [
    ContestTies::Opponent,
    ContestTies::Roller,
    ContestTies::Reroll,
];

#[test]
fn ties_under_each_rule() {
    // One die against one, no rerolls: each side succeeds with 0.3.
    let die = Rules {
        again: 0,
        ..rules(1)
    };
    let at = |ties| {
        contest(die, die, ties)
            .exact(&mut Budget::unlimited())
            .unwrap()
    };
    let opponent = at(ContestTies::Opponent);
    close(value(&opponent, "p_tie"), 0.49 + 0.09, "tie");
    close(value(&opponent, "p_win"), 0.21, "opponent wins ties");
    close(value(&opponent, "mean_net_successes"), 0.0, "net");
    close(
        value(&at(ContestTies::Roller), "p_win"),
        0.79,
        "roller wins ties",
    );
    close(
        value(&at(ContestTies::Reroll), "p_win"),
        0.5,
        "ties rolled again",
    );
    // Two chance dice that do not reroll their 10: a 1 is no worse than any
    // other failure in a contest, so a tie is 0.9^2 + 0.1^2.
    let chance = Rules {
        chance_die_explodes: false,
        ..rules(0)
    };
    let e = contest(chance, chance, ContestTies::Opponent)
        .exact(&mut Budget::unlimited())
        .unwrap();
    close(value(&e, "p_tie"), 0.82, "chance tie");
    close(value(&e, "p_win"), 0.09, "chance win");
    close(value(&e, "p_dramatic"), 0.1, "the roller's own roll");
}

#[test]
fn a_rerolled_tie_is_the_limit_of_rolling_again() {
    for (me, them) in [(5, 4), (1, 3), (0, 0), (7, 7)] {
        let pick = |ties| {
            contest(rules(me), rules(them), ties)
                .exact(&mut Budget::unlimited())
                .unwrap()
        };
        let once = pick(ContestTies::Opponent);
        let (win, tie) = (value(&once, "p_win"), value(&once, "p_tie"));
        close(
            value(&pick(ContestTies::Reroll), "p_win"),
            win / (1.0 - tie),
            "reroll",
        );
        close(
            value(&pick(ContestTies::Roller), "p_win"),
            win + tie,
            "roller",
        );
    }
}

#[test]
fn wald_identity_for_the_successes_gathered() {
    // The successes gathered are a sum of single rolls stopped at a
    // stopping time: E[total] = E[one roll] x E[rolls made] (a dramatic
    // roll scores 0 and counts as a roll).
    for pairs in [
        vec![("dice", 5), ("extended", 10)],
        vec![("dice", 3), ("extended", 7), ("rolls", 9), ("again", 8)],
        vec![("dice", 0), ("extended", 3), ("rolls", 12)],
        vec![
            ("dice", 2),
            ("modifier", -2),
            ("extended", 2),
            ("rolls", 6),
            ("again", 0),
        ],
        vec![("dice", 10), ("extended", 30), ("rolls", 20), ("again", 8)],
    ] {
        let e = exact(&pairs);
        let wald = value(&e, "mean_successes") * value(&e, "mean_rolls");
        let total = value(&e, "mean_total_successes");
        assert!(
            (total - wald).abs() < 1e-9 * wald.max(1.0),
            "{pairs:?}: {total} vs {wald}"
        );
    }
}

/// Plays one extended action from a fixed face sequence, roll after roll
/// through the one scorer; `None` when the faces run out first.
fn play(case: &ExtendedCase, faces: &[u8]) -> Option<End> {
    let mut next = 0;
    let mut face = || {
        let f = faces.get(next).copied();
        next += 1;
        f
    };
    let mut total = 0;
    for roll in 1..=case.rolls {
        let scored = case.base.rules.roll(&mut face)?;
        if scored.dramatic {
            return Some(End::Dramatic { roll, total });
        }
        total += scored.successes;
        if total >= case.extended {
            return Some(End::Success { roll, total });
        }
    }
    Some(End::OutOfRolls { total })
}

/// Every face sequence of up to `max_faces` faces: the histograms of the
/// actions they finish, and the mass still unfinished at the limit.
fn brute_force(case: &ExtendedCase, max_faces: usize) -> (ExtHists<f64>, f64) {
    fn walk(
        case: &ExtendedCase,
        prefix: &mut Vec<u8>,
        max_faces: usize,
        hists: &mut ExtHists<f64>,
        unfinished: &mut f64,
    ) {
        let weight = (1.0 / f64::from(SIDES)).powi(prefix.len() as i32);
        match play(case, prefix) {
            Some(end) => hists.record(end, case.rolls, weight),
            None if prefix.len() == max_faces => *unfinished += weight,
            None => {
                for face in 1..=SIDES {
                    prefix.push(face);
                    walk(case, prefix, max_faces, hists, unfinished);
                    prefix.pop();
                }
            }
        }
    }
    let mut hists = ExtHists::default();
    let mut unfinished = 0.0;
    walk(
        case,
        &mut Vec::new(),
        max_faces,
        &mut hists,
        &mut unfinished,
    );
    (hists, unfinished)
}

fn check_against_brute_force(rules: Rules, extended: u32, rolls: u32, max_faces: usize) {
    let case = ExtendedCase {
        base: single(rules),
        extended,
        rolls,
    };
    let (_, exact, dropped) = case.exact_hists(&mut Budget::unlimited()).unwrap();
    assert!(dropped < super::DROP_LIMIT);
    let (brute, unfinished) = brute_force(&case, max_faces);
    // Brute force never exceeds exact, and falls short by no more than
    // what it left unfinished; with nothing unfinished they agree.
    let pairs = [(exact.never, brute.never), (exact.dramatic, brute.dramatic)]
        .into_iter()
        .chain((1..=rolls).map(|k| {
            let k = i64::from(k);
            (exact.success_roll.get(k), brute.success_roll.get(k))
        }));
    for (e, b) in pairs {
        assert!(b <= e + 1e-12, "{rules:?}: brute {b} > exact {e}");
        assert!(e - b <= unfinished + 1e-12, "{rules:?}: {e} vs {b}");
    }
    if unfinished == 0.0 {
        // (A million face sequences' weights add up to within 1e-9.)
        for (k, p) in exact.total.iter() {
            let b = brute.total.get(k);
            assert!((p - b).abs() < 1e-9, "{rules:?}: total {k}: {p} vs {b}");
        }
    }
}

#[test]
fn extended_exact_matches_brute_force() {
    // No rerolls: every roll of two dice is two faces, so three rolls are
    // six faces and brute force finishes every action.
    check_against_brute_force(
        Rules {
            again: 0,
            ..rules(2)
        },
        3,
        3,
        6,
    );
    check_against_brute_force(
        Rules {
            again: 0,
            target: 6,
            ..rules(1)
        },
        2,
        4,
        4,
    );
    // Chance dice, where a dramatic failure ends the action.
    check_against_brute_force(
        Rules {
            again: 0,
            ..rules(0)
        },
        1,
        4,
        4,
    );
    check_against_brute_force(rules(0), 2, 3, 6);
    // Explosions and rote: brute force cut at seven faces.
    check_against_brute_force(rules(1), 2, 3, 6);
    check_against_brute_force(
        Rules {
            again: 8,
            rote: true,
            ..rules(1)
        },
        2,
        2,
        6,
    );
}

#[test]
fn contest_exact_matches_brute_force() {
    // Every face sequence of each side (no rerolls: a die is one face, a
    // rote die at most two), paired.
    for (me, them) in [
        (
            Rules {
                again: 0,
                ..rules(2)
            },
            Rules {
                again: 0,
                rote: true,
                ..rules(1)
            },
        ),
        (
            Rules {
                again: 0,
                ..rules(0)
            },
            Rules {
                again: 0,
                target: 5,
                ..rules(2)
            },
        ),
    ] {
        let (mine, left) = single(me).brute_force_hists(4);
        let (theirs, left_too) = single(them).brute_force_hists(4);
        assert_eq!((left, left_too), (0.0, 0.0));
        for ties in TIES {
            let c = contest(me, them, ties);
            let (_, exact, _) = c.exact_hists(&mut Budget::unlimited()).unwrap();
            let mut net = crate::distribution::Hist::default();
            for (a, p) in mine.successes.iter() {
                for (b, q) in theirs.successes.iter() {
                    net.add(a - b, p * q);
                }
            }
            for (k, p) in exact.net.iter() {
                close(p, net.get(k), "net");
            }
            let above = net.mass_where(|k| k > 0);
            let expected = match ties {
                ContestTies::Opponent => above,
                ContestTies::Roller => above + net.get(0),
                ContestTies::Reroll => above / (1.0 - net.get(0)),
            };
            close(exact.win, expected, "win");
        }
    }
}
