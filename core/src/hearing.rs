//! Hearing (lesson §5): a sound is an event with a loudness radius; an agent hears it iff its
//! distance is at most loudness × sensitivity.

use crate::error::Result;
use crate::id::TargetId;
use crate::math::{Vec3, check_finite, check_non_negative};
use crate::team::check_team;

/// A sound to broadcast. It is heard at the next step by every agent, whatever its sight rate.
#[doc(alias = "SoundEvent", alias = "Footsteps")]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SoundDef {
    /// Where the sound happened.
    pub position: Vec3,
    /// The radius in metres this sound can be heard at (running footstep 15, walking 6).
    pub loudness: f32,
    /// The target that made it (null for an anonymous noise); a percept of a sourced sound
    /// refreshes the memory of that target.
    pub source: TargetId,
    /// Team of whoever made it, for the attitude rule (default 1, like targets).
    pub team: u32,
    /// Layer bits matched against each agent's sound mask (default 1).
    pub layers: u32,
}

impl Default for SoundDef {
    fn default() -> Self {
        SoundDef { position: Vec3::ZERO, loudness: 10.0, source: TargetId::NULL, team: 1, layers: 1 }
    }
}

/// A sound waiting for (or just processed by) a step.
#[doc(alias = "SoundEvent")]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sound {
    /// Where.
    pub position: Vec3,
    /// Radius in metres.
    pub loudness: f32,
    /// Source target or null.
    pub source: TargetId,
    /// Team id.
    pub team: u8,
    /// Layer bits.
    pub layers: u32,
}

impl Sound {
    pub(crate) fn from_def(def: &SoundDef) -> Result<Sound> {
        Ok(Sound {
            position: check_finite(def.position, "sound position")?,
            loudness: check_non_negative(def.loudness, "sound loudness")?,
            source: def.source,
            team: check_team(def.team, "sound team")?,
            layers: def.layers,
        })
    }
}

/// The lesson's rule: heard iff distance <= loudness × sensitivity (inclusive), optionally
/// shrunk by `occlusion_factor` per muffling occluder crossed. Returns the percept strength.
pub(crate) fn hear(
    listener: Vec3,
    sensitivity: f32,
    sound: &Sound,
    occlusion_factor: f32,
    count_crossed: impl FnOnce() -> u32,
) -> Option<f32> {
    let radius = sound.loudness * sensitivity;
    let dist_sq = listener.distance_squared(sound.position);
    if dist_sq > radius * radius {
        return None;
    }
    let mut radius = radius;
    if occlusion_factor < 1.0 {
        radius *= occlusion_factor.powi(count_crossed() as i32);
        if dist_sq > radius * radius {
            return None;
        }
    }
    let dist = dist_sq.sqrt();
    Some(if radius > 0.0 { (1.0 - dist / radius).clamp(0.0, 1.0) } else { 1.0 })
}
