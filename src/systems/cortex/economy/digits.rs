//! The index of a roll into a table of rolls scored ahead (the hero's,
//! [`super::hero_table`], and a doom pool's, [`super::doom_pools`]): each
//! die's face times its place value, summed, the dice thrown in the
//! table's order. A pool's length is known only at run time, and a loop
//! over it pays a counter, a compare and a branch a die on top of the
//! product; the lengths the tables meet most, two to five dice, are read
//! by arrays of that length, which unroll, one branch an action choosing.

/// The index of the faces `die` throws for `digits` (each die's sides and
/// place value, in throwing order).
#[inline(always)]
pub(super) fn index(digits: &[(u32, u32)], die: &mut impl FnMut(u32) -> u32) -> u32 {
    match digits.len() {
        2 => fixed::<2>(digits, die),
        3 => fixed::<3>(digits, die),
        4 => fixed::<4>(digits, die),
        5 => fixed::<5>(digits, die),
        _ => looped(digits, die),
    }
}

/// [`index`] over `N` digits, unrolled.
#[inline(always)]
fn fixed<const N: usize>(digits: &[(u32, u32)], die: &mut impl FnMut(u32) -> u32) -> u32 {
    let digits: &[(u32, u32); N] = digits.try_into().expect("N digits");
    let mut index = 0u32;
    for &(sides, weight) in digits {
        index += die(sides) * weight;
    }
    index
}

/// [`index`] over any number of digits: the reference the unrolled
/// lengths are held to.
#[inline(always)]
fn looped(digits: &[(u32, u32)], die: &mut impl FnMut(u32) -> u32) -> u32 {
    let mut index = 0u32;
    for &(sides, weight) in digits {
        index += die(sides) * weight;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{block_rng, DieRoller};

    /// Every length, unrolled or not, reads the index the loop reads from
    /// the same dice, and leaves the stream where the loop leaves it.
    #[test]
    fn the_unrolled_index_is_the_loop() {
        let sides = [12, 4, 10, 6, 8, 12, 6];
        for len in 0..=sides.len() {
            let mut weight = 1u32;
            let mut digits: Vec<(u32, u32)> = sides[..len]
                .iter()
                .rev()
                .map(|&s| {
                    let digit = (s, weight);
                    weight *= s;
                    digit
                })
                .collect();
            digits.reverse();
            let (mut a, mut b) = (block_rng(4, 7), block_rng(4, 7));
            let (mut ra, mut rb) = (DieRoller::new(&mut a), DieRoller::new(&mut b));
            for _ in 0..2_000 {
                let got = index(&digits, &mut |s| ra.roll_index(s));
                let want = looped(&digits, &mut |s| rb.roll_index(s));
                assert_eq!(got, want, "{len} dice");
            }
            assert_eq!(ra.roll_index(1_000), rb.roll_index(1_000), "{len} dice");
        }
    }
}
