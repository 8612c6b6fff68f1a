//! Vision (lesson §2–4, the vision-cone card): range by squared distance, then the cone by one
//! dot product against a cached cosine, then line of sight — cheapest first.

use crate::agent::{Agent, Tuning};
use crate::id::{AgentId, TargetId};
use crate::math::Vec3;
use crate::memory;
use crate::rays::RayQuery;
use crate::target::{MAX_CHECK_POINTS, Target};
use crate::team::{AttitudeMask, AttitudeTable, TeamSet};
use glam::{UVec4, Vec3A, Vec4};

/// Rays stop this far short of the check point, so the target's own surface never blocks.
pub const RAY_STOP_SHORT: f32 = 0.01;

/// Relative slack on the boundaries, so a point exactly on the radius or the cone edge counts as
/// inside despite f32 rounding (1° past the edge is ~0.012 in cosine, far beyond it).
pub const BOUNDARY_EPSILON: f32 = 1e-6;

/// A point closer to the eye than this is seen without any test (the card's "on top of us").
pub const ON_EYE_DISTANCE_SQ: f32 = 1e-8;

/// What happened to one check point.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PointStatus {
    /// Farther than every radius.
    #[default]
    OutOfRange = 0,
    /// In range but outside the cone(s).
    OutsideCone = 1,
    /// In view, but an occluder is in the way.
    Blocked = 2,
    /// In view with a clear line.
    Visible = 3,
    /// Not tested: the agent does not perceive this target at all (team attitude, detect mask,
    /// target or layer mask, or the target is disabled), whatever its distance.
    Filtered = 4,
}

/// One check point's outcome.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct PointSight {
    /// The outcome.
    pub status: PointStatus,
    /// The check point in world space.
    pub point: Vec3,
    /// Where the ray hit the blocking occluder (meaningful when `status` is `Blocked`).
    pub hit: Vec3,
}

/// The answer to "can this agent see that target right now?".
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SightResult {
    /// At least one check point is visible.
    pub seen: bool,
    /// False when the target is filtered out before any geometry (sight off, target disabled,
    /// layers, attitude); every point then reads `OutOfRange`.
    pub perceivable: bool,
    /// Visible check points / all check points.
    pub fraction: f32,
    /// The agent's eye.
    pub eye: Vec3,
    /// Per check point outcome; the first `point_count` are meaningful.
    pub points: [PointSight; MAX_CHECK_POINTS],
    /// Number of check points of the target.
    pub point_count: u8,
}

impl SightResult {
    /// Outcomes of the target's check points.
    pub fn points(&self) -> &[PointSight] {
        &self.points[..self.point_count as usize]
    }
}

/// The view parameters of one agent towards one target.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct View {
    pub eye: Vec3,
    pub forward: Vec3,
    pub radius_sq: f32,
    pub cos_half: f32,
    pub peripheral_radius_sq: f32,
    pub cos_half_peripheral: f32,
}

impl View {
    /// `previously_seen` applies the lose-sight radius (hysteresis) to the main cone.
    pub fn of(agent: &Agent, previously_seen: bool) -> View {
        View::looking(agent.eye(), agent.forward, &agent.tuning, previously_seen)
    }

    /// The view from `eye` along `forward` with the cones of `tuning`.
    pub fn looking(eye: Vec3, forward: Vec3, tuning: &Tuning, previously_seen: bool) -> View {
        let s = &tuning.sight;
        let with_slack = |r: f32| r * r * (1.0 + BOUNDARY_EPSILON);
        View {
            eye,
            forward,
            radius_sq: Self::main_radius_sq(tuning, previously_seen),
            cos_half: tuning.cache.cos_half - BOUNDARY_EPSILON,
            peripheral_radius_sq: if s.peripheral_radius > 0.0 { with_slack(s.peripheral_radius) } else { -1.0 },
            cos_half_peripheral: tuning.cache.cos_half_peripheral - BOUNDARY_EPSILON,
        }
    }

    /// The main cone's squared radius with its boundary slack; the lose-sight radius applies
    /// to a target seen at the last tick.
    pub fn main_radius_sq(tuning: &Tuning, previously_seen: bool) -> f32 {
        let s = &tuning.sight;
        let radius = if previously_seen { s.view_radius.max(s.lose_sight_radius) } else { s.view_radius };
        radius * radius * (1.0 + BOUNDARY_EPSILON)
    }
}

/// A check point after the range and cone tests, before line of sight.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum PointClass {
    OutOfRange,
    OutsideCone,
    /// So close to the eye that no ray is needed: seen.
    OnEye,
    /// In view: a ray from the eye along `dir` must travel `dist - RAY_STOP_SHORT` unblocked.
    InView {
        dir: Vec3,
        dist: f32,
        dot: f32,
    },
}

/// Range, then cone: the two cheap tests.
#[inline(always)]
pub(crate) fn classify(view: &View, point: Vec3) -> PointClass {
    let to = point - view.eye;
    let dist_sq = to.length_squared();
    let in_main_range = dist_sq <= view.radius_sq;
    let in_peripheral_range = dist_sq <= view.peripheral_radius_sq;
    if !in_main_range && !in_peripheral_range {
        return PointClass::OutOfRange;
    }
    if dist_sq < ON_EYE_DISTANCE_SQ {
        return PointClass::OnEye;
    }
    // dot(forward, to / |to|) >= cos  ⇔  dot(forward, to) >= cos × |to|: the same unit-vector
    // test with the division deferred to the points that pass it.
    let dist = dist_sq.sqrt();
    let along = view.forward.dot(to);
    if (in_main_range && along >= view.cos_half * dist)
        || (in_peripheral_range && along >= view.cos_half_peripheral * dist)
    {
        PointClass::InView { dir: to / dist, dist, dot: along / dist }
    } else {
        PointClass::OutsideCone
    }
}

/// The ray length for a point `dist` away; `None` when the point is within the stop distance.
#[inline]
pub(crate) fn ray_length(dist: f32) -> Option<f32> {
    let len = dist - RAY_STOP_SHORT;
    (len > 0.0).then_some(len)
}

/// Off-axis ratio for awareness: 0 straight ahead, 1 at the main cone's edge (or beyond).
#[inline]
pub(crate) fn off_axis(dot: f32, cos_half: f32) -> f32 {
    if cos_half <= -1.0 { (1.0 - dot) * 0.5 } else { ((1.0 - dot) / (1.0 - cos_half).max(1e-6)).clamp(0.0, 1.0) }
}

/// One agent's filters before any geometry, read once per agent: which targets it may see at
/// all (target mask, attitude) and whether the lose-sight radius widens its view of targets it
/// saw. The sweep applies them to broadphase entries (which hold only enabled targets), the
/// immediate queries to the target itself: one rule, hoisted out of the sweep's inner loop.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct SightFilter {
    target_mask: u32,
    team: u8,
    detect: AttitudeMask,
    hysteresis: bool,
}

impl SightFilter {
    #[inline]
    pub fn of(agent: &Agent) -> SightFilter {
        SightFilter::of_tuning(&agent.tuning, agent.team)
    }

    /// The filter of an agent of `team` with `tuning`.
    #[inline]
    pub fn of_tuning(tuning: &Tuning, team: u8) -> SightFilter {
        let s = &tuning.sight;
        SightFilter {
            target_mask: s.target_mask,
            team,
            detect: tuning.detect,
            hysteresis: s.lose_sight_radius > s.view_radius,
        }
    }

    /// This filter for an agent of `team`.
    #[inline]
    pub fn with_team(self, team: u8) -> SightFilter {
        SightFilter { team, ..self }
    }

    /// May the agent see a target on `layers` of `team` at all?
    #[inline]
    pub fn admits(&self, attitudes: &AttitudeTable, layers: u32, team: u8) -> bool {
        self.refusal(self.perceived(attitudes), layers, TeamSet::of(team)) == 0
    }

    /// Why the filter refuses a target on `layers` whose team is in `team`, `perceived` from
    /// [`SightFilter::perceived`]: 0 admitted, 3 not on the target mask's layers, 4 its team
    /// not perceived (the codes of `SightFilterReason` and of the recording's Why).
    #[inline]
    pub fn refusal(&self, perceived: TeamSet, layers: u32, team: TeamSet) -> u8 {
        if layers & self.target_mask == 0 {
            3
        } else if (team.lo & perceived.lo) | (team.hi & perceived.hi) == 0 {
            4
        } else {
            0
        }
    }

    /// The teams this filter's agent perceives.
    #[inline]
    pub fn perceived(&self, attitudes: &AttitudeTable) -> TeamSet {
        attitudes.perceived(self.team, self.detect)
    }

    /// [`SightFilter::admits`] for four targets side by side (the sweep's scan): their layers
    /// and the halves of their [`TeamSet`]s, with `perceived` from [`SightFilter::perceived`].
    /// Bit `k` of the result is target `k`'s answer.
    #[inline(always)]
    pub fn admits4(&self, perceived: TeamSet, layers: UVec4, team_lo: UVec4, team_hi: UVec4) -> u32 {
        let on_layers = (layers & UVec4::splat(self.target_mask)).cmpne(UVec4::ZERO);
        let teams = (team_lo & UVec4::splat(perceived.lo)) | (team_hi & UVec4::splat(perceived.hi));
        (on_layers & teams.cmpne(UVec4::ZERO)).bitmask()
    }

    /// Does a lose-sight radius wider than the view radius apply (so memory decides the view)?
    #[inline]
    pub fn has_hysteresis(&self) -> bool {
        self.hysteresis
    }

    /// Does the agent look at `target` through its lose-sight view (it saw it at its last tick)?
    #[inline]
    pub fn previously_seen(&self, agent: &Agent, target: TargetId) -> bool {
        self.hysteresis && memory::find(&agent.records, target).is_some_and(|r| r.seen)
    }
}

/// True if the agent may perceive this target at all: sight on, target enabled, admitted.
#[inline]
pub(crate) fn perceivable(agent: &Agent, attitudes: &AttitudeTable, target: &Target) -> bool {
    agent.tuning.sight.enabled && target.enabled && SightFilter::of(agent).admits(attitudes, target.layers, target.team)
}

/// A conservative form of [`classify`]'s cone test for a whole target before its check points
/// are read: false only when every point within `reach` of the target's position is outside
/// both cones, so the sweep skips loading and classifying targets behind the agent. Moving a
/// point by `r` changes `forward · to` by at most `r` and `cos × |to|` by at most `|cos| × r`,
/// hence the margin `(1 + |cos|) × r`, plus slack for f32 rounding at the eye's magnitude.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ConeBound {
    eye: Vec3A,
    forward: Vec3A,
    /// The targets' reach plus the rounding slack: how far outside the cones a position may be.
    pad: f32,
    cos_main: f32,
    margin_main: f32,
    /// `f32::INFINITY` when there is no peripheral cone (so its test never passes).
    cos_peripheral: f32,
    margin_peripheral: f32,
}

impl ConeBound {
    /// The cones of `view` from `eye` along `forward` (passed apart from it, so that the sweep
    /// hands them over in registers: read back from a `View` just written field by field, they
    /// stalled the load on the stores). `reach`: farthest check point from a target's position;
    /// `max_dist`: farthest position the test will be asked about.
    pub fn new(eye: Vec3A, forward: Vec3A, view: &View, reach: f32, max_dist: f32) -> ConeBound {
        let slack = 1e-3 + 1e-5 * (eye.abs().max_element() + max_dist);
        let margin = |cos: f32| (1.0 + cos.abs()) * reach + slack;
        let peripheral = view.peripheral_radius_sq > 0.0;
        ConeBound {
            eye,
            forward,
            pad: reach + slack,
            cos_main: view.cos_half,
            margin_main: margin(view.cos_half),
            cos_peripheral: if peripheral { view.cos_half_peripheral } else { f32::INFINITY },
            margin_peripheral: if peripheral { margin(view.cos_half_peripheral) } else { 0.0 },
        }
    }

    /// A box holding every target position that may have a check point inside either cone out
    /// to `radius` from the eye: the cones' exact bounds (along an axis within a cone's angle of
    /// the forward, the full radius; else the cone's edge nearest the axis), grown by the pad.
    /// The sweep's broadphase scans only its cells, about half the disc's for a 110° cone.
    ///
    /// (In `Vec3A`, whose lanes are one SIMD register: the same operations per component, so the
    /// same box, in a third of the instructions.)
    #[inline]
    pub fn bounds(&self, radius: f32) -> (Vec3, Vec3) {
        let (mut lo, mut hi) = (Vec3A::ZERO, Vec3A::ZERO);
        let f = self.forward;
        let across = (Vec3A::ONE - f * f).max(Vec3A::ZERO).sqrt();
        for cos in [self.cos_main, self.cos_peripheral] {
            if cos > 1.0 {
                continue; // no peripheral cone
            }
            let c = cos.clamp(-1.0, 1.0);
            let sin = (1.0 - c * c).max(0.0).sqrt();
            // The largest `d · axis` over unit directions `d` within the cone: 1 if the axis is
            // inside the cone, else the cosine of its angle to the cone's nearest edge.
            let edge = across * sin;
            let ahead = Vec3A::select(f.cmpge(Vec3A::splat(c)), Vec3A::ONE, (f * c + edge).max(Vec3A::ZERO));
            let behind = Vec3A::select((-f).cmpge(Vec3A::splat(c)), Vec3A::ONE, (-f * c + edge).max(Vec3A::ZERO));
            hi = hi.max(ahead * radius);
            lo = lo.min(-behind * radius);
        }
        let (eye, pad) = (self.eye, Vec3A::splat(self.pad));
        ((eye + lo - pad).into(), (eye + hi + pad).into())
    }

    /// For four target positions (by coordinate) side by side, the sweep's scan: may each have
    /// a check point inside either cone (bit `k` of the mask for position `k`)? With their
    /// squared distances from the eye.
    #[inline(always)]
    pub fn admits4(&self, x: Vec4, y: Vec4, z: Vec4) -> (u32, Vec4) {
        let (e, f, s) = (self.eye, self.forward, Vec4::splat);
        let (tx, ty, tz) = (x - s(e.x), y - s(e.y), z - s(e.z));
        // As `Vec3::length_squared` and `Vec3::dot` sum: x, then y, then z.
        let dist_sq = tx * tx + ty * ty + tz * tz;
        let dist = dist_sq.sqrt();
        let along = s(f.x) * tx + s(f.y) * ty + s(f.z) * tz;
        let main = along.cmpge(s(self.cos_main) * dist - s(self.margin_main));
        let peripheral = along.cmpge(s(self.cos_peripheral) * dist - s(self.margin_peripheral));
        ((main | peripheral).bitmask(), dist_sq)
    }
}

/// A check point after range and cone, as the line-of-sight stage sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum PointStage {
    OutOfRange,
    OutsideCone,
    /// Visible without a ray (on the eye, within the stop distance, or no blocking layer).
    Free,
    /// In view; visible unless the ray just pushed is blocked.
    Ray,
}

/// How many of a target's check points passed range and cone, and how many need no ray.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub in_view: u8,
    pub free_visible: u8,
}

/// Range and cone for every check point of a target (`points`, in world space), pushing the
/// line-of-sight rays still needed to `rays` in point order: the one sight classification of the
/// step's sweep and of the immediate queries (`can_see`, `visible_targets`), so they never
/// disagree. `each(k, stage)` hears every point's outcome; the sweep passes a no-op that the
/// compiler removes.
#[inline(always)]
pub(crate) fn classify_points(
    view: &View,
    ids: (AgentId, TargetId),
    obstacle_mask: u32,
    points: impl Iterator<Item = Vec3>,
    rays: &mut Vec<RayQuery>,
    mut each: impl FnMut(usize, PointStage),
) -> Tally {
    let mut tally = Tally::default();
    let eye = view.eye;
    // Shaped as the sweep's original inner loop (counts bumped in the branches), so the
    // no-op `each` of the sweep compiles to that loop.
    for (k, point) in points.enumerate() {
        match classify(view, point) {
            PointClass::OutOfRange => each(k, PointStage::OutOfRange),
            PointClass::OutsideCone => each(k, PointStage::OutsideCone),
            PointClass::OnEye => {
                tally.in_view += 1;
                tally.free_visible += 1;
                each(k, PointStage::Free);
            }
            PointClass::InView { dir, dist, .. } => {
                tally.in_view += 1;
                match ray_length(dist) {
                    Some(max_distance) if obstacle_mask != 0 => {
                        rays.push(RayQuery {
                            origin: eye,
                            direction: dir,
                            max_distance,
                            layer_mask: obstacle_mask,
                            agent: ids.0,
                            target: ids.1,
                        });
                        each(k, PointStage::Ray);
                    }
                    _ => {
                        tally.free_visible += 1;
                        each(k, PointStage::Free);
                    }
                }
            }
        }
    }
    tally
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    /// Four targets side by side get, each in its lane, the layer test and `perceives` for their
    /// team, whatever the observer's team (both halves of the team sets), mask and attitudes.
    #[test]
    fn the_four_lane_filter_answers_as_layers_and_attitudes_do() {
        use crate::team::{Attitude, DETECT_ALL, MAX_TEAMS};
        let mut s = Xorshift(0x2545_F491_4F6C_DD1D);
        let mut attitudes = AttitudeTable::default();
        let (mut admitted, mut refused) = (0, 0);
        for case in 0..4_000 {
            let team = |s: &mut Xorshift| (s.next_u64() % MAX_TEAMS as u64) as u8;
            if case % 5 == 0 {
                let attitude = [Attitude::Hostile, Attitude::Neutral, Attitude::Friendly][case % 3];
                attitudes.set(team(&mut s), team(&mut s), attitude);
            }
            let filter = SightFilter {
                target_mask: [u32::MAX, 1, 0b1010][case % 3],
                team: team(&mut s),
                detect: (s.next_u64() % (DETECT_ALL as u64 + 1)) as u32,
                hysteresis: false,
            };
            let teams: [u8; 4] = std::array::from_fn(|_| team(&mut s));
            let layers: [u32; 4] = std::array::from_fn(|_| 1 << (s.next_u64() % 4));
            let sets = teams.map(TeamSet::of);
            let lanes = filter.admits4(
                filter.perceived(&attitudes),
                UVec4::from_array(layers),
                UVec4::from_array(sets.map(|t| t.lo)),
                UVec4::from_array(sets.map(|t| t.hi)),
            );
            for k in 0..4 {
                let expected =
                    layers[k] & filter.target_mask != 0 && attitudes.perceives(filter.team, filter.detect, teams[k]);
                assert_eq!(lanes >> k & 1 != 0, expected, "case {case} lane {k}");
                assert_eq!(filter.admits(&attitudes, layers[k], teams[k]), expected, "case {case} lane {k}");
                if expected { admitted += 1 } else { refused += 1 }
            }
        }
        assert!(admitted > 2_000 && refused > 2_000, "{admitted} admitted, {refused} refused");
    }

    /// Whatever the cones, eye magnitude and check-point offsets, a target the bound rejects has
    /// no point that `classify` puts in view; and the bound does reject targets behind.
    #[test]
    fn the_cone_bound_never_rejects_a_target_with_a_point_in_view() {
        let mut s = Xorshift(0x9E37_79B9_7F4A_7C15u64);
        let (mut rejected, mut outside) = (0, 0);
        for case in 0..20_000 {
            let scale = [1.0, 1e3, 1e5][case % 3];
            let eye = Vec3::new(s.range(-scale, scale), s.range(-2.0, 2.0), s.range(-scale, scale));
            let a = s.range(0.0, std::f32::consts::TAU);
            let forward = Vec3::new(a.sin(), s.range(-0.3, 0.3), a.cos()).normalize();
            let cos = |deg: f32| (deg.to_radians() * 0.5).cos() - BOUNDARY_EPSILON;
            let peripheral = case % 4 == 0;
            let view = View {
                eye,
                forward,
                radius_sq: 15.0f32.powi(2),
                cos_half: cos(s.range(1.0, 360.0)),
                peripheral_radius_sq: if peripheral { 6.0f32.powi(2) } else { -1.0 },
                cos_half_peripheral: cos(s.range(1.0, 360.0)),
            };
            let reach = s.range(0.0, 2.0);
            let bound = ConeBound::new(view.eye.into(), view.forward.into(), &view, reach, 15.0 + reach);
            let offset = Vec3::new(s.range(-17.0, 17.0), s.range(-3.0, 3.0), s.range(-17.0, 17.0));
            // Now and then the eye itself is one of the target's points (seen without a cone).
            let on_eye = case % 97 == 0;
            let position = if on_eye { eye + offset.normalize() * reach } else { eye + offset };
            // Points on the reach sphere and halfway in.
            let mut points: Vec<Vec3> = (0..6)
                .map(|k| {
                    let d = Vec3::new(s.range(-1.0, 1.0), s.range(-1.0, 1.0), s.range(-1.0, 1.0));
                    let d = if d.length() > 1e-3 { d.normalize() } else { Vec3::X };
                    position + d * reach * if k % 2 == 0 { 1.0 } else { 0.5 }
                })
                .collect();
            if on_eye {
                points.push(eye);
            }
            let in_view =
                points.iter().any(|&p| matches!(classify(&view, p), PointClass::InView { .. } | PointClass::OnEye));
            // The position in one lane of four, the others filled with other positions.
            let lane = case % 4;
            let mut lanes = [eye - offset, eye + offset * 0.3, position * 2.0, eye].map(|p| p.to_array());
            lanes[lane] = position.to_array();
            let column = |axis: usize| Vec4::from_array(lanes.map(|p| p[axis]));
            let (admitted, dist_sq) = bound.admits4(column(0), column(1), column(2));
            assert_eq!(dist_sq.to_array()[lane], position.distance_squared(eye), "case {case}");
            if admitted >> lane & 1 == 0 {
                rejected += 1;
                assert!(!in_view, "case {case}: rejected a target with a point in view");
            }
            let (lo, hi) = bound.bounds(15.0);
            let inside = position.cmpge(lo).all() && position.cmple(hi).all();
            assert!(inside || !in_view, "case {case}: a target with a point in view is outside the bounds");
            outside += !inside as u32;
        }
        assert!(rejected > 5_000, "the bound should reject targets outside the cones ({rejected})");
        assert!(outside > 3_000, "the bounds should leave out targets behind ({outside})");
    }
}
