//! What the core's integration tests share: their deterministic random numbers.
// Each test crate uses some of these helpers, never all.
#![allow(dead_code)]

use argus_core::Vec3;

pub mod scenario;

/// A xorshift64 generator: seeded random levels without a dependency (the seed must not be 0).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `[lo, hi)`, in steps of a millionth of the range.
    pub fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() % 1_000_000) as f32 / 1_000_000.0
    }

    /// Uniform in `0..n`.
    pub fn n(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, p: f32) -> bool {
        self.f(0.0, 1.0) < p
    }

    /// A point on the ground within `r` of the origin along each axis.
    pub fn ground(&mut self, r: f32) -> Vec3 {
        Vec3::new(self.f(-r, r), 0.0, self.f(-r, r))
    }

    /// A horizontal unit direction.
    pub fn dir(&mut self) -> Vec3 {
        let a = self.f(0.0, std::f32::consts::TAU);
        Vec3::new(a.sin(), 0.0, a.cos())
    }
}
