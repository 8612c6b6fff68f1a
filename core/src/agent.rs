//! Agents (the guards): pose, team and the tuning of every sense.

use std::collections::HashMap;
use std::sync::Arc;

use crate::awareness::AwarenessConfig;
use crate::blockers::RememberedBlockers;
use crate::brain::{Brain, BrainConfig};
use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite, check_non_negative, cos_half_angle, unit_direction};
use crate::memory::{MemoryConfig, MemoryRecord};
use crate::settings::SettingsWords;
use crate::team::{AttitudeMask, DETECT_ALL, DETECT_HOSTILE, check_team};

crate::settings::settings! {
    /// Vision tuning (lesson §2–4 and the vision-cone card).
    #[doc(alias = "FieldOfViewSensor")]
    pub struct SightConfig {
        /// Sight is tested at all (default true).
        pub enabled: bool = true,
        /// Eye position relative to the agent's position (default 1.6 m up).
        pub eye_offset: Vec3 = Vec3::new(0.0, 1.6, 0.0),
        /// Maximum distance, in metres (default 10).
        pub view_radius: f32 = 10.0,
        /// Full cone width in degrees (default 90); 360 or more skips the cone test.
        pub view_angle: f32 = 90.0,
        /// Once seen, a target stays in range until it leaves this larger radius; 0 = off (default).
        pub lose_sight_radius: f32 = 0.0,
        /// A wider, shorter peripheral cone: radius in metres, 0 = off (default).
        pub peripheral_radius: f32 = 0.0,
        /// Full width of the peripheral cone in degrees (default 180).
        pub peripheral_angle: f32 = 180.0,
        /// Layers of targets this agent can see (Unity's `targetMask`; default all).
        pub target_mask: u32 = u32::MAX,
        /// Layers of occluders that block its sight (Unity's `obstacleMask`; default all).
        pub obstacle_mask: u32 = u32::MAX,
        /// Sense ticks per second (default 10); 0 = every step. Agents are staggered evenly.
        pub rate_hz: f32 = 10.0,
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

crate::settings::settings! {
    /// Hearing tuning (lesson §5).
    #[doc(alias = "HearingSensor")]
    pub struct HearingConfig {
        /// Hearing is tested at all (default true).
        pub enabled: bool = true,
        /// Multiplier on every sound's loudness radius (default 1 = normal hearing).
        pub sensitivity: f32 = 1.0,
        /// Layers of sounds this agent listens to (default all).
        pub sound_mask: u32 = u32::MAX,
        /// Layers of occluders that muffle sound, when the world's sound occlusion is on (default all).
        pub obstacle_mask: u32 = u32::MAX,
        /// Which way sound travels to it: the world's setting (default), the straight line, or
        /// around walls along the walk graph.
        pub path: crate::hearing::HearingPath = crate::hearing::HearingPath::World,
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
    /// Its place in its table's `by_index` (reused once no agent holds it): the step's compact
    /// per-agent records name their tuning by this number instead of copying its settings.
    pub index: u32,
}

/// Every setting as bits: equal keys mean equal tunings. Built from each sense's field list
/// ([`SettingsWords`]), so a field added to a sense is part of the key without a word here.
type TuningKey = Vec<u32>;

fn tuning_key(d: &AgentDef) -> TuningKey {
    let mut key = vec![d.detect];
    d.write_settings_words(&mut key);
    key
}

impl AgentDef {
    /// Every sense's settings as words, sight, hearing, memory, brain, awareness in that order
    /// (the interning key and the snapshot record both use it).
    pub(crate) fn write_settings_words(&self, out: &mut Vec<u32>) {
        self.sight.write_words(out);
        self.hearing.write_words(out);
        self.memory.write_words(out);
        self.brain.write_words(out);
        self.awareness.write_words(out);
    }

    /// Reads what [`AgentDef::write_settings_words`] wrote into this def's senses.
    pub(crate) fn read_settings_words(&mut self, words: &mut dyn Iterator<Item = u32>) -> Option<()> {
        self.sight = SightConfig::read_words(words)?;
        self.hearing = HearingConfig::read_words(words)?;
        self.memory = MemoryConfig::read_words(words)?;
        self.brain = BrainConfig::read_words(words)?;
        self.awareness = AwarenessConfig::read_words(words)?;
        Some(())
    }
}

/// The shared tunings of a world's agents.
#[derive(Debug, Default)]
pub(crate) struct TuningTable {
    shared: HashMap<TuningKey, Arc<Tuning>>,
    /// Every tuning in use at its `index`; free places are `None` (and listed in `free`).
    by_index: Vec<Option<Arc<Tuning>>>,
    free: Vec<u32>,
    /// Bumped whenever a tuning is added or dropped, so what is made from the table (the
    /// sweep's per-tuning numbers) is remade only then.
    version: u64,
    /// Sum of the agents' sight reach in 1/256 m, and the agents counted (every `intern` is one
    /// agent taking a tuning, every `release` one giving it back): an exact integer sum, so the
    /// mean does not depend on the order agents came and went.
    reach_units: u128,
    users: u64,
}

fn reach_units(t: &Tuning) -> u128 {
    (t.cache.reach as f64 * 256.0).round() as u128
}

impl TuningTable {
    /// The tuning for a (validated) def, shared with every agent that has the same settings.
    pub fn intern(&mut self, d: &AgentDef) -> Arc<Tuning> {
        let (by_index, free, version) = (&mut self.by_index, &mut self.free, &mut self.version);
        let tuning = self
            .shared
            .entry(tuning_key(d))
            .or_insert_with(|| {
                let index = free.pop().unwrap_or(by_index.len() as u32);
                let tuning = Arc::new(Tuning {
                    detect: d.detect,
                    sight: d.sight,
                    hearing: d.hearing,
                    memory: d.memory,
                    brain: d.brain,
                    awareness: d.awareness,
                    cache: SightCache::new(&d.sight),
                    index,
                });
                if by_index.len() <= index as usize {
                    by_index.resize(index as usize + 1, None);
                }
                by_index[index as usize] = Some(tuning.clone());
                *version += 1;
                tuning
            })
            .clone();
        self.reach_units += reach_units(&tuning);
        self.users += 1;
        tuning
    }

    /// An agent lets go of `tuning`; the last user takes it out of the table.
    pub fn release(&mut self, tuning: &Arc<Tuning>) {
        self.reach_units -= reach_units(tuning);
        self.users -= 1;
        // The departing agent's own and this table's two (by key and by index).
        if Arc::strong_count(tuning) == 3 {
            self.shared.retain(|_, t| !Arc::ptr_eq(t, tuning));
            self.by_index[tuning.index as usize] = None;
            self.free.push(tuning.index);
            self.version += 1;
        }
    }

    /// The agents' mean sight reach (`None` without agents).
    pub fn mean_reach(&self) -> Option<f32> {
        (self.users > 0).then(|| (self.reach_units as f64 / 256.0 / self.users as f64) as f32)
    }

    /// Number of distinct tunings in use (for `World::distinct_tunings`, a test hook).
    #[cfg(any(test, feature = "testing"))]
    pub fn len(&self) -> usize {
        self.shared.len()
    }

    /// Every tuning at its `index` (`None` for a free place).
    pub fn by_index(&self) -> &[Option<Arc<Tuning>>] {
        &self.by_index
    }

    /// Changes whenever a tuning is added or dropped.
    pub fn version(&self) -> u64 {
        self.version
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
    /// What stopped its sight rays at its last tick (a guess for the next; never saved).
    pub(crate) blockers: RememberedBlockers,
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
            blockers: RememberedBlockers::default(),
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

    /// Sight settings.
    pub fn sight(&self) -> &SightConfig {
        &self.tuning.sight
    }

    /// Hearing settings.
    pub fn hearing(&self) -> &HearingConfig {
        &self.tuning.hearing
    }

    /// Memory settings.
    pub fn memory_config(&self) -> &MemoryConfig {
        &self.tuning.memory
    }

    /// Brain settings.
    pub fn brain_config(&self) -> &BrainConfig {
        &self.tuning.brain
    }

    /// Awareness-meter settings.
    pub fn awareness(&self) -> &AwarenessConfig {
        &self.tuning.awareness
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

    /// True if this agent had a sight tick in the step of `dt` seconds that reached `time`:
    /// its previous scheduled tick lies within that step (sight every step: always).
    pub(crate) fn sight_ticked(&self, time: f64, dt: f32) -> bool {
        let period = self.tuning.sight.period();
        if period <= 0.0 {
            return true;
        }
        let last = self.next_sense_time - period;
        last > time - dt as f64 - 1e-9 && last <= time + 1e-9
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The default agent with a view radius of `radius`.
    fn def(radius: f32) -> AgentDef {
        let mut d = AgentDef::default();
        d.sight.view_radius = radius;
        d
    }

    /// The table's mean reach follows agents taking and giving back tunings, in any order, and
    /// is not fooled by other copies of a tuning (a clone of an agent kept by a caller).
    #[test]
    fn mean_reach_counts_the_agents_holding_each_tuning() {
        let mut table = TuningTable::default();
        assert_eq!(table.mean_reach(), None);
        let a = table.intern(&def(10.0));
        let b = table.intern(&def(10.0));
        let c = table.intern(&def(40.0));
        let held_elsewhere = Arc::clone(&c);
        assert_eq!(table.mean_reach(), Some(20.0));
        table.release(&a);
        drop(a);
        assert_eq!(table.mean_reach(), Some(25.0));
        table.release(&c);
        drop(c);
        assert_eq!(table.mean_reach(), Some(10.0));
        table.release(&b);
        assert_eq!(table.mean_reach(), None);
        drop(held_elsewhere);
    }

    /// Each tuning in use sits at its own index of `by_index`; the index of a tuning no agent
    /// holds any more is free, and the next new tuning takes it.
    #[test]
    fn tunings_keep_their_own_index_and_free_ones_are_reused() {
        let mut table = TuningTable::default();
        let a = table.intern(&def(10.0));
        let b = table.intern(&def(20.0));
        let a2 = table.intern(&def(10.0));
        assert_eq!((a.index, b.index, a2.index), (0, 1, 0));
        let at = |table: &TuningTable, i: u32| table.by_index()[i as usize].clone();
        assert!(at(&table, 1).is_some_and(|t| Arc::ptr_eq(&t, &b)));
        table.release(&a);
        drop(a);
        assert!(at(&table, 0).is_some(), "a tuning still held keeps its place");
        table.release(&a2);
        drop(a2);
        assert!(at(&table, 0).is_none(), "the last holder gone, its place is free");
        let c = table.intern(&def(30.0));
        assert_eq!(c.index, 0, "a new tuning takes the free place");
        assert!(at(&table, 0).is_some_and(|t| Arc::ptr_eq(&t, &c)));
        assert_eq!(table.by_index().len(), 2);
    }

    /// The version moves when a tuning is added or dropped, not when an agent shares or lets go
    /// of one another still holds.
    #[test]
    fn the_version_moves_only_when_tunings_come_or_go() {
        let mut table = TuningTable::default();
        let v0 = table.version();
        let a = table.intern(&def(10.0));
        let v1 = table.version();
        assert_ne!(v1, v0, "a new tuning");
        let a2 = table.intern(&def(10.0));
        assert_eq!(table.version(), v1, "shared, not new");
        table.release(&a2);
        drop(a2);
        assert_eq!(table.version(), v1, "still held");
        table.release(&a);
        drop(a);
        assert_ne!(table.version(), v1, "dropped");
    }
}
