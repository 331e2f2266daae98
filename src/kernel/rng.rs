//! xoroshiro128+ as Numba's `numba.cuda.random` defines it: SplitMix64 seeding (both state
//! words get the same value), 2**64-step jumps between per-thread states, and the same
//! uint64 → float conversions and Box-Muller draws, so seeded results match Numba's.

const JUMP: [u64; 2] = [0xbeac0467eba5facb, 0xd86b048b86aa9922];

/// Advance a state and return the next raw 64-bit output.
pub fn next(s: &mut [u64; 2]) -> u64 {
    let (s0, mut s1) = (s[0], s[1]);
    let result = s0.wrapping_add(s1);
    s1 ^= s0;
    s[0] = s0.rotate_left(55) ^ s1 ^ (s1 << 14);
    s[1] = s1.rotate_left(36);
    result
}

/// SplitMix64 of the seed, used for both state words.
pub fn seed_state(seed: u64) -> [u64; 2] {
    let mut z = seed.wrapping_add(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    z ^= z >> 31;
    [z, z]
}

/// Advance by 2**64 steps.
pub fn jump(s: &mut [u64; 2]) {
    let (mut a, mut b) = (0u64, 0u64);
    for j in JUMP {
        for bit in 0..64 {
            if j & (1u64 << bit) != 0 {
                a ^= s[0];
                b ^= s[1];
            }
            next(s);
        }
    }
    *s = [a, b];
}

/// The states `create_xoroshiro128p_states(n, seed, subsequence_start)` produces.
pub fn init_states(n: usize, seed: u64, subsequence_start: u64) -> Vec<[u64; 2]> {
    let mut out = Vec::with_capacity(n); // bounded: tests and small launches only
    for_each_state(n, seed, subsequence_start, |_, s| {
        out.push(s);
        true
    });
    out
}

/// Call `f(i, state)` for the `n` states of [`init_states`] in order, without holding
/// them; stops (false) as soon as `f` returns false, also during the skip to
/// `subsequence_start`, so a caller watching for interrupts can end a long walk.
pub fn for_each_state(
    n: usize,
    seed: u64,
    subsequence_start: u64,
    mut f: impl FnMut(usize, [u64; 2]) -> bool,
) -> bool {
    if n == 0 {
        return true;
    }
    let mut s = seed_state(seed);
    for k in 0..subsequence_start {
        jump(&mut s);
        if k % 65_536 == 65_535 && !f(usize::MAX, s) {
            return false;
        }
    }
    for i in 0..n {
        if i > 0 {
            jump(&mut s);
        }
        if !f(i, s) {
            return false;
        }
    }
    true
}

fn unit_f64(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

pub fn uniform_f64(s: &mut [u64; 2]) -> f64 {
    unit_f64(next(s))
}
pub fn uniform_f32(s: &mut [u64; 2]) -> f32 {
    unit_f64(next(s)) as f32
}
pub fn normal_f32(s: &mut [u64; 2]) -> f32 {
    let u1 = uniform_f32(s);
    let u2 = uniform_f32(s);
    let two_pi = (2.0 * std::f64::consts::PI) as f32;
    (-2.0f32 * u1.ln()).sqrt() * (two_pi * u2).cos()
}
/// Numba draws the float64 normal from two float32 uniforms too.
pub fn normal_f64(s: &mut [u64; 2]) -> f64 {
    let u1 = uniform_f32(s) as f64;
    let u2 = uniform_f32(s) as f64;
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_jumps_apart() {
        let st = init_states(3, 42, 0);
        let mut s = seed_state(42);
        assert_eq!(st[0], s);
        jump(&mut s);
        assert_eq!(st[1], s);
        let mut x = st[0];
        for _ in 0..1000 {
            let u = uniform_f64(&mut x);
            assert!((0.0..1.0).contains(&u));
        }
    }
}
