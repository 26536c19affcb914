//! The exact distribution of an advantage encounter: a Markov chain over
//! the counter value stepped roll by roll over the rule's face table, and
//! the brute-force walk over every path that checks it.

use super::{AdvantageCase, AdvantageHists, COUNTS, M2S, USES};
use crate::distribution::Hist;
use crate::engine::exact::{Budget, ExactError};

impl AdvantageCase {
    /// The chance steps as weighted branches `(gained, reduced, probability)`,
    /// leaving out branches that cannot happen.
    fn chance_branches(&self) -> Vec<(bool, bool, f64)> {
        let mut branches = Vec::new();
        for (gained, pg) in [(true, self.gain_chance), (false, 1.0 - self.gain_chance)] {
            for (reduced, pr) in [
                (true, self.gm_reduce_chance),
                (false, 1.0 - self.gm_reduce_chance),
            ] {
                if pg > 0.0 && pr > 0.0 {
                    branches.push((gained, reduced, pg * pr));
                }
            }
        }
        branches
    }

    /// The chain's transitions for one roll: per counter value (index value
    /// - 1), every (next counter, flags) with its probability, merged.
    fn transitions(&self, last: bool) -> Vec<Vec<(u8, u8, f64)>> {
        let branches = self.chance_branches();
        self.face_table(last)
            .iter()
            .map(|row| {
                let mut out: Vec<(u8, u8, f64)> = Vec::new();
                for &(counter, flags) in row {
                    for &(gained, reduced, p) in &branches {
                        let next = self.after_chances(counter, gained, reduced);
                        let q = p / 36.0;
                        match out.iter_mut().find(|e| e.0 == next && e.1 == flags) {
                            Some(entry) => entry.2 += q,
                            None => out.push((next, flags, q)),
                        }
                    }
                }
                out
            })
            .collect()
    }

    /// The exact histograms: a Markov chain stepped roll by roll. For each
    /// per-encounter count (misses, weak hits, strong hits, uses, misses
    /// turned strong) the state is (counter value, count so far); the
    /// per-roll tiers come from the counter's distribution before each roll.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<AdvantageHists<f64>, ExactError> {
        let tables = [self.transitions(false), self.transitions(true)];
        let n = self.rolls as usize;
        let size = usize::from(self.die);
        let entries: u64 = tables[0].iter().map(|t| t.len() as u64).sum();
        let steps = (COUNTS as u64 * entries).saturating_mul((n * (n + 1) / 2) as u64);
        budget.spend(steps, &|| {
            format!("an encounter of {} rolls with a d{}", self.rolls, self.die)
        })?;
        let width = n + 1;
        let at = |k: usize, c: usize, count: usize| (k * size + c) * width + count;
        let mut state = vec![0.0f64; COUNTS * size * width];
        for k in 0..COUNTS {
            state[at(k, 0, 0)] = 1.0;
        }
        let mut tier_by_roll = Vec::with_capacity(n);
        for roll in 0..n {
            let table = &tables[usize::from(roll + 1 == n)];
            let mut tiers = [0.0; 3];
            for (c, moves) in table.iter().enumerate() {
                let p: f64 = (0..=roll).map(|count| state[at(0, c, count)]).sum();
                for &(_, flags, q) in moves {
                    tiers[(flags & 7).trailing_zeros() as usize] += p * q;
                }
            }
            tier_by_roll.push(tiers);
            let mut next = vec![0.0f64; state.len()];
            for k in 0..COUNTS {
                for (c, moves) in table.iter().enumerate() {
                    for count in 0..=roll {
                        let p = state[at(k, c, count)];
                        if p == 0.0 {
                            continue;
                        }
                        for &(to, flags, q) in moves {
                            let step = usize::from((flags >> k) & 1);
                            next[at(k, usize::from(to) - 1, count + step)] += p * q;
                        }
                    }
                }
            }
            state = next;
        }
        let per_encounter = std::array::from_fn(|k| {
            let mut hist = Hist::with_range(0, n as i64);
            for c in 0..size {
                for count in 0..=n {
                    hist.add(count as i64, state[at(k, c, count)]);
                }
            }
            hist
        });
        Ok(AdvantageHists {
            per_encounter,
            tier_by_roll,
        })
    }

    /// Every path of faces and chance branches, followed one by one: the
    /// slow, obviously correct cross-check of [`AdvantageCase::exact_hists`].
    /// Only for short encounters (36^rolls x 4^rolls paths).
    pub fn brute_force_hists(&self) -> AdvantageHists<f64> {
        let n = self.rolls as usize;
        let mut hists = AdvantageHists {
            per_encounter: std::array::from_fn(|_| Hist::with_range(0, n as i64)),
            tier_by_roll: vec![[0.0; 3]; n],
        };
        let branches = self.chance_branches();
        #[allow(clippy::too_many_arguments)]
        fn walk(
            case: &AdvantageCase,
            branches: &[(bool, bool, f64)],
            roll: usize,
            counter: u8,
            p: f64,
            counts: [i64; COUNTS],
            hists: &mut AdvantageHists<f64>,
        ) {
            let n = case.rolls as usize;
            if roll == n {
                for (k, &count) in counts.iter().enumerate() {
                    hists.per_encounter[k].add(count, p);
                }
                return;
            }
            for first in 1..=6u8 {
                for second in 1..=6u8 {
                    let outcome = case.resolve_roll(counter, (first, second), roll + 1 == n);
                    let p_face = p / 36.0;
                    hists.tier_by_roll[roll][outcome.tier as usize] += p_face;
                    let mut counts = counts;
                    counts[outcome.tier as usize] += 1;
                    counts[USES] += i64::from(outcome.used);
                    counts[M2S] += i64::from(outcome.miss_to_strong);
                    for &(gained, reduced, q) in branches {
                        let next = case.after_chances(outcome.counter, gained, reduced);
                        walk(case, branches, roll + 1, next, p_face * q, counts, hists);
                    }
                }
            }
        }
        walk(self, &branches, 0, 1, 1.0, [0; COUNTS], &mut hists);
        hists
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distribution::Metric;
    use crate::systems::advantage::{OnUse, Policy, Tier};

    fn metric(metrics: &[Metric], name: &str) -> f64 {
        metrics
            .iter()
            .find(|m| m.name == name)
            .and_then(|m| m.value)
            .unwrap_or_else(|| panic!("no metric {name}"))
    }

    #[test]
    fn never_reproduces_plain_2d6() {
        // REFERENCE.md: 2d6 + stat, out of 36: strong, weak, miss.
        let table = [
            (0, 6, 15, 15),
            (1, 10, 16, 10),
            (2, 15, 15, 6),
            (3, 21, 12, 3),
        ];
        for (stat, strong, weak, miss) in table {
            let case = AdvantageCase {
                stat,
                policy: Policy::Never,
                ..AdvantageCase::default()
            };
            let m = case.metrics(&case.exact_hists(&mut Budget::unlimited()).unwrap());
            assert!((metric(&m, "p_strong") - f64::from(strong) / 36.0).abs() < 1e-9);
            assert!((metric(&m, "p_weak") - f64::from(weak) / 36.0).abs() < 1e-9);
            assert!((metric(&m, "p_miss") - f64::from(miss) / 36.0).abs() < 1e-9);
            assert_eq!(metric(&m, "uses_per_encounter"), 0.0);
            if stat == 0 {
                let expected = 1.0 - (5.0f64 / 6.0).powi(4);
                assert!((metric(&m, "p_encounter_strong") - expected).abs() < 1e-9);
                assert!((metric(&m, "strong_per_encounter") - 4.0 / 6.0).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_chain_matches_every_path_enumerated() {
        let cases = [
            AdvantageCase {
                die: 8,
                rolls: 2,
                gain_on: [1, 0, 2],
                gm_reduce_chance: 0.3,
                ..AdvantageCase::default()
            },
            AdvantageCase {
                die: 4,
                rolls: 3,
                policy: Policy::Threshold(3),
                on_use: OnUse::Swap,
                gain_on: [1, 1, 0],
                gain_chance: 0.7,
                ..AdvantageCase::default()
            },
            AdvantageCase {
                die: 6,
                rolls: 3,
                stat: -1,
                policy: Policy::Last,
                gain_chance: 1.0,
                ..AdvantageCase::default()
            },
        ];
        for case in cases {
            let chain = case.exact_hists(&mut Budget::unlimited()).unwrap();
            let brute = case.brute_force_hists();
            for (a, b) in chain.per_encounter.iter().zip(&brute.per_encounter) {
                for count in 0..=i64::from(case.rolls) {
                    assert!(
                        (a.get(count) - b.get(count)).abs() < 1e-10,
                        "{case:?} {count} {} {}",
                        a.get(count),
                        b.get(count)
                    );
                }
            }
            for (a, b) in chain.tier_by_roll.iter().zip(&brute.tier_by_roll) {
                for t in 0..3 {
                    assert!((a[t] - b[t]).abs() < 1e-10, "{case:?}");
                }
            }
            for (a, b) in case.metrics(&chain).iter().zip(case.metrics(&brute)) {
                assert!((a.value.unwrap() - b.value.unwrap()).abs() < 1e-10);
            }
        }
    }

    #[test]
    fn per_roll_tiers_average_to_the_shares() {
        let case = AdvantageCase {
            die: 8,
            rolls: 7,
            gain_on: [1, 0, 0],
            ..AdvantageCase::default()
        };
        let h = case.exact_hists(&mut Budget::unlimited()).unwrap();
        let m = case.metrics(&h);
        for tier in Tier::ALL {
            let average: f64 = h.tier_by_roll.iter().map(|t| t[tier as usize]).sum::<f64>() / 7.0;
            assert!((metric(&m, &format!("p_{}", tier.name())) - average).abs() < 1e-12);
        }
        let rows = case.rows(&h);
        assert_eq!(rows.len(), 21);
        assert_eq!(rows[0].variable, "tier_roll_1");
        assert_eq!(rows[20].variable, "tier_roll_7");
        assert_eq!(rows[20].outcome, "strong");
    }
}
