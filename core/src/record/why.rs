//! Why an agent sees a target or not: per check point, the first test that failed and by how
//! much (distance over the radius, angle past the half-angle, the occluder hit and where), from
//! the same classification as `can_see` and the step's sweep. The FRAME's Why section.

use std::collections::HashMap;

use super::Recorder;
use super::writer::{Rec, Writer};
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
        Ok(self.explain(a, (agent, target), t, previously, Answers::Builtin, &mut Vec::new()))
    }

    /// The explanation with the lose-sight radius applying or not (`previously`), the rays
    /// answered by `answers`; `rays` is scratch.
    fn explain(
        &self,
        a: &Agent,
        ids: (AgentId, TargetId),
        t: &Target,
        previously: bool,
        answers: Answers,
        rays: &mut Vec<RayQuery>,
    ) -> SightExplanation {
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
        rays.clear();
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
            let hit = match &answers {
                Answers::Builtin => self.occluders.cast_ray_hit(q.origin, q.direction, q.max_distance, q.layer_mask),
                Answers::Engine(hits) => hits.get(ray).filter(|h| h.hit).map(|h| (OccluderId::NULL, h.distance)),
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
/// tick; an engine step's own answers). Enabled targets come from the step's own target grid,
/// disabled ones from a list made once; each agent's are explained in target slot order.
pub(crate) fn write_why(world: &World, rec: &Recorder, engine: Option<&[RayHit]>, w: &mut Writer) {
    let count_at = w.len();
    w.u32(0);
    if !rec.explain {
        return;
    }
    // Sight changes by pair (the lose-sight radius applied to a target seen before the tick):
    // only agents with a lose-sight radius need them.
    let mut changed: Vec<(AgentId, TargetId)> =
        world.events.sight_changes.iter().map(|c| (c.agent, c.target)).collect();
    changed.sort_unstable();
    // An engine step's rays per pair (cast contiguously, in point order).
    let mut engine_rays: HashMap<(AgentId, TargetId), (usize, usize)> = HashMap::new();
    if engine.is_some() {
        for (i, r) in world.last_step_rays().iter().enumerate() {
            engine_rays.entry((r.agent, r.target)).and_modify(|e| e.1 = i + 1).or_insert((i, i + 1));
        }
    }
    let disabled: Vec<(TargetId, &Target)> = world.targets().filter(|(_, t)| !t.enabled()).collect();
    let grid = world.last_step_grid();
    let (mut near, mut rays) = (Vec::new(), Vec::new());
    let mut count = 0u32;
    for (aid, a) in world.agents() {
        if !rec.in_focus(aid) || !super::frame::ticked(rec, world, aid.index, a) {
            continue;
        }
        let s = &a.tuning.sight;
        let limit = 1.5 * s.view_radius.max(s.lose_sight_radius).max(s.peripheral_radius);
        let eye = a.eye();
        near.clear();
        grid.query(eye, limit, |g| near.push(TargetId { index: g.target, generation: g.generation }));
        let limit_sq = limit * limit;
        near.extend(
            disabled.iter().filter(|(_, t)| (t.position() - eye).length_squared() <= limit_sq).map(|(id, _)| *id),
        );
        near.sort_unstable();
        let hysteresis = SightFilter::of(a).has_hysteresis();
        for &tid in &near {
            let Ok(t) = world.target(tid) else { continue };
            let previously = hysteresis && {
                let seen_now = crate::memory::find(&a.records, tid).is_some_and(|r| r.seen);
                seen_now != changed.binary_search(&(aid, tid)).is_ok()
            };
            let answers = match engine {
                Some(hits) => {
                    let (from, to) = engine_rays.get(&(aid, tid)).copied().unwrap_or((0, 0));
                    Answers::Engine(hits.get(from..to).unwrap_or(&[]))
                }
                None => Answers::Builtin,
            };
            let e = world.explain(a, (aid, tid), t, previously, answers, &mut rays);
            write_record(w, aid, tid, &e);
            count += 1;
        }
    }
    w.bytes[count_at..count_at + 4].copy_from_slice(&count.to_le_bytes());
}

fn write_record(w: &mut Writer, agent: AgentId, target: TargetId, e: &SightExplanation) {
    let mut r = Rec::<36>::new();
    r.id(agent.index, agent.generation).id(target.index, target.generation);
    r.u8(e.verdict as u8).u8(e.point_count).u8(e.filter as u8).pad(1);
    r.f32(e.distance).f32(e.radius).f32(e.angle_deg).f32(e.half_angle_deg);
    w.rec(&r);
    for p in e.points() {
        let mut r = Rec::<44>::new();
        r.u8(p.status as u8).pad(3).f32(p.distance).f32(p.angle_deg).vec3(p.point).vec3(p.hit);
        r.id(p.occluder.index, p.occluder.generation);
        w.rec(&r);
    }
}
