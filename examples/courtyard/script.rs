//! What the demo moves itself: the player along its scripted legs (with footsteps), and the
//! guards along their patrols or towards where their brains want to go.

use argus_core::{AgentId, BrainState, SoundDef, TargetId, Vec3, World};

use crate::level::{Leg, Wall};

/// Player speeds and footstep spacing.
const SNEAK_SPEED: f32 = 1.4;
const RUN_SPEED: f32 = 4.5;
const SNEAK_STRIDE: f32 = 0.7;
const RUN_STRIDE: f32 = 1.35;
/// Footstep loudness (hearing radius in metres), as in the issue: walking 6, running 15.
pub const SNEAK_LOUDNESS: f32 = 6.0;
pub const RUN_LOUDNESS: f32 = 15.0;

/// Guard speeds per brain state (m/s), turn rate (rad/s) and body radius against walls (m).
fn guard_speed(state: BrainState) -> f32 {
    match state {
        BrainState::Idle => 1.4,
        BrainState::Investigating => 2.0,
        BrainState::Chasing => 3.4,
        BrainState::Searching => 1.8,
    }
}
const TURN_RATE: f32 = 4.0;
const BODY_RADIUS: f32 = 0.4;
/// Closer than this to a patrol waypoint counts as there.
const ARRIVE_DISTANCE: f32 = 0.3;
/// Investigating and searching guards stop this far from the spot and look at it.
const LOOK_DISTANCE: f32 = 3.6;

/// The player's playback state.
pub struct Player {
    pub id: TargetId,
    pub position: Vec3,
    legs: Vec<Leg>,
    leg: usize,
    waited: f32,
    walked: f32,
    /// What the player is doing now, for captions.
    pub doing: &'static str,
}

impl Player {
    pub fn new(id: TargetId, start: Vec3, legs: Vec<Leg>) -> Player {
        Player { id, position: start, legs, leg: 0, waited: 0.0, walked: 0.0, doing: "waits" }
    }

    /// Advances the script by `dt`, moves the target and emits its footsteps.
    pub fn advance(&mut self, world: &mut World, dt: f32) -> argus_core::Result<()> {
        let Some(&leg) = self.legs.get(self.leg) else {
            self.doing = "waits";
            return Ok(());
        };
        let (goal, speed, stride, loudness) = match leg {
            Leg::Wait(seconds) => {
                self.doing = "hides";
                self.waited += dt;
                if self.waited >= seconds {
                    self.waited = 0.0;
                    self.leg += 1;
                }
                return Ok(());
            }
            Leg::Sneak(x, z) => (Vec3::new(x, 0.0, z), SNEAK_SPEED, SNEAK_STRIDE, SNEAK_LOUDNESS),
            Leg::Run(x, z) => (Vec3::new(x, 0.0, z), RUN_SPEED, RUN_STRIDE, RUN_LOUDNESS),
        };
        self.doing = if speed == RUN_SPEED { "runs" } else { "sneaks" };
        let to = goal - self.position;
        let dist = to.length();
        let step = (speed * dt).min(dist);
        let forward = if dist > 1e-4 { to / dist } else { Vec3::Z };
        self.position += forward * step;
        world.set_target_pose(self.id, self.position, forward)?;
        self.walked += step;
        if self.walked >= stride {
            self.walked -= stride;
            let sound = SoundDef { position: self.position, loudness, source: self.id, ..Default::default() };
            world.emit_sound(&sound)?;
        }
        if dist - step < 1e-4 {
            self.leg += 1;
        }
        Ok(())
    }
}

/// One guard's legs: patrol while Idle, otherwise walk or run to the brain's move target,
/// report arrival while Investigating, look left and right on the spot while Searching.
pub struct Guard {
    pub id: AgentId,
    pub name: &'static str,
    patrol: Vec<Vec3>,
    waypoint: usize,
    heading: f32,
    reported: bool,
    /// Heading on arrival and seconds spent looking around, while Searching on the spot.
    scan: Option<(f32, f32)>,
}

/// Heading angle of a ground direction (0 = +Z, π/2 = +X).
fn heading_of(v: Vec3) -> f32 {
    v.x.atan2(v.z)
}

fn forward_of(heading: f32) -> Vec3 {
    Vec3::new(heading.sin(), 0.0, heading.cos())
}

/// Turns `from` towards `to` by at most `max` radians, the short way round.
fn turn(from: f32, to: f32, max: f32) -> f32 {
    let tau = std::f32::consts::TAU;
    let delta = (to - from + std::f32::consts::PI).rem_euclid(tau) - std::f32::consts::PI;
    from + delta.clamp(-max, max)
}

impl Guard {
    pub fn new(id: AgentId, name: &'static str, patrol: Vec<Vec3>) -> Guard {
        let heading = if patrol.len() > 1 { heading_of(patrol[1] - patrol[0]) } else { 0.0 };
        Guard { id, name, waypoint: 1 % patrol.len().max(1), patrol, heading, reported: false, scan: None }
    }

    /// Where the guard stands and faces after this step's movement. A wall in the way makes
    /// the guard slide along it; when it can get no closer, it counts as arrived.
    pub fn advance(&mut self, world: &mut World, walls: &[Wall], dt: f32) -> argus_core::Result<(Vec3, Vec3)> {
        let agent = world.agent(self.id)?;
        let (mut position, state) = (agent.position(), agent.brain().state);
        if state != BrainState::Investigating {
            self.reported = false;
        }
        let goal = match state {
            BrainState::Idle => self.patrol.get(self.waypoint).copied(),
            _ => world.move_target(self.id)?,
        };
        let mut want = self.heading;
        let to = goal.map_or(Vec3::ZERO, |g| Vec3::new(g.x - position.x, 0.0, g.z - position.z));
        let stop = match state {
            BrainState::Investigating | BrainState::Searching => LOOK_DISTANCE,
            _ => ARRIVE_DISTANCE,
        };
        let mut there = to.length() <= stop;
        if !there {
            let step = to.normalize() * (guard_speed(state) * dt).min(to.length() - stop);
            let next = slide(position, step, walls);
            // A wall in the way: this is as close as the guard gets.
            there = (next - position).dot(to.normalize()) < 0.2 * step.length();
            position = next;
            want = heading_of(to);
        }
        if !there {
            self.scan = None;
        } else {
            match state {
                BrainState::Idle if !self.patrol.is_empty() => self.waypoint = (self.waypoint + 1) % self.patrol.len(),
                BrainState::Investigating if !self.reported => {
                    world.report_arrived(self.id)?;
                    self.reported = true;
                }
                BrainState::Searching => {
                    let (base, t) = self.scan.get_or_insert((want, 0.0));
                    *t += dt;
                    want = *base + 1.0 * (*t * 1.5).sin();
                }
                _ => {}
            }
        }
        self.heading = turn(self.heading, want, TURN_RATE * dt);
        let forward = forward_of(self.heading);
        Ok((position, forward))
    }
}

/// Moves `from` by `step` unless that ends inside a wall; then tries each axis alone.
pub fn slide(from: Vec3, step: Vec3, walls: &[Wall]) -> Vec3 {
    let free = |p: Vec3| !walls.iter().any(|w| w.blocks(p, BODY_RADIUS));
    for candidate in [from + step, from + Vec3::new(step.x, 0.0, 0.0), from + Vec3::new(0.0, 0.0, step.z)] {
        if free(candidate) {
            return candidate;
        }
    }
    from
}
