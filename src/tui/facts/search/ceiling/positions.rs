//! Where a word's characters occur in a text: bit sets of its positions, 64 at a time.

use super::classes::JOKER;

/// For each character `c` of `chars` (compared without case when it is a lower-case
/// letter and `fold`), the positions of `h` that match it, as bit sets of `blocks` words
/// each, one after the other in `out`; a joker matches every character.
pub(super) fn positions(h: &[u8], chars: &[u8], fold: bool, out: &mut [u64], blocks: usize) {
    for (bi, block) in h.chunks(64).enumerate() {
        let mut b64 = [0u8; 64];
        b64[..block.len()].copy_from_slice(block);
        let valid = if block.len() == 64 {
            u64::MAX
        } else {
            (1u64 << block.len()) - 1
        };
        block_masks(&b64, chars, fold, |d, bits| {
            out[d * blocks + bi] = bits & valid;
        });
    }
}

/// [`positions`] of one block of 64 bytes: `put(d, bits)` for the `d`-th character.
#[cfg(target_arch = "x86_64")]
fn block_masks(b64: &[u8; 64], chars: &[u8], fold: bool, mut put: impl FnMut(usize, u64)) {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let join = |m: [i32; 4]| {
        m.iter()
            .enumerate()
            .fold(0u64, |acc, (k, &x)| acc | (u64::from(x as u16) << (16 * k)))
    };
    // SAFETY: SSE2 is part of x86_64 (the intrinsics need no feature check), and each
    // load reads 16 of the 64 bytes of `b64`.
    unsafe {
        let v: [__m128i; 4] =
            std::array::from_fn(|k| _mm_loadu_si128(b64.as_ptr().add(16 * k).cast()));
        let joker = _mm_set1_epi8(JOKER as i8);
        let jokers = join(v.map(|x| _mm_movemask_epi8(_mm_cmpeq_epi8(x, joker))));
        // A lower-case letter matches itself and its capital: `b | 0x20` maps exactly
        // those two bytes to it.
        let lowered = v.map(|x| _mm_or_si128(x, _mm_set1_epi8(0x20)));
        for (d, &c) in chars.iter().enumerate() {
            let from = if fold && c.is_ascii_lowercase() {
                &lowered
            } else {
                &v
            };
            let cc = _mm_set1_epi8(c as i8);
            let eq = from.map(|x| _mm_movemask_epi8(_mm_cmpeq_epi8(x, cc)));
            put(d, jokers | join(eq));
        }
    }
}

/// [`positions`] of one block of 64 bytes: `put(d, bits)` for the `d`-th character.
#[cfg(not(target_arch = "x86_64"))]
fn block_masks(b64: &[u8; 64], chars: &[u8], fold: bool, mut put: impl FnMut(usize, u64)) {
    let mut jokers = 0u64;
    for (i, &b) in b64.iter().enumerate() {
        jokers |= u64::from(b == JOKER) << i;
    }
    for (d, &c) in chars.iter().enumerate() {
        let fold = fold && c.is_ascii_lowercase();
        let mut bits = jokers;
        for (i, &b) in b64.iter().enumerate() {
            let x = if fold { b | 0x20 } else { b };
            bits |= u64::from(x == c) << i;
        }
        put(d, bits);
    }
}

/// Call `f` with the positions from `from` on whose bit is set in `mask`, in order.
#[inline]
pub(super) fn each_bit(mask: &[u64], from: usize, mut f: impl FnMut(usize)) {
    for (bi, &m) in mask.iter().enumerate().skip(from / 64) {
        let mut bits = if bi == from / 64 {
            m & (u64::MAX << (from % 64))
        } else {
            m
        };
        while bits != 0 {
            f(bi * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}
