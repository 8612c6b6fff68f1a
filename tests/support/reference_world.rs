//! The reference world: plain vectors of agents, targets, occluders and pending sounds, and a
//! step that runs the lesson's loops for every agent in turn (every agent senses every step).

use glam::{Quat, Vec3};

use super::geometry::{RefOccluder, RefShape, unit_direction};
use super::mind::{self, Heard, RefBrain, RefBrainConfig, RefId, RefRecord, RefState};
use super::sight::{About, Near, PointSight, Viewer, hear, hear_noting, see_point, see_point_noting};

/// How one team regards another; the detect-mask bit of each is `1 << (value)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RefAttitude {
    Hostile = 0,
    Neutral = 1,
    Friendly = 2,
}

/// Detect mask: hostiles only (the default).
pub const SEE_HOSTILE: u32 = 1;

/// An agent (guard) definition with the lesson's defaults.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RefAgentDef {
    pub position: Vec3,
    /// Made unit on input (see [`unit_direction`]).
    pub forward: Vec3,
    pub team: u32,
    /// Which attitudes it perceives, as `1 << RefAttitude`.
    pub detect: u32,
    pub sight_enabled: bool,
    pub eye_offset: Vec3,
    pub view_radius: f32,
    pub view_angle: f32,
    /// Unity's `targetMask`.
    pub target_mask: u32,
    /// Unity's `obstacleMask`.
    pub obstacle_mask: u32,
    pub hearing_enabled: bool,
    pub hearing_sensitivity: f32,
    pub sound_mask: u32,
    pub decay_per_second: f32,
    pub forget_threshold: f32,
    pub brain: RefBrainConfig,
}

impl Default for RefAgentDef {
    fn default() -> Self {
        RefAgentDef {
            position: Vec3::ZERO,
            forward: Vec3::Z,
            team: 0,
            detect: SEE_HOSTILE,
            sight_enabled: true,
            eye_offset: Vec3::new(0.0, 1.6, 0.0),
            view_radius: 10.0,
            view_angle: 90.0,
            target_mask: u32::MAX,
            obstacle_mask: u32::MAX,
            hearing_enabled: true,
            hearing_sensitivity: 1.0,
            sound_mask: u32::MAX,
            decay_per_second: 0.2,
            forget_threshold: 0.05,
            brain: RefBrainConfig::default(),
        }
    }
}

/// A live agent: its definition (current pose), memory and brain.
#[derive(Clone, Debug)]
pub struct RefAgent {
    pub def: RefAgentDef,
    pub records: Vec<RefRecord>,
    pub brain: RefBrain,
}

/// A target (the player, a body).
#[derive(Clone, Debug, PartialEq)]
pub struct RefTarget {
    pub position: Vec3,
    pub team: u32,
    pub layers: u32,
    /// Offsets from the position tested for line of sight (default chest height, 1.3 m).
    pub check_points: Vec<Vec3>,
    pub enabled: bool,
}

impl Default for RefTarget {
    fn default() -> Self {
        RefTarget {
            position: Vec3::ZERO,
            team: 1,
            layers: 1,
            check_points: vec![Vec3::new(0.0, 1.3, 0.0)],
            enabled: true,
        }
    }
}

/// `SoundEvent`, plus the team and layers argus filters on.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RefSound {
    pub position: Vec3,
    /// Radius in metres.
    pub loudness: f32,
    pub source: Option<RefId>,
    pub team: u32,
    pub layers: u32,
}

/// Which sense produced a percept.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RefSense {
    Sight,
    Sound,
}

/// The lesson's `Percept`, plus who perceived what and how strongly.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RefPercept {
    pub kind: RefSense,
    pub agent: usize,
    /// The seen target, or the sound's source if it is still alive.
    pub target: Option<RefId>,
    pub position: Vec3,
    pub strength: f32,
    pub time: f32,
}

/// What one step reported.
#[derive(Clone, Debug, Default)]
pub struct RefEvents {
    /// Agent order; per agent sounds (emission order) then sights (target slot order).
    pub percepts: Vec<RefPercept>,
    /// `(agent, from, to, focus after)` when a brain's state changed over the step.
    pub brain: Vec<(usize, RefState, RefState, Option<RefId>)>,
    /// `(agent, record as it was forgotten)`.
    pub forgotten: Vec<(usize, RefRecord)>,
}

/// Targets live in slots: a freed slot is reused last-in first-out with its generation bumped.
#[derive(Clone, Debug, Default)]
struct Slot {
    generation: u32,
    target: Option<RefTarget>,
}

/// A whole world, stepped by the lesson's loops.
#[derive(Clone, Debug, Default)]
pub struct RefWorld {
    pub time: f64,
    pub agents: Vec<RefAgent>,
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// Removed occluders leave `None`.
    pub occluders: Vec<Option<RefOccluder>>,
    /// `(observer team, other team, attitude)` overriding "same team friendly, else hostile".
    attitudes: Vec<(u32, u32, RefAttitude)>,
    pending_sounds: Vec<RefSound>,
    /// Record decisions that fall near a boundary in `near` (off by default: it costs a ray).
    pub note_boundaries: bool,
    /// Decisions of the last step that fell near a boundary, with the agent that made them.
    pub near: Vec<(usize, Near)>,
    /// Check points tested for sight so far, and how many of them an occluder hid.
    pub points_tested: u64,
    pub points_blocked: u64,
}

impl RefWorld {
    pub fn new() -> RefWorld {
        RefWorld::default()
    }

    pub fn add_agent(&mut self, def: &RefAgentDef) -> usize {
        let def = RefAgentDef { forward: unit_direction(def.forward), ..*def };
        self.agents.push(RefAgent { def, records: Vec::new(), brain: RefBrain::default() });
        self.agents.len() - 1
    }

    /// New settings (and pose) for an agent; its memory and brain stay.
    pub fn set_agent_def(&mut self, agent: usize, def: &RefAgentDef) {
        self.agents[agent].def = RefAgentDef { forward: unit_direction(def.forward), ..*def };
    }

    pub fn set_agent_pose(&mut self, agent: usize, position: Vec3, forward: Vec3) {
        let def = &mut self.agents[agent].def;
        def.position = position;
        def.forward = unit_direction(forward);
    }

    /// The engine says the agent reached its investigate position.
    pub fn report_arrived(&mut self, agent: usize) {
        self.agents[agent].brain.arrived = true;
    }

    pub fn add_target(&mut self, target: RefTarget) -> RefId {
        match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                slot.target = Some(target);
                RefId { index, generation: slot.generation }
            }
            None => {
                self.slots.push(Slot { generation: 1, target: Some(target) });
                RefId { index: self.slots.len() as u32 - 1, generation: 1 }
            }
        }
    }

    pub fn target(&self, id: RefId) -> Option<&RefTarget> {
        let slot = self.slots.get(id.index as usize)?;
        if slot.generation == id.generation { slot.target.as_ref() } else { None }
    }

    pub fn target_mut(&mut self, id: RefId) -> Option<&mut RefTarget> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation == id.generation { slot.target.as_mut() } else { None }
    }

    /// Live targets in slot order.
    pub fn targets(&self) -> impl Iterator<Item = (RefId, &RefTarget)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.target.as_ref().map(|t| (RefId { index: i as u32, generation: s.generation }, t)))
    }

    /// Removes a target; every agent's memory of it goes with it.
    pub fn destroy_target(&mut self, id: RefId) {
        assert!(self.target(id).is_some(), "destroying a dead target {id:?}");
        let slot = &mut self.slots[id.index as usize];
        slot.target = None;
        slot.generation = slot.generation.wrapping_add(1).max(1);
        self.free.push(id.index);
        for agent in &mut self.agents {
            agent.records.retain(|r| r.target != id);
        }
    }

    pub fn add_occluder(&mut self, shape: RefShape, position: Vec3, rotation: Quat, layers: u32) -> usize {
        self.occluders.push(Some(RefOccluder::new(shape, position, rotation, layers)));
        self.occluders.len() - 1
    }

    pub fn occluder_mut(&mut self, index: usize) -> &mut RefOccluder {
        self.occluders[index].as_mut().expect("live occluder")
    }

    pub fn remove_occluder(&mut self, index: usize) {
        self.occluders[index] = None;
    }

    pub fn set_attitude(&mut self, observer: u32, other: u32, attitude: RefAttitude) {
        self.attitudes.retain(|&(a, b, _)| (a, b) != (observer, other));
        self.attitudes.push((observer, other, attitude));
    }

    pub fn attitude(&self, observer: u32, other: u32) -> RefAttitude {
        let set = self.attitudes.iter().find(|&&(a, b, _)| (a, b) == (observer, other));
        match set {
            Some(&(_, _, attitude)) => attitude,
            None if observer == other => RefAttitude::Friendly,
            None => RefAttitude::Hostile,
        }
    }

    fn perceives(&self, agent: &RefAgentDef, other_team: u32) -> bool {
        agent.detect & (1 << self.attitude(agent.team, other_team) as u32) != 0
    }

    /// `AudioPerception.EmitSound`: heard by every agent at the next step.
    pub fn emit_sound(&mut self, sound: RefSound) {
        self.pending_sounds.push(sound);
    }

    /// One frame: for every agent, memory decay, hearing, sight, brain.
    pub fn step(&mut self, dt: f32) -> RefEvents {
        let previous = self.time as f32;
        self.time += dt as f64;
        let time = self.time as f32;
        let sounds = std::mem::take(&mut self.pending_sounds);
        let occluders = self.occluders.iter().flatten();
        let mut agents = std::mem::take(&mut self.agents);
        let mut events = RefEvents::default();
        self.near.clear();
        let mut near = Vec::new();
        let (mut tested, mut blocked) = (0u64, 0u64);
        for (ai, agent) in agents.iter_mut().enumerate() {
            let def = agent.def;
            let state_before = agent.brain.state;

            // Memory: decay first (a fresh percept below puts it back to 1). Beyond the lesson,
            // argus's sample and hold (issue #34): a target seen at the latest sight tick is held
            // (not decayed) until a sight does not see it; then, after that sight (unless a sound
            // refreshed it this frame), it decays for the time held before this frame, then by
            // dt, as argus computes it. With sight every frame nothing is held before a frame.
            let held: Vec<RefId> = agent.records.iter().filter(|r| r.seen).map(|r| r.target).collect();
            let (rate, threshold) = (def.decay_per_second, def.forget_threshold);
            for rec in mind::decay_where(&mut agent.records, rate, threshold, dt, |r| !held.contains(&r.target)) {
                events.forgotten.push((ai, rec));
            }
            let mut sounded: Vec<RefId> = Vec::new();

            // Hearing: every sound emitted since the last step, in order.
            let mut brain_input = Vec::new();
            if def.hearing_enabled {
                for sound in &sounds {
                    if sound.layers & def.sound_mask == 0 || !self.perceives(&def, sound.team) {
                        continue;
                    }
                    let noted = near.len();
                    let heard_it = if self.note_boundaries {
                        hear_noting(def.position, def.hearing_sensitivity, sound.position, sound.loudness, &mut near)
                    } else {
                        hear(def.position, def.hearing_sensitivity, sound.position, sound.loudness)
                    };
                    near[noted..].iter_mut().for_each(|n| n.about = About::Sound(sound.position));
                    let Some(strength) = heard_it else { continue };
                    let source = sound.source.filter(|s| self.target(*s).is_some());
                    if let Some(s) = source {
                        mind::refresh(&mut agent.records, s, sound.position, time);
                        sounded.push(s);
                    }
                    brain_input.push(Heard::Sound { position: sound.position, source });
                    let percept = RefPercept {
                        kind: RefSense::Sound,
                        agent: ai,
                        target: source,
                        position: sound.position,
                        strength,
                        time,
                    };
                    events.percepts.push(percept);
                }
            }

            // Sight: FindVisibleTargets — every target in turn (the OverlapSphere on the target
            // mask, then CanSeeTarget on each of its check points).
            if def.sight_enabled {
                for rec in agent.records.iter_mut() {
                    rec.seen = false;
                }
                let viewer = Viewer {
                    eye: def.position + def.eye_offset,
                    forward: def.forward,
                    view_radius: def.view_radius,
                    view_angle: def.view_angle,
                    obstacle_mask: def.obstacle_mask,
                };
                for (id, target) in self.targets() {
                    if !target.enabled || target.layers & def.target_mask == 0 || !self.perceives(&def, target.team) {
                        continue;
                    }
                    let mut visible = 0;
                    let noted = near.len();
                    for &offset in &target.check_points {
                        let point = target.position + offset;
                        let outcome = if self.note_boundaries {
                            see_point_noting(&viewer, point, occluders.clone(), &mut near)
                        } else {
                            see_point(&viewer, point, occluders.clone())
                        };
                        match outcome {
                            PointSight::Visible => visible += 1,
                            PointSight::Blocked(_) => blocked += 1,
                            PointSight::OutOfRange | PointSight::OutsideCone => {}
                        }
                    }
                    tested += target.check_points.len() as u64;
                    near[noted..].iter_mut().for_each(|n| n.about = About::Target(id));
                    if visible == 0 {
                        continue;
                    }
                    let fraction = visible as f32 / target.check_points.len() as f32;
                    mind::refresh(&mut agent.records, id, target.position, time).seen = true;
                    brain_input.push(Heard::Sight { target: id });
                    let percept = RefPercept {
                        kind: RefSense::Sight,
                        agent: ai,
                        target: Some(id),
                        position: target.position,
                        strength: fraction,
                        time,
                    };
                    events.percepts.push(percept);
                }
            }

            // Sample and hold, the other half: a held target this sight did not see decays now.
            for rec in agent.records.iter_mut() {
                if !held.contains(&rec.target) || rec.seen || sounded.contains(&rec.target) {
                    continue;
                }
                let before = previous - rec.last_time;
                let mut gone = mind::decay(std::slice::from_mut(rec), rate, threshold, before.max(0.0));
                if before <= 0.0 || gone.is_empty() {
                    gone = mind::decay(std::slice::from_mut(rec), rate, threshold, dt);
                }
                events.forgotten.extend(gone.into_iter().map(|r| (ai, r)));
            }

            // Decisions: the brain reads only percepts and memory.
            if def.brain.enabled {
                mind::think(&mut agent.brain, &def.brain, &agent.records, def.position, &brain_input, dt);
                if agent.brain.focus.is_some_and(|f| self.target(f).is_none()) {
                    mind::focus_destroyed(&mut agent.brain);
                }
                if agent.brain.state != state_before {
                    events.brain.push((ai, state_before, agent.brain.state, agent.brain.focus));
                }
            }
            // Nothing worth keeping: forgotten and not in view.
            agent.records.retain(|r| r.confidence > 0.0 || r.seen);
            self.near.extend(near.drain(..).map(|n| (ai, n)));
        }
        self.agents = agents;
        self.points_tested += tested;
        self.points_blocked += blocked;
        events
    }
}
