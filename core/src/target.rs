//! Targets: what agents perceive (the player, a body, a noisy bottle).

use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite, check_non_negative, unit_direction};
use crate::team::check_team;

/// Most check points a target can have.
pub const MAX_CHECK_POINTS: usize = 8;

/// Default check point: chest height.
pub const CHEST_HEIGHT: f32 = 1.3;

/// Everything needed to create a target; the world copies it.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetDef {
    /// Feet position.
    pub position: Vec3,
    /// Facing direction (normalised on input; zero is an error). Default +Z.
    pub forward: Vec3,
    /// Team id (default 1: hostile to the agents' default team 0).
    pub team: u32,
    /// Layer bits matched against each agent's target mask (default 1).
    pub layers: u32,
    /// Points tested for line of sight, as offsets from the position (1 to 8; default one at
    /// chest height). The visible fraction of them is the sight percept's strength.
    pub check_points: Vec<Vec3>,
    /// Disabled targets are invisible to every agent (default true).
    pub enabled: bool,
    /// The speed in metres per second agents assume it can move at when they lose it: how fast
    /// a belief of where it can be spreads (default 1.4, a walk; 0 = it stays put).
    pub top_speed: f32,
}

/// [`TargetDef::top_speed`]'s default: a walk.
pub const WALKING_SPEED: f32 = 1.4;

impl Default for TargetDef {
    fn default() -> Self {
        TargetDef {
            position: Vec3::ZERO,
            forward: Vec3::Z,
            team: 1,
            layers: 1,
            check_points: vec![Vec3::new(0.0, CHEST_HEIGHT, 0.0)],
            enabled: true,
            top_speed: WALKING_SPEED,
        }
    }
}

/// A live target.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub(crate) position: Vec3,
    pub(crate) forward: Vec3,
    pub(crate) team: u8,
    pub(crate) layers: u32,
    pub(crate) points: [Vec3; MAX_CHECK_POINTS],
    pub(crate) point_count: u8,
    pub(crate) enabled: bool,
    pub(crate) top_speed: f32,
}

impl Target {
    pub(crate) fn from_def(def: &TargetDef) -> Result<Target> {
        let position = check_finite(def.position, "target position")?;
        let forward = unit_direction(def.forward, "target forward")?;
        let team = check_team(def.team, "target team")?;
        let (points, point_count) = check_points(&def.check_points)?;
        let top_speed = check_non_negative(def.top_speed, "target top speed")?;
        if top_speed > MAX_TOP_SPEED {
            return Err(invalid(format!("target top speed must be at most {MAX_TOP_SPEED} m/s, got {top_speed}")));
        }
        let enabled = def.enabled;
        Ok(Target { position, forward, team, layers: def.layers, points, point_count, enabled, top_speed })
    }

    /// Feet position.
    pub fn position(&self) -> Vec3 {
        self.position
    }

    /// Unit facing direction.
    pub fn forward(&self) -> Vec3 {
        self.forward
    }

    /// Team id.
    pub fn team(&self) -> u32 {
        self.team as u32
    }

    /// Layer bits.
    pub fn layers(&self) -> u32 {
        self.layers
    }

    /// The speed agents assume it can move at (see [`TargetDef::top_speed`]).
    pub fn top_speed(&self) -> f32 {
        self.top_speed
    }

    /// Whether agents can see it.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Check point offsets.
    pub fn check_points(&self) -> &[Vec3] {
        &self.points[..self.point_count as usize]
    }

    /// Check points in world space.
    pub fn world_points(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.check_points().iter().map(move |o| self.position + *o)
    }

    /// Farthest check point from the position (widens broadphase queries).
    pub(crate) fn reach(&self) -> f32 {
        self.check_points().iter().map(|o| o.length()).fold(0.0, f32::max)
    }

    /// The definition this target would be recreated from.
    pub fn def(&self) -> TargetDef {
        TargetDef {
            position: self.position,
            forward: self.forward,
            team: self.team as u32,
            layers: self.layers,
            check_points: self.check_points().to_vec(),
            enabled: self.enabled,
            top_speed: self.top_speed,
        }
    }
}

/// The fastest a target may be assumed to move: a thousand metres per second is no person.
pub const MAX_TOP_SPEED: f32 = 1000.0;

/// Validates 1..=8 finite offsets.
pub(crate) fn check_points(offsets: &[Vec3]) -> Result<([Vec3; MAX_CHECK_POINTS], u8)> {
    if offsets.is_empty() || offsets.len() > MAX_CHECK_POINTS {
        return Err(invalid(format!("a target needs 1 to {MAX_CHECK_POINTS} check points, got {}", offsets.len())));
    }
    let mut points = [Vec3::ZERO; MAX_CHECK_POINTS];
    for (slot, p) in points.iter_mut().zip(offsets) {
        *slot = check_finite(*p, "check point offset")?;
    }
    Ok((points, offsets.len() as u8))
}
