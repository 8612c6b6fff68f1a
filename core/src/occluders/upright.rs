//! The commonest occluder is a box turned only about the vertical (a wall, a crate, a house). For
//! it a ray gets a quick verdict in the box's own frame: certainly blocked, certainly clear, or
//! too close to the surface to tell, and only then parry3d's exact test. The verdicts allow a
//! margin hundreds of times wider than the f32 rounding of either computation at the coordinates
//! involved, so a certain verdict is parry3d's answer: blocked means a hit after the origin and
//! within the length (a ray from inside a box is not blocked by it, as `cast_ray` with `toi > 0`).

use parry3d::math::Pose;
use parry3d::shape::Cuboid;

use glam::Vec3A;

use crate::math::Vec3;

/// A box whose local up is the world's up, in the terms of its footprint.
#[derive(Copy, Clone, Debug)]
pub(crate) struct UprightBox {
    center: Vec3,
    /// The box's local x and z axes on the ground (their x and z components).
    x_axis: [f32; 2],
    z_axis: [f32; 2],
    half: Vec3,
    /// The part of the margin set by the box's own size and place.
    margin: f32,
}

/// What a ray certainly does at a box, if anything.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Blocked,
    Clear,
    Unsure,
}

/// Relative size of the margin: f32 rounding is ~1.2e-7 of the magnitudes involved, and a few
/// roundings stack up in either computation.
const RELATIVE_MARGIN: f32 = 2e-5;

impl UprightBox {
    /// The box's footprint frame, if its rotation keeps its local up on the world's up.
    pub fn of(cuboid: &Cuboid, pose: &Pose) -> Option<UprightBox> {
        let r = glam::Mat3::from_quat(pose.rotation);
        let tilt = r.x_axis.y.abs().max(r.z_axis.y.abs()).max(r.y_axis.x.abs()).max(r.y_axis.z.abs());
        if tilt > 1e-6 {
            return None;
        }
        let (center, half) = (pose.translation, cuboid.half_extents);
        Some(UprightBox {
            center,
            x_axis: [r.x_axis.x, r.x_axis.z],
            z_axis: [r.z_axis.x, r.z_axis.z],
            half,
            // The tilt allowed above moves a corner by at most tilt × its distance from the centre.
            margin: 1e-4 + RELATIVE_MARGIN * (center.abs().max_element() + half.max_element()) + 4e-6 * half.length(),
        })
    }

    /// The verdict on the unit ray from `origin` along `dir` for `length`.
    #[inline]
    pub fn verdict(&self, origin: Vec3, dir: Vec3, length: f32) -> Verdict {
        self.verdict_at(origin, dir, length).0
    }

    /// [`UprightBox::verdict`], with (when `Blocked`) where the ray enters the box (a recording's
    /// Why; `verdict` never computes it).
    #[inline(always)]
    pub fn verdict_at(&self, origin: Vec3, dir: Vec3, length: f32) -> (Verdict, f32) {
        let m = self.margin + RELATIVE_MARGIN * (origin.abs().max_element() + length);
        let to = origin - self.center;
        let ([xa, xb], [za, zb]) = (self.x_axis, self.z_axis);
        let o = Vec3A::new(to.x * xa + to.z * xb, to.y, to.x * za + to.z * zb);
        let d = Vec3A::new(dir.x * xa + dir.z * xb, dir.y, dir.x * za + dir.z * zb);
        // A direction (almost) parallel to a face gets a huge inverse: its slab is then all of
        // the line or none of it, as parry3d's own test of a zero component.
        let inv = Vec3A::select(d.abs().cmplt(Vec3A::splat(1e-9)), Vec3A::splat(1e30).copysign(d), d.recip());
        let half = Vec3A::from(self.half);
        let inside = |grow: f32| o.abs().cmplt(half + grow).all();
        // Where the ray enters and leaves the box grown by `grow`, within `length`.
        let span = |grow: f32| {
            let (t1, t2) = ((-half - grow - o) * inv, (half + grow - o) * inv);
            (t1.min(t2).max_element().max(0.0), t1.max(t2).min_element().min(length))
        };
        let meets = |(enter, exit): (f32, f32)| enter <= exit;
        if inside(-m) || !meets(span(m)) {
            // Starts well inside (a box does not block its own inside), or passes well clear.
            return (Verdict::Clear, 0.0);
        }
        let shrunk = span(-m);
        if !inside(m) && half.min_element() > m && meets(shrunk) {
            return (Verdict::Blocked, span(0.0).0);
        }
        (Verdict::Unsure, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use parry3d::query::{Ray, RayCast};

    use super::*;
    use crate::math::Quat;
    use crate::test_rng::Xorshift;

    /// Every certain verdict is parry3d's answer, above all for rays made to graze: aimed at
    /// corners, edges and faces with tiny offsets, level with the top face, starting on a face,
    /// ending at the surface; at small and huge coordinates. Random rays are mostly decided.
    #[test]
    fn a_certain_verdict_is_always_parry3ds_answer() {
        let mut rng = Xorshift(0x853c_49e6_748f_ea9bu64);
        let mut rand = move |lo: f32, hi: f32| rng.range(lo, hi);
        let (mut decided, mut random_rays, mut random_decided) = (0u32, 0u32, 0u32);
        for case in 0..200_000 {
            let scale = [1.0, 50.0, 1e3, 1e5][case % 4];
            let half = Vec3::new(rand(0.05, 4.0), rand(0.05, 4.0), rand(0.05, 4.0));
            let center = Vec3::new(rand(-scale, scale), rand(-2.0, 5.0), rand(-scale, scale));
            let yaw = [0.0, std::f32::consts::FRAC_PI_2, rand(0.0, 6.3)][case % 3];
            let pose = Pose::from_parts(center, Quat::from_rotation_y(yaw));
            let cuboid = Cuboid::new(half);
            let upright = UprightBox::of(&cuboid, &pose).expect("a yaw-only box is upright");
            // A point on the surface (corner, edge or face), in world space.
            let mut local = Vec3::new(rand(-1.0, 1.0), rand(-1.0, 1.0), rand(-1.0, 1.0));
            let pinned = (case / 4) % 4; // how many coordinates sit on a face: 0 = inside
            for i in 0..pinned.min(3) {
                local[i] = local[i].signum();
            }
            let on_box = pose.rotation * (local * half) + center;
            let nudge = [0.0, 1e-6, 1e-4, 1e-2][(case / 16) % 4];
            let (origin, dir, length) = match case % 5 {
                // Through the chosen point from outside, ending beyond, at, or short of it.
                0 | 1 => {
                    let from = on_box + Vec3::new(rand(-12.0, 12.0), rand(-3.0, 3.0), rand(-12.0, 12.0));
                    let to = on_box + Vec3::new(rand(-nudge, nudge), rand(-nudge, nudge), rand(-nudge, nudge));
                    let d = (to - from).normalize_or(Vec3::X);
                    let along = (to - from).length();
                    (from, d, along * [1.5, 1.0, 1.0 - 1e-6, 0.5][(case / 64) % 4])
                }
                // Level with the top face (or the bottom), across the box.
                2 => {
                    let y = center.y + half.y * [1.0, -1.0][(case / 5) % 2] + rand(-nudge, nudge);
                    let from = Vec3::new(on_box.x + rand(-10.0, 10.0), y, on_box.z + rand(-10.0, 10.0));
                    let d = Vec3::new(rand(-1.0, 1.0), 0.0, rand(-1.0, 1.0)).normalize_or(Vec3::X);
                    (from, d, rand(0.0, 25.0))
                }
                // Starting on (or just off) the surface.
                3 => {
                    let d = Vec3::new(rand(-1.0, 1.0), rand(-0.3, 0.3), rand(-1.0, 1.0)).normalize_or(Vec3::Z);
                    (on_box + d * rand(-nudge, nudge), d, rand(0.0, 20.0))
                }
                // Anywhere near.
                _ => {
                    random_rays += (scale <= 1e3) as u32;
                    let from = center + Vec3::new(rand(-15.0, 15.0), rand(-2.0, 4.0), rand(-15.0, 15.0));
                    let d = Vec3::new(rand(-1.0, 1.0), rand(-0.2, 0.2), rand(-1.0, 1.0)).normalize_or(Vec3::X);
                    (from, d, rand(0.0, 20.0))
                }
            };
            let ray = Ray::new(origin, dir);
            let truth = cuboid.cast_ray(&pose, &ray, length, true).is_some_and(|toi| toi > 0.0);
            let verdict = upright.verdict(origin, dir, length);
            if verdict != Verdict::Unsure {
                decided += 1;
                random_decided += (case % 5 == 4 && scale <= 1e3) as u32;
                assert_eq!(verdict == Verdict::Blocked, truth, "case {case}: {verdict:?} but parry3d says {truth}");
            }
        }
        assert!(decided > 100_000, "only {decided} verdicts were certain");
        // At 1e5 m the margin is metres wide, so far-away levels mostly fall back to parry3d.
        assert!(random_decided * 100 > random_rays * 97, "{random_decided} of {random_rays} random rays decided");
    }

    #[test]
    fn a_tilted_box_gets_no_quick_verdict() {
        let pose = Pose::from_parts(Vec3::ZERO, Quat::from_rotation_x(0.01));
        assert!(UprightBox::of(&Cuboid::new(Vec3::ONE), &pose).is_none());
        let pose = Pose::from_parts(Vec3::ZERO, Quat::from_rotation_y(1.0));
        assert!(UprightBox::of(&Cuboid::new(Vec3::ONE), &pose).is_some());
    }
}
