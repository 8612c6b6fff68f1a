//! Which moments become SVG frames: each shot waits for the n-th brain transition of a kind,
//! then a short delay (and, for some, for the player to be in a cone but hidden), then
//! captures the world's debug-draw buffer with the danger map and tactical markers.

use std::collections::HashMap;

use argus_core::{AgentId, BrainState, DebugDraw, DebugDrawOptions, PointStatus, TargetId, Vec3, World};

use crate::svg::{Frame, Heat, Marker};

struct Shot {
    from: Option<BrainState>,
    to: BrainState,
    nth: u32,
    /// Only a transition of the guard that armed this earlier shot counts (after it armed).
    same_guard_as: Option<usize>,
    delay: f32,
    /// Wait (up to 2.5 s more) until the player is inside some cone but blocked by a wall.
    need_hidden: bool,
    /// Wait (up to 1 s more) for a step that processed a sound, so its circle shows.
    need_sound: bool,
    title: &'static str,
    detail: &'static str,
    due: Option<(f32, AgentId)>,
    done: bool,
}

const fn shot(
    from: Option<BrainState>,
    to: BrainState,
    nth: u32,
    delay: f32,
    title: &'static str,
    detail: &'static str,
) -> Shot {
    Shot {
        from,
        to,
        nth,
        same_guard_as: None,
        delay,
        need_hidden: false,
        need_sound: false,
        title,
        detail,
        due: None,
        done: false,
    }
}

pub struct Director {
    names: Vec<(AgentId, &'static str)>,
    player: TargetId,
    counts: HashMap<(Option<BrainState>, BrainState), u32>,
    shots: Vec<Shot>,
}

impl Director {
    pub fn new(names: &[(AgentId, &'static str)], player: TargetId) -> Director {
        use BrainState::*;
        let shots = vec![
            Shot {
                need_sound: true,
                ..shot(
                    Some(Idle),
                    Investigating,
                    1,
                    0.0,
                    "{g} hears a footstep → Investigating",
                    "a quiet step (loudness 6) within 6 m of {g}, behind the wall",
                )
            },
            Shot {
                need_hidden: true,
                ..shot(
                    Some(Investigating),
                    Searching,
                    1,
                    0.8,
                    "{g} at the wall → Searching",
                    "player in {g}'s cone, but the ray stops on the wall",
                )
            },
            Shot {
                need_sound: true,
                ..shot(
                    Some(Idle),
                    Investigating,
                    3,
                    0.0,
                    "loud steps → everyone Investigating",
                    "running steps (loudness 15) reach every guard",
                )
            },
            Shot {
                need_sound: true,
                ..shot(
                    None,
                    Chasing,
                    1,
                    0.3,
                    "{g} sees the player → Chasing",
                    "{g} turned to the noise and sees the player",
                )
            },
            shot(
                Some(Chasing),
                Searching,
                1,
                0.8,
                "{g} lost sight → Searching",
                "the east wall broke line of sight; {g} goes to the last known spot",
            ),
            Shot {
                same_guard_as: Some(4),
                ..shot(
                    Some(Searching),
                    Idle,
                    1,
                    0.0,
                    "{g} gives up → Idle",
                    "4 s of searching without a sighting: back to the patrol",
                )
            },
        ];
        Director { names: names.to_vec(), player, counts: HashMap::new(), shots }
    }

    /// Call after every step with that step's transitions and what the player is doing;
    /// returns the (title, detail) of each frame to capture now.
    pub fn observe(
        &mut self,
        world: &World,
        changes: &[(AgentId, BrainState, BrainState)],
        doing: &str,
    ) -> argus_core::Result<Vec<(String, String)>> {
        let time = world.time() as f32;
        for &(agent, from, to) in changes {
            for key in [(Some(from), to), (None, to)] {
                let n = self.counts.entry(key).or_default();
                *n += 1;
                let n = *n;
                for i in 0..self.shots.len() {
                    let s = &self.shots[i];
                    if s.due.is_some() || (s.from, s.to) != key {
                        continue;
                    }
                    let armed = match s.same_guard_as {
                        Some(k) => self.shots[k].due.is_some_and(|(_, a)| a == agent),
                        None => s.nth == n,
                    };
                    if armed {
                        self.shots[i].due = Some((time + s.delay, agent));
                    }
                }
            }
        }
        let hidden = self.player_hidden(world)?;
        let sound = !world.last_sounds().is_empty();
        let mut out = Vec::new();
        for s in self.shots.iter_mut() {
            let Some((due, agent)) = s.due else { continue };
            let waiting =
                (s.need_hidden && !hidden && time < due + 2.5) || (s.need_sound && !sound && time < due + 1.0);
            if s.done || time < due || waiting {
                continue;
            }
            s.done = true;
            let g = self.names.iter().find(|(a, _)| *a == agent).map_or("guard", |(_, n)| n);
            let detail = if s.need_hidden && !hidden { "no cone holds the player now" } else { s.detail };
            out.push((s.title.replace("{g}", g), format!("player {doing}; {}", detail.replace("{g}", g))));
        }
        Ok(out)
    }

    /// Some guard has the player inside its cone, with every ray blocked.
    fn player_hidden(&self, world: &World) -> argus_core::Result<bool> {
        for (id, _) in &self.names {
            let sight = world.can_see(*id, self.player)?;
            if !sight.seen && sight.points().iter().any(|p| p.status == PointStatus::Blocked) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The world as a frame: the whole debug-draw buffer, plus labels, danger map and markers.
pub fn capture(
    world: &World,
    names: &[(AgentId, &'static str)],
    player: TargetId,
    caption: (String, String),
    heat: Option<Heat>,
    markers: Vec<(Vec3, Marker)>,
) -> argus_core::Result<Frame> {
    let mut draw = DebugDraw::default();
    world.debug_draw(&DebugDrawOptions::default(), &mut draw)?;
    let mut labels = Vec::new();
    for (id, name) in names {
        let agent = world.agent(*id)?;
        labels.push((agent.position(), format!("{name} {:?}", agent.brain().state)));
    }
    labels.push((world.target(player)?.position(), "player".to_string()));
    Ok(Frame { time: world.time() as f32, title: caption.0, detail: caption.1, draw, heat, markers, labels })
}
