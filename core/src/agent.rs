//! Agents (the guards): pose, team and the tuning of every sense.

use std::collections::HashMap;
use std::sync::Arc;

use crate::awareness::AwarenessConfig;
use crate::brain::{Brain, BrainConfig};
use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite, check_non_negative, cos_half_angle, unit_direction};
use crate::memory::{MemoryConfig, MemoryRecord};
use crate::team::{AttitudeMask, DETECT_ALL, DETECT_HOSTILE, check_team};

/// Vision tuning (lesson §2–4 and the vision-cone card).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SightConfig {
    /// Sight is tested at all (default true).
    pub enabled: bool,
    /// Eye position relative to the agent's position (default 1.6 m up).
    pub eye_offset: Vec3,
    /// Maximum distance, in metres (default 10).
    pub view_radius: f32,
    /// Full cone width in degrees (default 90); 360 or more skips the cone test.
    pub view_angle: f32,
    /// Once seen, a target stays in range until it leaves this larger radius; 0 = off (default).
    pub lose_sight_radius: f32,
    /// A wider, shorter peripheral cone: radius in metres, 0 = off (default).
    pub peripheral_radius: f32,
    /// Full width of the peripheral cone in degrees (default 180).
    pub peripheral_angle: f32,
    /// Layers of targets this agent can see (Unity's `targetMask`; default all).
    pub target_mask: u32,
    /// Layers of occluders that block its sight (Unity's `obstacleMask`; default all).
    pub obstacle_mask: u32,
    /// Sense ticks per second (default 10); 0 = every step. Agents are staggered evenly.
    pub rate_hz: f32,
}

impl Default for SightConfig {
    fn default() -> Self {
        SightConfig {
            enabled: true,
            eye_offset: Vec3::new(0.0, 1.6, 0.0),
            view_radius: 10.0,
            view_angle: 90.0,
            lose_sight_radius: 0.0,
            peripheral_radius: 0.0,
            peripheral_angle: 180.0,
            target_mask: u32::MAX,
            obstacle_mask: u32::MAX,
            rate_hz: 10.0,
        }
    }
}

impl SightConfig {
    /// Seconds between sight ticks (0 = every step).
    pub(crate) fn period(&self) -> f64 {
        if self.rate_hz > 0.0 { 1.0 / self.rate_hz as f64 } else { 0.0 }
    }

    pub(crate) fn validate(&self) -> Result<()> {
        check_finite(self.eye_offset, "eye offset")?;
        check_non_negative(self.view_radius, "view radius")?;
        // 360 or more means all around (no cone test), as documented; 400 is simply 360.
        check_non_negative(self.view_angle, "view angle")?;
        check_non_negative(self.lose_sight_radius, "lose-sight radius")?;
        if self.lose_sight_radius > 0.0 && self.lose_sight_radius < self.view_radius {
            return Err(invalid(format!(
                "lose-sight radius ({}) must be 0 (off) or at least the view radius ({})",
                self.lose_sight_radius, self.view_radius
            )));
        }
        check_non_negative(self.peripheral_radius, "peripheral radius")?;
        check_non_negative(self.peripheral_angle, "peripheral angle")?;
        check_non_negative(self.rate_hz, "sight rate (Hz)")?;
        Ok(())
    }
}

/// Hearing tuning (lesson §5).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct HearingConfig {
    /// Hearing is tested at all (default true).
    pub enabled: bool,
    /// Multiplier on every sound's loudness radius (default 1 = normal hearing).
    pub sensitivity: f32,
    /// Layers of sounds this agent listens to (default all).
    pub sound_mask: u32,
    /// Layers of occluders that muffle sound, when the world's sound occlusion is on (default all).
    pub obstacle_mask: u32,
}

impl Default for HearingConfig {
    fn default() -> Self {
        HearingConfig { enabled: true, sensitivity: 1.0, sound_mask: u32::MAX, obstacle_mask: u32::MAX }
    }
}

/// Everything needed to create an agent; the world copies it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AgentDef {
    /// Feet position.
    pub position: Vec3,
    /// Facing direction (normalised on input; zero is an error). Default +Z.
    pub forward: Vec3,
    /// Team id, below [`crate::team::MAX_TEAMS`] (default 0: guards).
    pub team: u32,
    /// Which attitudes this agent perceives (default hostile only).
    pub detect: AttitudeMask,
    /// Vision.
    pub sight: SightConfig,
    /// Hearing.
    pub hearing: HearingConfig,
    /// Memory.
    pub memory: MemoryConfig,
    /// Brain.
    pub brain: BrainConfig,
    /// Awareness meters.
    pub awareness: AwarenessConfig,
}

impl Default for AgentDef {
    fn default() -> Self {
        AgentDef {
            position: Vec3::ZERO,
            forward: Vec3::Z,
            team: 0,
            detect: DETECT_HOSTILE,
            sight: SightConfig::default(),
            hearing: HearingConfig::default(),
            memory: MemoryConfig::default(),
            brain: BrainConfig::default(),
            awareness: AwarenessConfig::default(),
        }
    }
}

impl AgentDef {
    /// Checks every field; the normalised forward is returned.
    pub(crate) fn validate(&self) -> Result<Vec3> {
        check_finite(self.position, "agent position")?;
        let forward = unit_direction(self.forward, "agent forward")?;
        check_team(self.team, "agent team")?;
        if self.detect & !DETECT_ALL != 0 {
            return Err(invalid(format!("detect mask has unknown bits: {:#x}", self.detect)));
        }
        self.sight.validate()?;
        check_non_negative(self.hearing.sensitivity, "hearing sensitivity")?;
        self.memory.validate()?;
        self.brain.validate()?;
        self.awareness.validate()?;
        Ok(forward)
    }
}

/// Cached sight numbers, recomputed whenever the config changes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct SightCache {
    pub cos_half: f32,
    pub cos_half_peripheral: f32,
    /// Largest distance any check can reach (for the broadphase).
    pub reach: f32,
}

impl SightCache {
    pub fn new(s: &SightConfig) -> Self {
        SightCache {
            cos_half: cos_half_angle(s.view_angle),
            cos_half_peripheral: cos_half_angle(s.peripheral_angle),
            reach: s.view_radius.max(s.lose_sight_radius).max(s.peripheral_radius),
        }
    }
}

/// The settings of an agent apart from its pose and team. Agents with identical settings share
/// one `Tuning` (a game has a few guard archetypes, not thousands), which keeps each agent small
/// and the sweep's reads of these numbers in cache.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tuning {
    pub detect: AttitudeMask,
    pub sight: SightConfig,
    pub hearing: HearingConfig,
    pub memory: MemoryConfig,
    pub brain: BrainConfig,
    pub awareness: AwarenessConfig,
    pub cache: SightCache,
}

/// Every setting as bits: equal keys mean equal tunings.
type TuningKey = [u32; 30];

fn tuning_key(d: &AgentDef) -> TuningKey {
    let (s, h, m, b, a) = (&d.sight, &d.hearing, &d.memory, &d.brain, &d.awareness);
    let f = f32::to_bits;
    [
        d.detect,
        s.enabled as u32,
        f(s.eye_offset.x),
        f(s.eye_offset.y),
        f(s.eye_offset.z),
        f(s.view_radius),
        f(s.view_angle),
        f(s.lose_sight_radius),
        f(s.peripheral_radius),
        f(s.peripheral_angle),
        s.target_mask,
        s.obstacle_mask,
        f(s.rate_hz),
        h.enabled as u32,
        f(h.sensitivity),
        h.sound_mask,
        h.obstacle_mask,
        f(m.decay_per_second),
        f(m.forget_threshold),
        b.enabled as u32,
        f(b.search_duration),
        f(b.investigate_timeout),
        a.enabled as u32,
        f(a.rise_per_second),
        f(a.fall_per_second),
        f(a.far_factor),
        f(a.edge_factor),
        f(a.suspicious_threshold),
        f(a.alert_threshold),
        f(a.aware_threshold),
    ]
}

/// The shared tunings of a world's agents.
#[derive(Debug, Default)]
pub(crate) struct TuningTable {
    shared: HashMap<TuningKey, Arc<Tuning>>,
}

impl TuningTable {
    /// The tuning for a (validated) def, shared with every agent that has the same settings.
    pub fn intern(&mut self, d: &AgentDef) -> Arc<Tuning> {
        self.shared
            .entry(tuning_key(d))
            .or_insert_with(|| {
                Arc::new(Tuning {
                    detect: d.detect,
                    sight: d.sight,
                    hearing: d.hearing,
                    memory: d.memory,
                    brain: d.brain,
                    awareness: d.awareness,
                    cache: SightCache::new(&d.sight),
                })
            })
            .clone()
    }

    /// An agent lets go of `tuning`; the last user takes it out of the table.
    pub fn release(&mut self, tuning: &Arc<Tuning>) {
        if Arc::strong_count(tuning) == 2 {
            self.shared.retain(|_, t| !Arc::ptr_eq(t, tuning));
        }
    }

    /// Number of distinct tunings in use.
    pub fn len(&self) -> usize {
        self.shared.len()
    }
}

/// A live agent.
#[derive(Clone, Debug)]
pub struct Agent {
    pub(crate) position: Vec3,
    pub(crate) forward: Vec3,
    pub(crate) team: u8,
    pub(crate) tuning: Arc<Tuning>,
    pub(crate) next_sense_time: f64,
    pub(crate) brain: Brain,
    pub(crate) records: Vec<MemoryRecord>,
}

impl Agent {
    pub(crate) fn new(def: &AgentDef, forward: Vec3, tuning: Arc<Tuning>, next_sense_time: f64) -> Self {
        Agent {
            position: def.position,
            forward,
            team: def.team as u8,
            tuning,
            next_sense_time,
            brain: Brain::default(),
            records: Vec::new(),
        }
    }

    /// The definition this agent would be recreated from, with its current pose.
    pub fn def(&self) -> AgentDef {
        let t = &*self.tuning;
        AgentDef {
            position: self.position,
            forward: self.forward,
            team: self.team as u32,
            detect: t.detect,
            sight: t.sight,
            hearing: t.hearing,
            memory: t.memory,
            brain: t.brain,
            awareness: t.awareness,
        }
    }

    /// Feet position.
    pub fn position(&self) -> Vec3 {
        self.position
    }

    /// Unit facing direction.
    pub fn forward(&self) -> Vec3 {
        self.forward
    }

    /// World-space eye position.
    pub fn eye(&self) -> Vec3 {
        self.position + self.tuning.sight.eye_offset
    }

    /// The brain.
    pub fn brain(&self) -> &Brain {
        &self.brain
    }

    /// Memory records, one per remembered target.
    pub fn memory(&self) -> &[MemoryRecord] {
        &self.records
    }

    /// World time of the next sight tick.
    pub fn next_sense_time(&self) -> f64 {
        self.next_sense_time
    }
}
