//! Why an agent sees a target or not: per check point, the first test that failed and by how
//! much (distance over the radius, angle past the half-angle, the occluder hit and where), from
//! the same classification as `can_see` and the step's sweep. The FRAME's Why section.

use std::collections::{HashMap, HashSet};

use super::Recorder;
use super::writer::Writer;
use crate::agent::Agent;
use crate::error::Result;
use crate::id::{AgentId, OccluderId, TargetId};
use crate::math::Vec3;
use crate::rays::{RayHit, RayQuery};
use crate::sight::{PointStage, PointStatus, SightFilter, View, classify_points};
use crate::target::{MAX_CHECK_POINTS, Target};
use crate::world::World;

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

fn angle_deg(forward: Vec3, to: Vec3) -> f32 {
    let len = to.length();
    if len <= 1e-4 { 0.0 } else { (forward.dot(to) / len).clamp(-1.0, 1.0).acos().to_degrees() }
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

/// Who answers the explanation's rays: the world's occluders, or a step's engine answers for
/// this pair (in the order its rays were cast).
enum Answers<'a> {
    Builtin,
    Engine(&'a [RayHit]),
}

impl World {
    /// Why `agent` sees `target` or not, now: [`World::can_see`]'s answer point by point, with
    /// the numbers behind it. Always agrees with `can_see` (the same classification). In an
    /// engine-ray world the built-in occluders (usually none) answer the rays.
    pub fn explain_sight(&self, agent: AgentId, target: TargetId) -> Result<SightExplanation> {
        let (a, t) = (self.agent(agent)?, self.target(target)?);
        let previously = SightFilter::of(a).previously_seen(a, target);
        Ok(self.explain(a, (agent, target), t, previously, Answers::Builtin))
    }

    fn explain(&self, a: &Agent, ids: (AgentId, TargetId), t: &Target, previously: bool, answers: Answers) -> SightExplanation {
        let s = &a.tuning.sight;
        let eye = a.eye();
        let to = t.position() - eye;
        let mut e = SightExplanation { eye, distance: to.length(), angle_deg: angle_deg(a.forward, to), ..Default::default() };
        let half = |angle: f32| (angle * 0.5).min(180.0);
        let main_r = if previously { s.view_radius.max(s.lose_sight_radius) } else { s.view_radius };
        let per_r = s.peripheral_radius;
        let (in_main, in_per) = (e.distance <= main_r, per_r > 0.0 && e.distance <= per_r);
        let use_per = if in_main || in_per { in_per && (!in_main || e.angle_deg > half(s.view_angle)) } else { per_r > main_r };
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
        } else if t.layers() & s.target_mask == 0 {
            SightFilterReason::Layers
        } else if !filter.admits(&self.attitudes, t.layers(), t.team() as u8) {
            SightFilterReason::Attitude
        } else {
            SightFilterReason::None
        };
        if e.filter != SightFilterReason::None {
            e.points[..n].iter_mut().for_each(|p| p.status = PointStatus::Filtered);
            e.verdict = PointStatus::Filtered;
            return e;
        }
        let view = View::looking(eye, a.forward, &a.tuning, previously);
        let mut rays: Vec<RayQuery> = Vec::with_capacity(MAX_CHECK_POINTS);
        let mut ray_points = [usize::MAX; MAX_CHECK_POINTS];
        let points = &mut e.points;
        classify_points(&view, ids, s.obstacle_mask, t.world_points(), &mut rays, |k, stage| {
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
            let hit = match &answers {
                Answers::Builtin => self.occluders.cast_ray_hit(q.origin, q.direction, q.max_distance, q.layer_mask),
                Answers::Engine(hits) => {
                    hits.get(ray).filter(|h| h.hit).map(|h| (OccluderId::NULL, h.distance))
                }
            };
            if let Some((occluder, distance)) = hit {
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

/// The Why section: for every agent in focus whose sight ticked, every target within 1.5 × its
/// largest sight radius, explained as the step decided (the lose-sight radius as of before the
/// tick; an engine step's own answers).
pub(crate) fn write_why(world: &World, rec: &Recorder, engine: Option<&[RayHit]>, w: &mut Writer) {
    let count_at = w.len();
    w.u32(0);
    if !rec.explain {
        return;
    }
    let changed: HashSet<(AgentId, TargetId)> =
        world.events.sight_changes.iter().map(|c| (c.agent, c.target)).collect();
    // An engine step's rays per pair (cast contiguously, in point order).
    let mut engine_rays: HashMap<(AgentId, TargetId), (usize, usize)> = HashMap::new();
    if engine.is_some() {
        for (i, r) in world.last_step_rays().iter().enumerate() {
            engine_rays.entry((r.agent, r.target)).and_modify(|e| e.1 = i + 1).or_insert((i, i + 1));
        }
    }
    let mut count = 0u32;
    for (aid, a) in world.agents() {
        if !rec.in_focus(aid) || !super::frame::ticked(rec, world, aid.index, a) {
            continue;
        }
        let s = &a.tuning.sight;
        let limit = 1.5 * s.view_radius.max(s.lose_sight_radius).max(s.peripheral_radius);
        let (eye, limit_sq) = (a.eye(), limit * limit);
        let hysteresis = SightFilter::of(a).has_hysteresis();
        for (tid, t) in world.targets() {
            if (t.position() - eye).length_squared() > limit_sq {
                continue;
            }
            let seen_now = crate::memory::find(&a.records, tid).is_some_and(|r| r.seen);
            let previously = hysteresis && (seen_now != changed.contains(&(aid, tid)));
            let answers = match engine {
                Some(hits) => {
                    let (from, to) = engine_rays.get(&(aid, tid)).copied().unwrap_or((0, 0));
                    Answers::Engine(hits.get(from..to).unwrap_or(&[]))
                }
                None => Answers::Builtin,
            };
            let e = world.explain(a, (aid, tid), t, previously, answers);
            write_record(w, aid, tid, &e);
            count += 1;
        }
    }
    w.bytes[count_at..count_at + 4].copy_from_slice(&count.to_le_bytes());
}

fn write_record(w: &mut Writer, agent: AgentId, target: TargetId, e: &SightExplanation) {
    w.id(agent.index, agent.generation);
    w.id(target.index, target.generation);
    w.u8(e.verdict as u8);
    w.u8(e.point_count);
    w.u8(e.filter as u8);
    w.u8(0);
    for v in [e.distance, e.radius, e.angle_deg, e.half_angle_deg] {
        w.f32(v);
    }
    for p in e.points() {
        w.u8(p.status as u8);
        w.bytes(&[0; 3]);
        w.f32(p.distance);
        w.f32(p.angle_deg);
        w.vec3(p.point);
        w.vec3(p.hit);
        w.id(p.occluder.index, p.occluder.generation);
    }
}
