//! Four occluders' bounds side by side, so a ray tests four in one pass of SIMD slab arithmetic
//! with no branch per occluder: the occluder grid's cells are runs of quads.

use glam::{Vec3A, Vec4};

use super::grid::GridOccluder;
use crate::math::Vec3;

/// Four occluders' bounds, one per lane: `lo[axis]` and `hi[axis]` hold the lanes' minimum and
/// maximum along x, y and z. A lane left empty holds a point far beyond any accepted coordinate,
/// which no ray reaches (its layers are all set, so they never spoil `shared_layers`).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Quad {
    lo: [Vec4; 3],
    hi: [Vec4; 3],
    ranks: [u32; 4],
    layers: [u32; 4],
    /// The layer bits every lane has: a ray on any of them needs no lane-by-lane layer test
    /// (the common case of a level on one layer).
    shared_layers: u32,
}

impl Default for Quad {
    fn default() -> Self {
        Quad {
            lo: [Vec4::splat(1e30); 3],
            hi: [Vec4::splat(1e30); 3],
            ranks: [0; 4],
            layers: [u32::MAX; 4],
            shared_layers: u32::MAX,
        }
    }
}

impl Quad {
    fn set(&mut self, lane: usize, o: &GridOccluder) {
        for axis in 0..3 {
            self.lo[axis][lane] = o.mins[axis];
            self.hi[axis][lane] = o.maxs[axis];
        }
        self.ranks[lane] = o.id;
        self.layers[lane] = o.layers;
        self.shared_layers &= o.layers;
    }
}

/// A ray as the slab test reads it: origin and inverse direction splatted across the lanes.
pub(crate) struct SlabRay {
    origin: [Vec4; 3],
    inv: [Vec4; 3],
    pub length: f32,
    layers: u32,
}

impl SlabRay {
    /// `dir` must be a unit vector (each component is kept away from zero before inverting, so
    /// no slab distance is NaN).
    pub fn new(origin: Vec3, dir: Vec3, length: f32, layers: u32) -> SlabRay {
        // Per component, in one register: as `|d| < ε → ±ε`, then `1 / d`.
        let d = Vec3A::from(dir);
        let tiny = d.abs().cmplt(Vec3A::splat(f32::EPSILON));
        let inv = Vec3A::ONE / Vec3A::select(tiny, Vec3A::splat(f32::EPSILON).copysign(d), d);
        SlabRay {
            origin: [Vec4::splat(origin.x), Vec4::splat(origin.y), Vec4::splat(origin.z)],
            inv: [Vec4::splat(inv.x), Vec4::splat(inv.y), Vec4::splat(inv.z)],
            length,
            layers,
        }
    }

    /// Lanes whose bounds (`lo`, `hi`) the ray meets within its length (a bit each).
    #[inline(always)]
    fn slabs(&self, lo: &[Vec4; 3], hi: &[Vec4; 3]) -> u32 {
        let (mut enter, mut exit) = (Vec4::ZERO, Vec4::splat(self.length));
        for axis in 0..3 {
            let t1 = (lo[axis] - self.origin[axis]) * self.inv[axis];
            let t2 = (hi[axis] - self.origin[axis]) * self.inv[axis];
            enter = enter.max(t1.min(t2));
            exit = exit.min(t1.max(t2));
        }
        enter.cmple(exit).bitmask()
    }

    /// True if the ray meets one occluder's bounds, on its layers: the same arithmetic as a
    /// lane of a quad, so the same answer.
    #[inline]
    pub fn meets_one(&self, o: &GridOccluder) -> bool {
        let splat = |v: Vec3| [Vec4::splat(v.x), Vec4::splat(v.y), Vec4::splat(v.z)];
        o.layers & self.layers != 0 && self.slabs(&splat(o.mins), &splat(o.maxs)) & 1 != 0
    }

    /// Lanes of `quad` whose bounds the ray meets within its length, on its layers (a bit each).
    #[inline(always)]
    fn meets(&self, quad: &Quad) -> u32 {
        let mut lanes = self.slabs(&quad.lo, &quad.hi);
        if quad.shared_layers & self.layers != 0 {
            return lanes;
        }
        // Layers last: most lanes already failed, and those left are few.
        let mut left = lanes;
        while left != 0 {
            let lane = left.trailing_zeros();
            left &= left - 1;
            if quad.layers[lane as usize] & self.layers == 0 {
                lanes &= !(1 << lane);
            }
        }
        lanes
    }

    /// Calls `exact` with the rank of each occluder in `quads` whose bounds the ray meets, until
    /// one returns true (blocked). Returns whether one did.
    #[inline(always)]
    pub fn any(&self, quads: &[Quad], exact: &mut impl FnMut(u32) -> bool) -> bool {
        for quad in quads {
            let mut lanes = self.meets(quad);
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                if exact(quad.ranks[lane]) {
                    return true;
                }
            }
        }
        false
    }
}

/// Appends `run` four occluders to a quad.
pub(crate) fn pack(run: &[GridOccluder], quads: &mut Vec<Quad>) {
    for four in run.chunks(4) {
        let mut quad = Quad::default();
        for (lane, o) in four.iter().enumerate() {
            quad.set(lane, o);
        }
        quads.push(quad);
    }
}
