//! `--record FILE`: the run recorded (docs/recording.md) from its first step to its end, for the
//! inspector (tools/inspector/argus-inspector.html), streamed to the file as it is made (memory
//! stays flat however long the run: the scene prints its resident memory every ten minutes). In the scene, the demo also prints what the
//! inspector must show: which id each guard and the player got, and at the first sight ticks
//! where a guard's line to the player was blocked (and where it saw the player) the live
//! `World::can_see` answer per check point, with the wall that stopped each blocked ray found
//! from the level's own geometry.

use std::collections::{HashMap, HashSet};

use argus_core::{AgentId, OccluderId, PointStatus, RecordOptions, RecordTo, TargetId, World};

use crate::level::Wall;

/// An id as the inspector writes it: `#index`, and `.generation` for a reused slot.
pub fn id_text(index: u32, generation: u32) -> String {
    if generation > 1 { format!("#{index}.{generation}") } else { format!("#{index}") }
}

/// Starts recording into the file at `path`, written as the recording is made.
pub fn start(world: &mut World, path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let file = std::fs::File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
    let to = RecordTo::Stream(Box::new(std::io::BufWriter::new(file)));
    Ok(world.start_recording_to(&RecordOptions::default(), to)?)
}

/// Ends the recording (its last bytes written, the file closed); returns the file's size.
pub fn finish(world: &mut World, path: &str) -> Result<u64, Box<dyn std::error::Error>> {
    world.stop_recording()?;
    Ok(std::fs::metadata(path)?.len())
}

/// This process's resident memory in MB (Linux's `/proc/self/status`; `None` elsewhere).
pub fn resident_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Prints the ids line: `recording: G1 = agent #0, …, player = target #3`.
pub fn print_ids(names: &[(AgentId, &'static str)], player: TargetId) {
    let mut parts: Vec<String> =
        names.iter().map(|(id, name)| format!("{name} = agent {}", id_text(id.index, id.generation))).collect();
    parts.push(format!("player = target {}", id_text(player.index, player.generation)));
    println!("recording: {}", parts.join(", "));
}

/// The line-of-sight checks printed for the inspector's test.
pub struct Checks {
    next_sense: HashMap<AgentId, f64>,
    printed: HashSet<(AgentId, bool)>,
}

impl Checks {
    pub fn new() -> Checks {
        Checks { next_sense: HashMap::new(), printed: HashSet::new() }
    }

    /// Before a step: when each guard's next sight tick is due.
    pub fn before(&mut self, world: &World, names: &[(AgentId, &'static str)]) -> argus_core::Result<()> {
        for (id, _) in names {
            self.next_sense.insert(*id, world.agent(*id)?.next_sense_time());
        }
        Ok(())
    }

    /// After a step: for each guard whose sight ticked in it (its next tick moved), the first
    /// time its answer for the player had a blocked point and none seen, and the first time it
    /// saw the player, prints `check <time> s <guard> → player: <status per check point>`.
    pub fn after(
        &mut self,
        world: &World,
        names: &[(AgentId, &'static str)],
        player: TargetId,
        walls: &[Wall],
        wall_ids: &[OccluderId],
    ) -> argus_core::Result<()> {
        for (id, name) in names {
            let next = world.agent(*id)?.next_sense_time();
            if self.next_sense.get(id).is_none_or(|&t| t == next) {
                continue;
            }
            let sight = world.can_see(*id, player)?;
            let blocked = sight.points().iter().any(|p| p.status == PointStatus::Blocked);
            if !(sight.seen || blocked) || !self.printed.insert((*id, sight.seen)) {
                continue;
            }
            let words: Vec<String> = sight
                .points()
                .iter()
                .map(|p| match p.status {
                    PointStatus::OutOfRange => "out of range".to_string(),
                    PointStatus::OutsideCone => "outside the cone".to_string(),
                    PointStatus::Visible => "seen".to_string(),
                    PointStatus::Filtered => "filtered".to_string(),
                    PointStatus::Blocked => match walls.iter().position(|w| w.contains(p.hit, 0.02)) {
                        Some(i) => format!("blocked {}", id_text(wall_ids[i].index, wall_ids[i].generation)),
                        None => "blocked ?".to_string(),
                    },
                })
                .collect();
            println!("check {:.2} s {name} → player: {}", world.time() as f32, words.join(", "));
        }
        Ok(())
    }
}
