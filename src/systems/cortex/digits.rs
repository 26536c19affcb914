//! Rolls read as numbers, for tables of rolls scored ahead (the action
//! tables of [`super::scene_rolls`] and [`super::conflict`], the hero's and
//! the doom pools' of [`super::economy`]): each die's face, counted from
//! zero, is a digit whose base is its sides, the first die's the most
//! significant. [`place_values`] gives each die its weight, one place for
//! every caller; [`index`] sums faces times weights. A pool's length is
//! known only at run time, and a loop over it pays a counter, a compare
//! and a branch a die on top of the product; the lengths the tables meet
//! most, one to six dice (a doom pool the GM has spent down to one die
//! among them), are read by arrays of that length, which unroll, one
//! branch an action choosing.

/// Each die's sides and place value, in the dice's order, and the number
/// of rolls they number (every die's sides multiplied): the last die's
/// place value is 1 and each other's the product of the sides after it.
/// The product wraps: a caller whose pool may be too large for a table
/// bounds the count before it builds one.
pub(super) fn place_values(sides: impl DoubleEndedIterator<Item = u32>) -> (Vec<(u32, u32)>, u32) {
    let mut rolls = 1u32;
    let mut digits: Vec<(u32, u32)> = sides
        .rev()
        .map(|sides| {
            let digit = (sides, rolls);
            rolls = rolls.wrapping_mul(sides);
            digit
        })
        .collect();
    digits.reverse();
    (digits, rolls)
}

/// The index of the faces `die` throws for `digits` (each die's sides and
/// place value, in throwing order).
#[inline(always)]
pub(super) fn index(digits: &[(u32, u32)], die: &mut impl FnMut(u32) -> u32) -> u32 {
    match digits.len() {
        1 => fixed::<1>(digits.try_into().expect("1 digit"), die),
        2 => fixed::<2>(digits.try_into().expect("2 digits"), die),
        3 => fixed::<3>(digits.try_into().expect("3 digits"), die),
        4 => fixed::<4>(digits.try_into().expect("4 digits"), die),
        5 => fixed::<5>(digits.try_into().expect("5 digits"), die),
        6 => fixed::<6>(digits.try_into().expect("6 digits"), die),
        _ => looped(digits, die),
    }
}

/// [`index`] over `N` digits, unrolled: for a caller that knows its
/// length when compiled, without the branch that chooses it.
#[inline(always)]
pub(super) fn fixed<const N: usize>(
    digits: &[(u32, u32); N],
    die: &mut impl FnMut(u32) -> u32,
) -> u32 {
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

    /// The place values number every roll of the pool once: the last
    /// die's weight is 1, each other's the sides after it multiplied, and
    /// the faces read back from each number are the ones that make it.
    #[test]
    fn the_place_values_number_every_roll_once() {
        let (digits, rolls) = place_values([10, 8, 6].into_iter());
        assert_eq!(digits, vec![(10, 48), (8, 6), (6, 1)]);
        assert_eq!(rolls, 480);
        for number in 0..rolls {
            let faces: Vec<u32> = digits.iter().map(|&(s, w)| number / w % s).collect();
            let mut faces_left = faces.iter();
            let again = index(&digits, &mut |_| {
                *faces_left.next().expect("one face a die")
            });
            assert_eq!(again, number, "faces {faces:?}");
        }
        assert_eq!(place_values(std::iter::empty()), (vec![], 1));
    }

    /// Every length, unrolled or not, reads the index the loop reads from
    /// the same dice, and leaves the stream where the loop leaves it.
    #[test]
    fn the_unrolled_index_is_the_loop() {
        let sides = [12, 4, 10, 6, 8, 12, 6];
        for len in 0..=sides.len() {
            let (digits, _) = place_values(sides[..len].iter().copied());
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
