//! The states of an encounter's counters (docs/advantage.md: "an exact Markov chain
//! over every counter's value"): every value each counter in play can hold,
//! numbered so the exact chain and the sampler's tables can index them. One
//! player's two counters are interchangeable, so only their sorted values
//! are states; a party's counters belong to players who roll in turn, so
//! every combination is a state of its own.

use super::{AdvantageCase, MAX_PARTY};

/// The values of the counters in play, in holder order (a party's players
/// 1..`party`); unused slots are 0.
pub type Counters = [u8; MAX_PARTY as usize];

/// The numbered states of a case's counters.
#[derive(Debug, Clone)]
pub struct StateSpace {
    die: u8,
    holders: usize,
    /// Whether the counters are interchangeable (kept sorted).
    sorted: bool,
    /// Per state, its counters.
    states: Vec<Counters>,
    /// Per code (the counters read as a number in base `die`, first holder
    /// lowest), the state's number; `u32::MAX` for unsorted codes.
    index_of_code: Vec<u32>,
}

impl StateSpace {
    pub fn new(case: &AdvantageCase) -> StateSpace {
        let die = case.die;
        let holders = case.holders();
        let sorted = case.counters > 1;
        let codes = usize::from(die).pow(holders as u32);
        let mut states = Vec::new();
        let mut index_of_code = vec![u32::MAX; codes];
        for (code, slot) in index_of_code.iter_mut().enumerate() {
            let mut counters = [0u8; MAX_PARTY as usize];
            let mut rest = code;
            for value in counters.iter_mut().take(holders) {
                *value = (rest % usize::from(die)) as u8 + 1;
                rest /= usize::from(die);
            }
            if sorted && counters[..holders].windows(2).any(|w| w[0] > w[1]) {
                continue;
            }
            *slot = states.len() as u32;
            states.push(counters);
        }
        StateSpace {
            die,
            holders,
            sorted,
            states,
            index_of_code,
        }
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// The counters of state `index`.
    pub fn counters(&self, index: usize) -> Counters {
        self.states[index]
    }

    /// Interchangeable counters in their kept (sorted) order.
    pub fn settle(&self, mut counters: Counters) -> Counters {
        if self.sorted {
            counters[..self.holders].sort_unstable();
        }
        counters
    }

    /// The number of the state the counters are in (sorted first if they
    /// are interchangeable).
    pub fn index(&self, counters: Counters) -> usize {
        let counters = self.settle(counters);
        let code = counters[..self.holders]
            .iter()
            .rev()
            .fold(0usize, |code, &v| {
                code * usize::from(self.die) + usize::from(v - 1)
            });
        self.index_of_code[code] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_counter_is_numbered_by_its_value() {
        let space = StateSpace::new(&AdvantageCase::default());
        assert_eq!(space.len(), 6);
        for value in 1..=6u8 {
            let index = space.index([value, 0, 0, 0]);
            assert_eq!(index, usize::from(value) - 1);
            assert_eq!(space.counters(index)[0], value);
        }
    }

    #[test]
    fn two_counters_are_kept_sorted_and_a_party_is_not() {
        let two = AdvantageCase {
            die: 8,
            counters: 2,
            ..AdvantageCase::default()
        };
        let space = StateSpace::new(&two);
        // Unordered pairs of 1..8 with repetition: 8 * 9 / 2.
        assert_eq!(space.len(), 36);
        assert_eq!(space.index([5, 2, 0, 0]), space.index([2, 5, 0, 0]));
        assert_eq!(space.counters(space.index([5, 2, 0, 0])), [2, 5, 0, 0]);
        let party = AdvantageCase {
            die: 8,
            party: 4,
            ..AdvantageCase::default()
        };
        let space = StateSpace::new(&party);
        assert_eq!(space.len(), 8usize.pow(4));
        assert_ne!(space.index([5, 2, 1, 1]), space.index([2, 5, 1, 1]));
        for index in [0, 17, 4095] {
            assert_eq!(space.index(space.counters(index)), index);
        }
    }
}
