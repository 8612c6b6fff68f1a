//! The readable timeline on stdout: what each guard perceived and how its brain changed, with
//! sight reported when it starts and stops (not every tick) and footsteps at most every 2 s.

use std::collections::HashMap;

use argus_core::{AgentId, BrainState, PerceptKind, TargetId, World};

use crate::script::RUN_LOUDNESS;

/// Seconds between two "heard" lines of the same guard.
const HEARD_QUIET_PERIOD: f32 = 2.0;

/// Counts of brain transitions, keyed by (from, to).
#[derive(Default)]
pub struct Transitions(pub HashMap<(BrainState, BrainState), u32>);

impl Transitions {
    pub fn add(&mut self, from: BrainState, to: BrainState) {
        *self.0.entry((from, to)).or_default() += 1;
    }

    /// How many transitions entered `to` (from any state other than `to`).
    pub fn entering(&self, to: BrainState) -> u32 {
        self.0.iter().filter(|((_, t), _)| *t == to).map(|(_, n)| n).sum()
    }

    pub fn get(&self, from: BrainState, to: BrainState) -> u32 {
        self.0.get(&(from, to)).copied().unwrap_or(0)
    }

    /// All transitions, in a fixed order, as `Idle→Chasing 2, ...`.
    pub fn summary(&self) -> String {
        let mut all: Vec<_> = self.0.iter().collect();
        all.sort_by_key(|((f, t), _)| (*f as u8, *t as u8));
        all.iter().map(|((f, t), n)| format!("{f:?}→{t:?} {n}")).collect::<Vec<_>>().join(", ")
    }
}

/// Prints the timeline and keeps the counts.
pub struct Timeline {
    names: HashMap<AgentId, &'static str>,
    player: TargetId,
    seeing: HashMap<AgentId, bool>,
    last_heard: HashMap<AgentId, (f32, u32)>,
    pub transitions: Transitions,
    pub quiet: bool,
}

impl Timeline {
    pub fn new(names: &[(AgentId, &'static str)], player: TargetId) -> Timeline {
        Timeline {
            names: names.iter().copied().collect(),
            player,
            seeing: HashMap::new(),
            last_heard: HashMap::new(),
            transitions: Transitions::default(),
            quiet: false,
        }
    }

    fn name(&self, id: AgentId) -> &'static str {
        self.names.get(&id).copied().unwrap_or("guard")
    }

    fn print(&self, time: f32, who: &str, what: String) {
        if !self.quiet {
            println!("  {time:6.2} s  {who:<3} {what}");
        }
    }

    /// Reads everything the last step reported. Returns the brain transitions of this step.
    pub fn record(&mut self, world: &World) -> argus_core::Result<Vec<(AgentId, BrainState, BrainState)>> {
        let time = world.time() as f32;
        let events = world.events();
        for p in events.percepts.iter().filter(|p| p.kind == PerceptKind::Sound) {
            let (last, skipped) = self.last_heard.get(&p.agent).copied().unwrap_or((f32::NEG_INFINITY, 0));
            if time - last < HEARD_QUIET_PERIOD {
                self.last_heard.insert(p.agent, (last, skipped + 1));
                continue;
            }
            let distance = world.agent(p.agent)?.position().distance(p.position);
            let loudness = world.last_sounds().iter().find(|s| s.position == p.position).map_or(0.0, |s| s.loudness);
            let what = match (p.target == self.player, loudness >= RUN_LOUDNESS) {
                (true, true) => "a running step",
                (true, false) => "a quiet step",
                (false, _) => "a noise",
            };
            let more = if skipped > 0 { format!(" (+{skipped} more since)") } else { String::new() };
            self.print(
                time,
                self.name(p.agent),
                format!(
                    "heard {what} (loudness {loudness:.0}), {distance:.1} m away, strength {:.2}{more}",
                    p.strength
                ),
            );
            self.last_heard.insert(p.agent, (time, 0));
        }
        // Sight is reported on the sense ticks; the memory's `seen` flag holds between ticks.
        let ids: Vec<AgentId> = self.names.keys().copied().collect();
        let mut changes = Vec::new();
        for id in ids {
            let seen = world.memory_of(id, self.player)?.is_some_and(|r| r.seen);
            let was = self.seeing.insert(id, seen).unwrap_or(false);
            if seen != was {
                changes.push((id, seen));
            }
        }
        changes.sort_by_key(|(id, _)| id.index);
        for (id, seen) in changes {
            let what = if seen {
                let rec = world.memory_of(id, self.player)?.expect("seen implies a record");
                format!("sees the player ({:.0}% visible)", rec.visibility * 100.0)
            } else {
                "lost sight of the player".to_string()
            };
            self.print(time, self.name(id), what);
        }
        for f in &events.forgotten {
            let at = f.position;
            self.print(time, self.name(f.agent), format!("forgot the player (last known at {:.1}, {:.1})", at.x, at.z));
        }
        let mut out = Vec::new();
        for e in &events.brain {
            self.transitions.add(e.from, e.to);
            let why = match (e.from, e.to) {
                (BrainState::Idle, BrainState::Investigating) => "goes to look",
                (_, BrainState::Chasing) => "gives chase",
                (BrainState::Chasing, BrainState::Searching) => "lost the player, searches",
                (BrainState::Investigating, BrainState::Searching) => "arrived, searches",
                (BrainState::Searching, BrainState::Idle) => "gives up, back to patrol",
                _ => "",
            };
            self.print(time, self.name(e.agent), format!("{:?} → {:?}  {why}", e.from, e.to));
            out.push((e.agent, e.from, e.to));
        }
        Ok(out)
    }
}
