//! Hearing (lesson §5): a sound is an event with a loudness radius; an agent hears it iff its
//! distance is at most loudness × sensitivity. With walk hearing ([`HearingPath::Walk`]) the
//! distance is the walk around walls along the world's walk graph (see `walk`).

mod walk;

pub(crate) use walk::{WalkHearing, WalkInput, path_of};

use crate::agent::Agent;
use crate::broadphase::TargetGrid;
use crate::error::Result;
use crate::id::TargetId;
use crate::math::{Vec3, check_finite, check_non_negative};
use crate::settings::{SettingsField, WordKind};
use crate::team::{AttitudeTable, check_team};

/// Which way sound travels to a listener.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u32)]
pub enum HearingPath {
    /// An agent's setting only: whatever its world's setting is (the default).
    #[default]
    World = 0,
    /// The straight line (the lesson): heard within loudness × sensitivity, each occluder
    /// crossed keeping its sound transmission of the reach.
    Straight = 1,
    /// Around walls: the shortest walk along the world's walk graph, or straight through
    /// occluders that transmit sound (a door, a thin wall). See `docs/hearing.md`.
    Walk = 2,
}

impl HearingPath {
    /// The path from its number (`None` beyond the known ones).
    pub fn from_u32(v: u32) -> Option<HearingPath> {
        match v {
            0 => Some(HearingPath::World),
            1 => Some(HearingPath::Straight),
            2 => Some(HearingPath::Walk),
            _ => None,
        }
    }
}

impl SettingsField for HearingPath {
    const KINDS: &'static [WordKind] = &[WordKind::Choice(3)];
    fn push(&self, out: &mut Vec<u32>) {
        out.push(*self as u32);
    }
    fn take(words: &mut dyn Iterator<Item = u32>) -> Option<Self> {
        HearingPath::from_u32(words.next()?)
    }
}

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

/// What hearing one sound gave a listener.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Heard {
    /// The sound's index in the step's sounds.
    pub sound: u32,
    /// 1 − distance / reach.
    pub strength: f32,
    /// Metres the sound travelled to the listener: the straight line, or the walk.
    pub distance: f32,
    /// Where it seems to come from: the sound itself, or the last point of its walk the
    /// listener can see (a doorway).
    pub position: Vec3,
}

/// Strength of a sound heard `distance` metres away within `reach`.
fn strength(distance: f32, reach: f32) -> f32 {
    if reach > 0.0 { (1.0 - distance / reach).clamp(0.0, 1.0) } else { 1.0 }
}

/// The lesson's rule: heard iff the straight distance is at most loudness × sensitivity
/// (inclusive), that reach first shrunk by `kept()`, the fraction kept through the occluders the
/// line crosses, when occluders may shrink it (`None`: none can). Returns the strength and the
/// distance.
pub(crate) fn hear(
    listener: Vec3,
    sensitivity: f32,
    sound: &Sound,
    kept: Option<impl FnOnce() -> f32>,
) -> Option<(f32, f32)> {
    let radius = sound.loudness * sensitivity;
    let dist_sq = listener.distance_squared(sound.position);
    if dist_sq > radius * radius {
        return None;
    }
    let mut radius = radius;
    if let Some(kept) = kept {
        radius *= kept();
        if dist_sq > radius * radius {
            return None;
        }
    }
    let dist = dist_sq.sqrt();
    Some((strength(dist, radius), dist))
}

/// A step's sounds as hearing looks them up.
#[derive(Copy, Clone)]
pub(crate) struct StepSounds<'a> {
    pub sounds: &'a [Sound],
    /// The sounds by position (entry `target` = sound index), when there are enough of them
    /// for a grid to beat a scan; every sound is at most `loudest` metres loud.
    pub grid: Option<&'a TargetGrid>,
    pub loudest: f32,
}

impl StepSounds<'_> {
    /// Calls `f(index, sound)`, in sound order, for every sound `agent` listens to (its sound
    /// mask, its team's attitude to the sound's) that may be within its reach. `nearby` is
    /// scratch for the grid's candidates.
    pub fn each_audible(
        &self,
        agent: &Agent,
        attitudes: &AttitudeTable,
        nearby: &mut Vec<u32>,
        mut f: impl FnMut(u32, &Sound),
    ) {
        let hearing = &agent.tuning.hearing;
        let mut candidates = 0..self.sounds.len() as u32;
        let picked: &[u32] = match self.grid {
            Some(grid) => {
                // Every sound this agent can hear is within loudest × sensitivity of it (the
                // rounded product grows with its factors); the margin only widens the net, and
                // the caller applies the exact rule to each sound the grid returns.
                let reach = self.loudest * hearing.sensitivity;
                nearby.clear();
                grid.query(agent.position(), reach * (1.0 + 1e-5) + 1e-5, |e| nearby.push(e.target));
                nearby.sort_unstable();
                candidates = 0..0;
                nearby
            }
            None => &[],
        };
        for si in candidates.chain(picked.iter().copied()) {
            let sound = &self.sounds[si as usize];
            if sound.layers & hearing.sound_mask != 0
                && attitudes.perceives(agent.team, agent.tuning.detect, sound.team)
            {
                f(si, sound);
            }
        }
    }
}
