//! Immediate queries: "can this agent see that target right now?", outside the stepped sweep.

use crate::error::Result;
use crate::id::{AgentId, TargetId};
use crate::rays::{RayHit, RayQuery, RaySource, Rays};
use crate::sight::{PointStage, PointStatus, SightFilter, SightResult, View, classify_points, perceivable};

use super::World;

impl World {
    /// Can `agent` see `target` now, with the current poses? Built-in occluders answer the rays;
    /// an engine-ray world refuses (use [`World::can_see_with`]). Does not touch memory or brain.
    /// Classified exactly as the step's sight sweep classifies, so the two never disagree.
    #[doc(alias = "CanSeeTarget", alias = "HasLineOfSight", alias = "WithinRange", alias = "WithinAngle")]
    pub fn can_see(&self, agent: AgentId, target: TargetId) -> Result<SightResult> {
        self.can_see_with(agent, target, Rays::World)
    }

    /// [`World::can_see`] with `rays` answering line of sight (an engine source: one batch).
    pub fn can_see_with(&self, agent: AgentId, target: TargetId, rays: Rays) -> Result<SightResult> {
        let source = rays.resolve(self.def.ray_backend)?;
        self.can_see_inner(agent, target, source)
    }

    /// Every target `agent` can see now, in slot order, appended to `out` (cleared first).
    #[doc(alias = "FindVisibleTargets")]
    pub fn visible_targets(&self, agent: AgentId, out: &mut Vec<TargetId>) -> Result<()> {
        self.visible_targets_with(agent, Rays::World, out)
    }

    /// [`World::visible_targets`] with `rays` answering line of sight (an engine source: one batch).
    pub fn visible_targets_with(&self, agent: AgentId, rays: Rays, out: &mut Vec<TargetId>) -> Result<()> {
        let source = rays.resolve(self.def.ray_backend)?;
        self.visible_targets_inner(agent, source, out)
    }

    fn can_see_inner(
        &self,
        agent: AgentId,
        target: TargetId,
        source: Option<&mut dyn RaySource>,
    ) -> Result<SightResult> {
        let mut rays = Vec::new();
        let (mut result, ray_points) = self.sight_before_rays(agent, target, &mut rays)?;
        let hits = self.resolve(&rays, source)?;
        apply_hits(&mut result, ray_points, &rays, &hits);
        Ok(result)
    }

    fn visible_targets_inner(
        &self,
        agent: AgentId,
        source: Option<&mut dyn RaySource>,
        out: &mut Vec<TargetId>,
    ) -> Result<()> {
        self.agent(agent)?;
        out.clear();
        let mut rays = Vec::new();
        let mut pending = Vec::new();
        for (tid, _) in self.targets() {
            let first = rays.len();
            let (result, ray_points) = self.sight_before_rays(agent, tid, &mut rays)?;
            pending.push((tid, result, ray_points, first, rays.len()));
        }
        let hits = self.resolve(&rays, source)?;
        for (tid, mut result, ray_points, first, end) in pending {
            apply_hits(&mut result, ray_points, &rays[first..end], &hits[first..end]);
            if result.seen {
                out.push(tid);
            }
        }
        Ok(())
    }

    fn resolve(&self, rays: &[RayQuery], source: Option<&mut dyn RaySource>) -> Result<Vec<RayHit>> {
        let mut hits = vec![RayHit::default(); rays.len()];
        match source {
            Some(source) if !rays.is_empty() => {
                source.cast_rays(rays, &mut hits)?;
                check_hits(rays, &hits)?;
            }
            Some(_) => {}
            None => {
                for (hit, ray) in hits.iter_mut().zip(rays) {
                    *hit = builtin_hit(&self.occluders, ray);
                }
            }
        }
        Ok(hits)
    }

    /// Range and cone for every check point; rays still needed are appended to `rays` in point
    /// order, those points are provisionally `Visible` and their bits set in the returned mask.
    fn sight_before_rays(
        &self,
        agent_id: AgentId,
        target_id: TargetId,
        rays: &mut Vec<RayQuery>,
    ) -> Result<(SightResult, u8)> {
        let agent = self.agent(agent_id)?;
        let target = self.target(target_id)?;
        let mut result = SightResult { eye: agent.eye(), point_count: target.point_count, ..Default::default() };
        for (slot, point) in result.points.iter_mut().zip(target.world_points()) {
            slot.point = point;
        }
        if !perceivable(agent, &self.attitudes, target) {
            let count = result.point_count as usize;
            result.points[..count].iter_mut().for_each(|p| p.status = PointStatus::Filtered);
            return Ok((result, 0));
        }
        result.perceivable = true;
        let mut ray_points = 0u8;
        let view = View::of(agent, SightFilter::of(agent).previously_seen(agent, target_id));
        let points = &mut result.points;
        let mask = agent.tuning.sight.obstacle_mask;
        classify_points(&view, (agent_id, target_id), mask, target.world_points(), rays, |k, stage| {
            points[k].status = match stage {
                PointStage::OutOfRange => PointStatus::OutOfRange,
                PointStage::OutsideCone => PointStatus::OutsideCone,
                PointStage::Free => PointStatus::Visible,
                PointStage::Ray => {
                    ray_points |= 1 << k;
                    PointStatus::Visible // provisionally, until its ray is answered
                }
            };
        });
        Ok((result, ray_points))
    }
}

/// The built-in answer to a ray, with the hit distance: the occluder BVH's nearest hit.
pub(crate) fn builtin_hit(occluders: &crate::occluders::OccluderSet, ray: &RayQuery) -> RayHit {
    match occluders.cast_ray(ray.origin, ray.direction, ray.max_distance, ray.layer_mask) {
        Some(distance) => RayHit { hit: true, distance },
        None => RayHit { hit: false, distance: 0.0 },
    }
}

/// An engine's answers must be usable: a hit needs a finite distance within `[0, max_distance]`
/// of its ray. A hit beyond the ray's end is an engine bug (it answered a longer ray than it
/// was asked), so it is refused rather than guessed at.
pub(crate) fn check_hits(rays: &[RayQuery], hits: &[RayHit]) -> Result<()> {
    let bad = rays.iter().zip(hits).position(|(r, h)| h.hit && !hit_distance_ok(h.distance, r.max_distance));
    match bad {
        Some(bad) => Err(crate::error::invalid(format!(
            "ray result {bad} is a hit at distance {}, outside [0, {}] (the ray's max distance)",
            hits[bad].distance, rays[bad].max_distance
        ))),
        None => Ok(()),
    }
}

/// A reported hit distance is usable: finite and within `[0, max_distance]`.
pub(crate) fn hit_distance_ok(distance: f32, max_distance: f32) -> bool {
    distance.is_finite() && (0.0..=max_distance).contains(&distance)
}

/// Marks blocked points (in the order their rays were pushed) and totals the visible fraction.
fn apply_hits(result: &mut SightResult, ray_points: u8, rays: &[RayQuery], hits: &[RayHit]) {
    let eye = result.eye;
    let mut ray = 0;
    let count = result.point_count as usize;
    for (k, slot) in result.points[..count].iter_mut().enumerate() {
        if ray_points & (1 << k) == 0 {
            continue;
        }
        if hits[ray].hit {
            slot.status = PointStatus::Blocked;
            slot.hit = eye + rays[ray].direction * hits[ray].distance;
        }
        ray += 1;
    }
    let visible = result.points[..count].iter().filter(|p| p.status == PointStatus::Visible).count();
    result.fraction = if count > 0 { visible as f32 / count as f32 } else { 0.0 };
    result.seen = visible > 0;
}
