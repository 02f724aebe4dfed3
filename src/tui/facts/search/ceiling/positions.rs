//! Where a word's characters occur in a text: bit sets of its positions, 64 at a time.

use super::classes::JOKER;

/// The positions of `h` that match `c` (compared without case when it is a lower-case
/// letter and `fold`), as a bit set of `out.len()` words (`h.len()` bits at most); a
/// joker matches every character. The words before `from` (blocks of 64 positions) are
/// left as they are.
pub(super) fn positions_of(h: &[u8], c: u8, fold: bool, from: usize, out: &mut [u64]) {
    let fold = fold && c.is_ascii_lowercase();
    for (bi, block) in h.chunks(64).enumerate().skip(from) {
        let bits = if block.len() == 64 {
            let b64: &[u8; 64] = block.try_into().expect("64 bytes");
            block_mask(b64, c, fold)
        } else {
            let mut b64 = [0u8; 64];
            b64[..block.len()].copy_from_slice(block);
            block_mask(&b64, c, fold) & ((1u64 << block.len()) - 1)
        };
        out[bi] = bits;
    }
}

/// [`positions_of`] for one block of 64 bytes.
#[cfg(target_arch = "x86_64")]
#[inline]
fn block_mask(b64: &[u8; 64], c: u8, fold: bool) -> u64 {
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
        let cc = _mm_set1_epi8(c as i8);
        // A lower-case letter matches itself and its capital: `b | 0x20` maps exactly
        // those two bytes to it.
        let eq = v.map(|x| {
            let from = if fold {
                _mm_or_si128(x, _mm_set1_epi8(0x20))
            } else {
                x
            };
            _mm_movemask_epi8(_mm_or_si128(
                _mm_cmpeq_epi8(from, cc),
                _mm_cmpeq_epi8(x, joker),
            ))
        });
        join(eq)
    }
}

/// [`positions_of`] for one block of 64 bytes.
#[cfg(not(target_arch = "x86_64"))]
fn block_mask(b64: &[u8; 64], c: u8, fold: bool) -> u64 {
    let mut bits = 0u64;
    for (i, &b) in b64.iter().enumerate() {
        let x = if fold { b | 0x20 } else { b };
        bits |= u64::from(x == c || b == JOKER) << i;
    }
    bits
}

/// The positions from `from` on whose bit is set in `mask`, in order.
#[inline]
pub(super) fn bits_from(mask: &[u64], from: usize) -> Bits<'_> {
    let bi = from / 64;
    let bits = mask.get(bi).map_or(0, |&m| m & (u64::MAX << (from % 64)));
    Bits { mask, bi, bits }
}

/// See [`bits_from`].
pub(super) struct Bits<'a> {
    mask: &'a [u64],
    bi: usize,
    bits: u64,
}

impl Iterator for Bits<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.bi += 1;
            self.bits = *self.mask.get(self.bi)?;
        }
        let j = self.bi * 64 + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(j)
    }
}
