//! Vision for the reference, as the lesson (§2–4) and the vision-cone card write it: range by
//! squared distance, then the cone by normalise + dot against cos(angle / 2), then a line-of-sight
//! ray from the eye that stops just short of the point, tested against every occluder in turn.
//!
//! The boundary slack argus documents (`BOUNDARY_EPSILON`) is applied the same way, so a point
//! exactly on the radius or the cone edge counts as inside, as the card asks.

use glam::Vec3;

use super::geometry::{RefOccluder, raycast};
use super::mind::RefId;

/// argus's `BOUNDARY_EPSILON`: relative slack on r², absolute slack on the cosine.
pub const BOUNDARY_SLACK: f32 = 1e-6;
/// The card's "stop before the target": rays end this far short of the check point.
pub const STOP_SHORT: f32 = 0.01;
/// The card's "on top of us": closer than this (squared) to the eye is seen without a ray.
pub const ON_EYE_SQ: f32 = 1e-8;

/// How close to a boundary a decision must come to be reported as "near" (see [`Near`]).
pub const RANGE_BAND: f32 = 1e-5; // relative, on r²
pub const CONE_BAND: f32 = 1e-5; // absolute, on the cosine
pub const RAY_BAND: f32 = 1e-4; // metres, hit distance vs ray length / point distance vs stop
pub const HEARING_BAND: f32 = 1e-5; // relative, on the hearing radius

/// A decision that came within a band of its boundary, where another correct float evaluation
/// order could decide the other way. The differential test only tolerates a disagreement in a step
/// where the reference recorded one of these.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Near {
    pub test: &'static str,
    /// Signed distance to the boundary in the test's own unit.
    pub margin: f32,
    /// What the decision was about (filled in by the world step).
    pub about: About,
}

/// The subject of a near-boundary decision.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum About {
    Unknown,
    /// A check point of this target.
    Target(RefId),
    /// The sound emitted at this position.
    Sound(Vec3),
}

/// One agent's eye, as sight needs it.
#[derive(Copy, Clone, Debug)]
pub struct Viewer {
    /// World-space eye position.
    pub eye: Vec3,
    /// Unit forward.
    pub forward: Vec3,
    pub view_radius: f32,
    /// Full cone width in degrees; 360 or more skips the cone test.
    pub view_angle: f32,
    /// Layers of occluders that block this eye.
    pub obstacle_mask: u32,
}

/// What happened to one check point.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum PointSight {
    OutOfRange,
    OutsideCone,
    /// An occluder is hit this far along the ray.
    Blocked(f32),
    Visible,
}

/// `v / |v|` (no zero check: callers rule out tiny vectors first).
pub fn unit(v: Vec3) -> Vec3 {
    v / v.length()
}

/// cos(θ / 2) for a full view angle θ in degrees, as the lesson computes it.
pub fn cos_half(view_angle: f32) -> f32 {
    (view_angle * 0.5 * (std::f32::consts::PI / 180.0)).cos()
}

/// `CanSeeTarget` for one point: range → cone → line of sight (the benchmark baseline).
pub fn see_point<'a, I>(viewer: &Viewer, point: Vec3, occluders: I) -> PointSight
where
    I: IntoIterator<Item = &'a RefOccluder> + Clone,
{
    sight(viewer, point, occluders, None)
}

/// [`see_point`], also recording decisions that fall within a band of their boundary. Costs a
/// second ray for a visible point (to find a surface just past the end of the ray).
pub fn see_point_noting<'a, I>(viewer: &Viewer, point: Vec3, occluders: I, near: &mut Vec<Near>) -> PointSight
where
    I: IntoIterator<Item = &'a RefOccluder> + Clone,
{
    sight(viewer, point, occluders, Some(near))
}

fn sight<'a, I>(viewer: &Viewer, point: Vec3, occluders: I, mut near: Option<&mut Vec<Near>>) -> PointSight
where
    I: IntoIterator<Item = &'a RefOccluder> + Clone,
{
    // 1) distance, squared.
    let to_point = point - viewer.eye;
    let sqr_dist = to_point.length_squared();
    let r2 = viewer.view_radius * viewer.view_radius * (1.0 + BOUNDARY_SLACK);
    note(&mut near, "range", r2 - sqr_dist, RANGE_BAND * r2.max(1e-6));
    if sqr_dist > r2 {
        return PointSight::OutOfRange;
    }
    // "On top of us": seen, no direction to speak of.
    note(&mut near, "on-eye", sqr_dist - ON_EYE_SQ, 0.5 * ON_EYE_SQ);
    if sqr_dist < ON_EYE_SQ {
        return PointSight::Visible;
    }
    // 2) angle: normalise, dot, compare with the cached cosine; 360° skips the test.
    let dist = sqr_dist.sqrt();
    let dir = to_point / dist;
    if viewer.view_angle < 360.0 {
        let cos_min = cos_half(viewer.view_angle) - BOUNDARY_SLACK;
        let cos_actual = viewer.forward.dot(dir);
        note(&mut near, "cone", cos_actual - cos_min, CONE_BAND);
        if cos_actual < cos_min {
            return PointSight::OutsideCone;
        }
    }
    // 3) line of sight: stop just short of the point; a point within the stop distance is seen.
    let far = dist - STOP_SHORT;
    note(&mut near, "stop-short", far, RAY_BAND);
    if far <= 0.0 {
        return PointSight::Visible;
    }
    match raycast(occluders.clone(), viewer.eye, dir, far, viewer.obstacle_mask) {
        Some(toi) => {
            note(&mut near, "ray-end", far - toi, RAY_BAND);
            PointSight::Blocked(toi)
        }
        None => {
            // A surface just past the end of the ray is as ambiguous as one just before it.
            if near.is_some() && raycast(occluders, viewer.eye, dir, far + RAY_BAND, viewer.obstacle_mask).is_some() {
                note(&mut near, "ray-end", -RAY_BAND, RAY_BAND);
            }
            PointSight::Visible
        }
    }
}

fn note(near: &mut Option<&mut Vec<Near>>, test: &'static str, margin: f32, band: f32) {
    if let Some(near) = near
        && margin.abs() <= band
    {
        near.push(Near { test, margin, about: About::Unknown });
    }
}

/// The lesson's hearing rule: heard iff distance ≤ loudness × sensitivity. Returns the percept
/// strength 1 − distance / radius (1 when the radius is 0 and the listener sits on the sound).
pub fn hear(listener: Vec3, sensitivity: f32, sound_position: Vec3, loudness: f32) -> Option<f32> {
    hearing(listener, sensitivity, sound_position, loudness, None)
}

/// [`hear`], also recording a distance within a band of the hearing radius.
pub fn hear_noting(
    listener: Vec3,
    sensitivity: f32,
    sound_position: Vec3,
    loudness: f32,
    near: &mut Vec<Near>,
) -> Option<f32> {
    hearing(listener, sensitivity, sound_position, loudness, Some(near))
}

fn hearing(
    listener: Vec3,
    sensitivity: f32,
    sound_position: Vec3,
    loudness: f32,
    mut near: Option<&mut Vec<Near>>,
) -> Option<f32> {
    let dist = listener.distance(sound_position);
    let hearing_radius = loudness * sensitivity;
    note(&mut near, "hearing", hearing_radius - dist, HEARING_BAND * hearing_radius.max(1.0));
    if dist <= hearing_radius {
        Some(if hearing_radius > 0.0 { 1.0 - dist / hearing_radius } else { 1.0 })
    } else {
        None
    }
}
