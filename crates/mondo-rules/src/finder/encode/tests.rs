use super::*;
use crate::finder::Limits;
use crate::finder::search::{Search, push};
use crate::koan::Size;
use crate::lang::ast::CmpOp;

/// The pitfall of rustsat's cardinality encodings: an output only means
/// "sum >= k" when both halves are encoded around k. Every output we hand out must
/// be forced both ways by every assignment of the inputs, also when the same
/// totalizer was extended for other bounds first (in any order).
#[test]
fn count_outputs_are_defined_in_both_directions() {
    for n in 2..=6usize {
        let mut search = Search::new(PieceSet::Arrows, &Limits::default());
        let inputs: Vec<Lit> = (0..n).map(|_| search.enc.new_lit()).collect();
        // Bounds requested out of order, duplicates included.
        let order: Vec<i128> = (2..n as i128).rev().chain(2..n as i128).collect();
        let outputs: Vec<(i128, G)> = order
            .iter()
            .map(|&k| (k, search.enc.at_least(inputs.clone(), k).unwrap()))
            .collect();
        for bits in 0..(1u32 << n) {
            let fixed: Vec<Lit> = inputs
                .iter()
                .enumerate()
                .map(|(i, &l)| if bits & (1 << i) != 0 { l } else { !l })
                .collect();
            let count = bits.count_ones() as i128;
            for &(k, g) in &outputs {
                for value in [true, false] {
                    let mut a = fixed.clone();
                    let possible = push(&mut a, if value { g } else { !g })
                        && search.find(&a).unwrap().is_some();
                    assert_eq!(possible, value == (count >= k), "n={n} k={k} bits={bits:b}");
                }
            }
        }
    }
}

/// Canonical forms: the same comparison written two ways is one literal.
#[test]
fn opposite_phrasings_of_a_comparison_share_a_literal() {
    let mut e = Encoder::new(PieceSet::Pyramids, 1 << 20, None);
    let small = e.mask_of(|p| p.size == Size::Small);
    let large = e.mask_of(|p| p.size == Size::Large);
    let count = |e: &mut Encoder, m: u16| {
        let mut l = Lin::default();
        for i in 0..MAX_CELLS {
            let g = e.cell_has(i, m);
            l.add_g(g, 1);
        }
        l
    };
    let (s, l) = (count(&mut e, small), count(&mut e, large));
    let more_small = e.compare(CmpOp::Gt, &s.clone().scaled_add(&l, -1)).unwrap();
    let fewer_large = e.compare(CmpOp::Lt, &l.clone().scaled_add(&s, -1)).unwrap();
    let not_at_most = !e.compare(CmpOp::Le, &s.clone().scaled_add(&l, -1)).unwrap();
    assert_eq!(more_small, fewer_large);
    assert_eq!(more_small, not_at_most);
}
