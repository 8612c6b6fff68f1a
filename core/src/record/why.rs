//! Why an agent sees a target or not: per check point, the first test that failed and by how
//! much (distance over the radius, angle past the half-angle, the occluder hit and where), from
//! the same classification as `can_see` and the step's sweep. The FRAME's Why section.

use super::Focus;
use super::writer::Writer;
use crate::agent::Agent;
use crate::error::Result;
use crate::id::{AgentId, OccluderId, TargetId};
use crate::math::Vec3;

use crate::sight::{PointStage, PointStatus, SightFilter, View, classify_points};
use crate::target::{MAX_CHECK_POINTS, Target};
use crate::team::TeamSet;
use crate::world::{SightTrace, World};

/// Why a target was not tested at all.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum SightFilterReason {
    /// Not filtered: the points were tested.
    #[default]
    None = 0,
    /// The agent's sight is off.
    SightOff = 1,
    /// The target is disabled.
    TargetDisabled = 2,
    /// The target's layers are not in the agent's target mask.
    Layers = 3,
    /// The agent's team does not perceive the target's team (attitude and detect mask).
    Attitude = 4,
}

/// One check point's explanation.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct PointExplanation {
    /// The outcome, as [`crate::World::can_see`] reports it.
    pub status: PointStatus,
    /// The check point in world space.
    pub point: Vec3,
    /// Eye to point, in metres.
    pub distance: f32,
    /// Between the agent's forward and the point, in degrees (0 on the eye).
    pub angle_deg: f32,
    /// Where the ray stopped, when blocked.
    pub hit: Vec3,
    /// The occluder that blocked the ray (null when none, or when an engine answered it).
    pub occluder: OccluderId,
}

/// Why an agent sees a target or not, point by point. `verdict` is the best point's status;
/// `radius` and `half_angle_deg` are those of the cone that applied to the target's position
/// (the main one, with the lose-sight radius for a target seen at the last tick; the peripheral
/// one where only it reaches), so `distance - radius` and `angle_deg - half_angle_deg` say by
/// how much a test failed.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SightExplanation {
    /// The best point's status (Visible > Blocked > OutsideCone > OutOfRange; Filtered).
    pub verdict: PointStatus,
    /// At least one point is visible: exactly `can_see`'s `seen`.
    pub seen: bool,
    /// Why the target was filtered out before any geometry, if it was.
    pub filter: SightFilterReason,
    /// The agent's eye.
    pub eye: Vec3,
    /// Eye to the target's position.
    pub distance: f32,
    /// The radius that applied.
    pub radius: f32,
    /// Between the agent's forward and the target's position, in degrees.
    pub angle_deg: f32,
    /// The half-angle of the cone that applied, in degrees.
    pub half_angle_deg: f32,
    /// Per check point; the first `point_count` are meaningful.
    pub points: [PointExplanation; MAX_CHECK_POINTS],
    /// Number of check points of the target.
    pub point_count: u8,
}

impl SightExplanation {
    /// The target's check points' explanations.
    pub fn points(&self) -> &[PointExplanation] {
        &self.points[..self.point_count as usize]
    }
}

/// The angle between a unit `forward` and `to`, in degrees (0 for a zero `to`). The arc cosine
/// is a polynomial (Abramowitz & Stegun 4.4.46, error ≤ 2e-8 rad) of plain arithmetic: the same
/// bits on every platform, unlike the system's `acosf`, so a recording replays anywhere.
pub(crate) fn angle_deg(forward: Vec3, to: Vec3) -> f32 {
    let len = to.length();
    if len <= 1e-6 {
        return 0.0;
    }
    let c = (forward.dot(to) / len).clamp(-1.0, 1.0);
    let x = c.abs();
    const A: [f32; 8] = [
        std::f32::consts::FRAC_PI_2,
        -0.214_598_8,
        0.088_978_99,
        -0.050_174_3,
        0.030_891_88,
        -0.017_088_126,
        0.006_670_09,
        -0.001_262_491_1,
    ];
    let poly = A.iter().rev().fold(0.0f32, |acc, &a| acc * x + a);
    let acos = (1.0 - x).sqrt() * poly;
    let rad = if c >= 0.0 { acos } else { std::f32::consts::PI - acos };
    rad * (180.0 / std::f32::consts::PI)
}

fn rank(s: PointStatus) -> u8 {
    match s {
        PointStatus::Visible => 4,
        PointStatus::Blocked => 3,
        PointStatus::OutsideCone => 2,
        PointStatus::OutOfRange => 1,
        PointStatus::Filtered => 0,
    }
}

impl World {
    /// Why `agent` sees `target` or not, now: [`World::can_see`]'s answer point by point, with
    /// the numbers behind it. Always agrees with `can_see` (the same classification). In an
    /// engine-ray world the built-in occluders (usually none) answer the rays.
    pub fn explain_sight(&self, agent: AgentId, target: TargetId) -> Result<SightExplanation> {
        let (a, t) = (self.agent(agent)?, self.target(target)?);
        let previously = SightFilter::of(a).previously_seen(a, target);
        Ok(self.explain(a, (agent, target), t, previously))
    }

    /// The explanation with the lose-sight radius applying or not (`previously`).
    fn explain(&self, a: &Agent, ids: (AgentId, TargetId), t: &Target, previously: bool) -> SightExplanation {
        let s = &a.tuning.sight;
        let eye = a.eye();
        let to = t.position() - eye;
        let mut e =
            SightExplanation { eye, distance: to.length(), angle_deg: angle_deg(a.forward, to), ..Default::default() };
        let half = |angle: f32| (angle * 0.5).min(180.0);
        let main_r = if previously { s.view_radius.max(s.lose_sight_radius) } else { s.view_radius };
        let per_r = s.peripheral_radius;
        let (in_main, in_per) = (e.distance <= main_r, per_r > 0.0 && e.distance <= per_r);
        let use_per =
            if in_main || in_per { in_per && (!in_main || e.angle_deg > half(s.view_angle)) } else { per_r > main_r };
        (e.radius, e.half_angle_deg) =
            if use_per { (per_r, half(s.peripheral_angle)) } else { (main_r, half(s.view_angle)) };
        e.point_count = t.point_count;
        for (slot, p) in e.points.iter_mut().zip(t.world_points()) {
            slot.point = p;
            slot.distance = (p - eye).length();
            slot.angle_deg = angle_deg(a.forward, p - eye);
        }
        let n = t.point_count as usize;
        let filter = SightFilter::of(a);
        e.filter = if !s.enabled {
            SightFilterReason::SightOff
        } else if !t.enabled() {
            SightFilterReason::TargetDisabled
        } else {
            match filter.refusal(filter.perceived(&self.attitudes), t.layers(), TeamSet::of(t.team() as u8)) {
                0 => SightFilterReason::None,
                3 => SightFilterReason::Layers,
                _ => SightFilterReason::Attitude,
            }
        };
        if e.filter != SightFilterReason::None {
            e.points[..n].iter_mut().for_each(|p| p.status = PointStatus::Filtered);
            e.verdict = PointStatus::Filtered;
            return e;
        }
        let view = View::looking(eye, a.forward, &a.tuning, previously);
        let rays = &mut Vec::new();
        let mut ray_points = [usize::MAX; MAX_CHECK_POINTS];
        let points = &mut e.points;
        classify_points(&view, ids, s.obstacle_mask, t.world_points(), rays, |k, stage| {
            points[k].status = match stage {
                PointStage::OutOfRange => PointStatus::OutOfRange,
                PointStage::OutsideCone => PointStatus::OutsideCone,
                PointStage::Free => PointStatus::Visible,
                PointStage::Ray => {
                    ray_points[k] = 0;
                    PointStatus::Visible
                }
            };
        });
        let mut ray = 0;
        for (k, slot) in e.points[..n].iter_mut().enumerate() {
            if ray_points[k] == usize::MAX {
                continue;
            }
            let q = &rays[ray];
            if let Some((occluder, distance)) =
                self.occluders.cast_ray_hit(q.origin, q.direction, q.max_distance, q.layer_mask)
            {
                slot.status = PointStatus::Blocked;
                slot.hit = eye + q.direction * distance;
                slot.occluder = occluder;
            }
            ray += 1;
        }
        e.verdict = e.points[..n].iter().map(|p| p.status).max_by_key(|&s| rank(s)).unwrap_or_default();
        e.seen = e.points[..n].iter().any(|p| p.status == PointStatus::Visible);
        e
    }
}

/// The Why section (see `docs/recording.md`): for each agent in `focus` that ticked, in slot
/// order (`ticks`: slot, trace chunk, index in it), the pairs its sweep decided, from the step's
/// own traces (`trace(chunk)`). Reads no world: it runs on the recording's thread (`deferred`).
pub(crate) fn write_why<'t>(
    explain: bool,
    focus: &Focus,
    ticks: &[(u32, u32, u32)],
    trace: impl Fn(usize) -> Option<&'t SightTrace>,
    w: &mut Writer,
) {
    let count_at = w.len();
    w.u32(0);
    if !explain {
        return;
    }
    let mut count = 0u32;
    for &(slot, chunk, k) in ticks {
        let Some(trace) = trace(chunk as usize) else { continue };
        let agent = trace.agents[k as usize];
        let pairs = &trace.pairs[agent.first_pair as usize..agent.end_pair as usize];
        // (The sweep keeps pairs only for the agents in focus; a slot in focus may hold another
        // agent since.)
        if pairs.is_empty() || !focus.contains(AgentId { index: slot, generation: agent.generation }) {
            continue;
        }
        // The group's size, made in place: a word per pair and per blocked point.
        let words = 1 + pairs.len() + pairs.iter().map(|p| p.blocked as usize).sum::<usize>();
        let at = w.len();
        w.bytes.resize(at + 8 * words, 0);
        let mut out = w.bytes[at..].chunks_exact_mut(8);
        let mut put = |word: u64| out.next().expect("sized above").copy_from_slice(&word.to_le_bytes());
        put(slot as u64 | (pairs.len() as u64) << 32);
        for p in pairs {
            // target slot, point count, flags, statuses: one little-endian word.
            let head = p.target as u64 | (p.point_count as u64) << 32 | (p.flags as u64) << 40;
            put(head | (p.statuses as u64) << 48);
            let first = p.first_blocked as usize;
            for stop in &trace.blocked[first..first + p.blocked as usize] {
                put(stop.distance.to_bits() as u64 | (stop.occluder as u64) << 32);
            }
        }
        count += 1;
    }
    w.bytes[count_at..count_at + 4].copy_from_slice(&count.to_le_bytes());
}
