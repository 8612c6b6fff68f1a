//! The driver of `tests/differential.rs`: builds one random world in argus and in the reference,
//! mutates both identically before every step, steps both and compares everything observable.
#![allow(dead_code)]

use argus_core::*;

use super::diff_report::{Outcome, Stats, argus_rows, diff_text, oracle_rows, state_index, tolerable};
use super::diff_world::{self, Rng, Sizes, argus_id, ref_id};
use super::reference::*;

struct Sim {
    rng: Rng,
    sizes: Sizes,
    world: World,
    oracle: RefWorld,
    agents: Vec<AgentId>,
    targets: Vec<TargetId>,
    occluders: Vec<(OccluderId, usize)>,
    pending: Vec<RefSound>,
    verbose: bool,
    actions: Vec<String>,
}

macro_rules! act {
    ($sim:expr, $($fmt:tt)*) => {
        if $sim.verbose {
            $sim.actions.push(format!($($fmt)*));
        }
    };
}

impl Sim {
    fn add_agent(&mut self) {
        let def = diff_world::agent(&mut self.rng, self.sizes.arena);
        let id = self.world.create_agent(&diff_world::argus_agent(&def)).expect("valid agent");
        let index = self.oracle.add_agent(&def);
        assert_eq!(id.index as usize, index);
        self.agents.push(id);
    }

    fn add_target(&mut self) {
        let t = diff_world::target(&mut self.rng, self.sizes.arena);
        act!(self, "create target {t:?}");
        let id = self.world.create_target(&diff_world::argus_target(&t)).expect("valid target");
        let rid = self.oracle.add_target(t);
        assert_eq!(ref_id(id), Some(rid), "argus and the reference hand out different target slots");
        self.targets.push(id);
    }

    fn add_occluder(&mut self) {
        let shape = diff_world::shape(&mut self.rng);
        let (position, rotation) = diff_world::occluder_pose(&mut self.rng, self.sizes.arena);
        let layers = self.rng.pick(&[1, 1, 1, 2, 4, 3]);
        act!(self, "add occluder {shape:?} at {position} rot {rotation} layers {layers}");
        let id = self
            .world
            .add_occluder(&diff_world::argus_occluder(&shape, position, rotation, layers))
            .expect("valid occluder");
        let index = self.oracle.add_occluder(shape, position, rotation, layers);
        self.occluders.push((id, index));
    }

    fn set_attitude(&mut self) {
        let (a, b) = (self.rng.below(3) as u32, self.rng.below(3) as u32);
        let att = self.rng.pick(&[RefAttitude::Hostile, RefAttitude::Neutral, RefAttitude::Friendly]);
        act!(self, "attitude {a} -> {b}: {att:?}");
        self.world.set_attitude(a, b, diff_world::argus_attitude(att)).unwrap();
        self.oracle.set_attitude(a, b, att);
    }

    fn set_target_position(&mut self, t: TargetId, p: Vec3) {
        act!(self, "target {}:{} to {p}", t.index, t.generation);
        self.world.set_target_pose(t, p, Vec3::Z).unwrap();
        self.oracle.target_mut(ref_id(t).unwrap()).unwrap().position = p;
    }

    /// Puts a target's first check point exactly on an agent's view radius or cone edge.
    fn place_on_boundary(&mut self, stats: &mut Stats) {
        let ai = self.rng.below(self.agents.len());
        let t = self.targets[self.rng.below(self.targets.len())];
        let def = self.oracle.agents[ai].def;
        let first = self.oracle.target(ref_id(t).unwrap()).unwrap().check_points[0];
        let f = def.forward;
        let side = f.cross(Vec3::Y);
        let side = if side.length_squared() < 1e-6 { Vec3::X } else { side.normalize() };
        let half = (def.view_angle.min(360.0) * 0.5).to_radians();
        let (dir, dist) = if def.view_angle < 360.0 && self.rng.chance(0.5) {
            (f * half.cos() + side * half.sin(), self.rng.f(0.5, def.view_radius.max(0.6)))
        } else {
            let a = self.rng.f(0.0, half);
            (f * a.cos() + side * a.sin(), def.view_radius)
        };
        stats.boundary_placements += 1;
        self.set_target_position(t, def.position + def.eye_offset + dir * dist - first);
    }

    fn emit_sound(&mut self) {
        let arena = self.sizes.arena;
        let random = Vec3::new(self.rng.f(-arena, arena), 0.0, self.rng.f(-arena, arena));
        let live = self.targets.len();
        let (position, source) = match self.rng.below(20) {
            0..=9 if live > 0 => {
                let t = ref_id(self.targets[self.rng.below(live)]).unwrap();
                (self.oracle.target(t).unwrap().position, Some(t))
            }
            15..=17 if live > 0 => (random, ref_id(self.targets[self.rng.below(live)])),
            18 => (self.oracle.agents[self.rng.below(self.agents.len())].def.position, None),
            _ => (random, None),
        };
        let loudness = match self.rng.below(20) {
            0 => 0.0,
            1..=7 => 15.0,
            8..=12 => 6.0,
            _ => self.rng.f(0.0, 25.0),
        };
        let sound = RefSound {
            position,
            loudness,
            source,
            team: self.rng.pick(&[1, 1, 1, 1, 0, 2]),
            layers: self.rng.pick(&[1, 1, 1, 1, 2]),
        };
        act!(self, "sound {sound:?}");
        let def = SoundDef { position, loudness, source: argus_id(source), team: sound.team, layers: sound.layers };
        self.world.emit_sound(&def).unwrap();
        self.oracle.emit_sound(sound);
        self.pending.push(sound);
    }

    fn destroy_target(&mut self, stats: &mut Stats) {
        let t = self.targets.swap_remove(self.rng.below(self.targets.len()));
        let rid = ref_id(t).unwrap();
        act!(self, "destroy target {}:{}", t.index, t.generation);
        let focused = |b: &RefBrain| b.focus == Some(rid) && matches!(b.state, RefState::Chasing | RefState::Searching);
        stats.focus_destroyed += self.oracle.agents.iter().filter(|a| focused(&a.brain)).count() as u64;
        stats.dead_sources += self.pending.iter().filter(|s| s.source == Some(rid)).count() as u64;
        self.world.destroy_target(t).unwrap();
        self.oracle.destroy_target(rid);
    }

    /// The engine's part of a frame: things move, make noise, die, spawn. Returns dt.
    fn mutate(&mut self, stats: &mut Stats) -> f32 {
        let arena = self.sizes.arena;
        for t in self.targets.clone() {
            let rid = ref_id(t).unwrap();
            if self.rng.chance(0.6) {
                let current = self.oracle.target(rid).unwrap().position;
                let mut p = if self.rng.chance(0.08) {
                    Vec3::new(self.rng.f(-arena, arena), 0.0, self.rng.f(-arena, arena))
                } else {
                    current + Vec3::new(self.rng.f(-1.5, 1.5), 0.0, self.rng.f(-1.5, 1.5))
                };
                if self.rng.chance(0.1) {
                    p.y = self.rng.f(-1.0, 2.0);
                }
                self.set_target_position(t, p);
            }
            if self.rng.chance(0.04) {
                let target = self.oracle.target_mut(rid).unwrap();
                target.enabled = !target.enabled;
                act!(self, "target {}:{} enabled {}", t.index, t.generation, !self.world.target(t).unwrap().enabled());
                self.world.set_target_enabled(t, self.oracle.target(rid).unwrap().enabled).unwrap();
            }
            if self.rng.chance(0.01) {
                // A new definition in place: team, layers, check points, enabled may all change.
                let position = self.oracle.target(rid).unwrap().position;
                let def = RefTarget { position, ..diff_world::target(&mut self.rng, arena) };
                act!(self, "target {}:{} redefined {def:?}", t.index, t.generation);
                self.world.set_target_def(t, &diff_world::argus_target(&def)).unwrap();
                *self.oracle.target_mut(rid).unwrap() = def;
            }
            if self.rng.chance(0.02) {
                let points = diff_world::check_points(&mut self.rng);
                act!(self, "target {}:{} check points {points:?}", t.index, t.generation);
                self.world.set_target_check_points(t, &points).unwrap();
                self.oracle.target_mut(rid).unwrap().check_points = points;
            }
        }
        for ai in 0..self.agents.len() {
            if self.rng.chance(0.01) {
                // Retuned in place: memory and brain stay.
                let old = self.oracle.agents[ai].def;
                let def = RefAgentDef {
                    position: old.position,
                    forward: old.forward,
                    ..diff_world::agent(&mut self.rng, arena)
                };
                act!(self, "agent {ai} redefined {def:?}");
                self.world.set_agent_def(self.agents[ai], &diff_world::argus_agent(&def)).unwrap();
                self.oracle.set_agent_def(ai, &def);
            }
            if self.rng.chance(0.5) {
                let def = self.oracle.agents[ai].def;
                let position = if self.rng.chance(0.05) {
                    Vec3::new(self.rng.f(-arena, arena), 0.0, self.rng.f(-arena, arena))
                } else {
                    def.position + Vec3::new(self.rng.f(-0.7, 0.7), 0.0, self.rng.f(-0.7, 0.7))
                };
                let forward = if self.rng.chance(0.1) {
                    self.rng.facing()
                } else {
                    Quat::from_rotation_y(self.rng.f(-0.5, 0.5)) * def.forward
                };
                act!(self, "agent {ai} to {position} facing {forward}");
                self.world.set_agent_pose(self.agents[ai], position, forward).unwrap();
                self.oracle.set_agent_pose(ai, position, forward);
            }
        }
        if !self.targets.is_empty() && self.rng.chance(0.08) {
            self.place_on_boundary(stats);
        }
        if self.targets.len() > 1 && self.rng.chance(0.05) {
            // Two targets on one spot: equally near, so the chase picks the lower slot.
            let (a, b) = (self.rng.below(self.targets.len()), self.rng.below(self.targets.len()));
            let p = self.oracle.target(ref_id(self.targets[b]).unwrap()).unwrap().position;
            self.set_target_position(self.targets[a], p);
        }
        for k in 0..self.occluders.len() {
            let (id, index) = self.occluders[k];
            if self.rng.chance(self.sizes.occluder_moves) {
                let position = self.oracle.occluder_mut(index).position
                    + Vec3::new(self.rng.f(-1.0, 1.0), 0.0, self.rng.f(-1.0, 1.0));
                let rotation = self.rng.rotation();
                act!(self, "occluder {k} to {position} rot {rotation}");
                self.world.set_occluder_pose(id, position, rotation).unwrap();
                self.oracle.occluder_mut(index).set_pose(position, rotation);
            }
            if self.rng.chance(0.02) {
                let layers = self.rng.pick(&[0, 1, 2, 4, 3]);
                act!(self, "occluder {k} layers {layers}");
                self.world.set_occluder_layers(id, layers).unwrap();
                self.oracle.occluder_mut(index).layers = layers;
            }
        }
        if !self.occluders.is_empty() && self.rng.chance(0.03) {
            let (id, index) = self.occluders.swap_remove(self.rng.below(self.occluders.len()));
            act!(self, "remove occluder {index}");
            self.world.remove_occluder(id).unwrap();
            self.oracle.remove_occluder(index);
        }
        if self.occluders.len() < 8 && self.rng.chance(0.03) {
            self.add_occluder();
        }
        if self.rng.chance(0.02) {
            self.set_attitude();
        }
        self.pending.clear();
        // Now and then a burst (a crowd's footsteps landing together): from 32 sounds a step,
        // hearing goes through a grid over the sounds instead of a scan.
        let sounds = match self.rng.below(40) {
            0..=19 => 0,
            20..=33 => 1,
            34..=38 => 2 + self.rng.below(2),
            _ => 32 + self.rng.below(40),
        };
        stats.sound_bursts += (sounds >= 32) as u64;
        for _ in 0..sounds {
            self.emit_sound();
        }
        // After the sounds, so a sound's source can die before anyone hears it.
        if !self.targets.is_empty() && self.rng.chance(0.05) {
            self.destroy_target(stats);
        }
        if self.targets.len() < self.sizes.targets + 2 && self.rng.chance(0.05) {
            self.add_target();
        }
        for ai in 0..self.agents.len() {
            if self.rng.chance(0.15) {
                act!(self, "agent {ai} reports arrival");
                self.world.report_arrived(self.agents[ai]).unwrap();
                self.oracle.report_arrived(ai);
            }
        }
        diff_world::dt(&mut self.rng, self.sizes.binary_dt)
    }
}

/// Steps argus; an engine-ray world gets its rays answered by the reference's `raycast`, in one
/// batch (`step_with`) or through `begin_step` / `finish_step`.
fn step_argus(sim: &mut Sim, dt: f32) {
    if sim.world.def().ray_backend == RayBackend::Builtin {
        sim.world.step(dt).expect("argus step");
        return;
    }
    let oracle = &sim.oracle;
    let answer = |rays: &[RayQuery], hits: &mut [RayHit]| {
        for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
            let agent = &oracle.agents[ray.agent.index as usize].def;
            assert_eq!(ray.origin, agent.position + agent.eye_offset, "a ray must start at its agent's eye");
            assert!(oracle.target(ref_id(ray.target).unwrap()).is_some(), "a ray must name a live target");
            let toi =
                raycast(oracle.occluders.iter().flatten(), ray.origin, ray.direction, ray.max_distance, ray.layer_mask);
            *hit = toi.map_or(RayHit::default(), |distance| RayHit { hit: true, distance });
        }
    };
    if sim.rng.chance(0.5) {
        let mut answer = answer;
        sim.world.step_with(dt, Rays::Engine(&mut answer)).expect("argus step_with");
    } else {
        if sim.rng.chance(0.2) {
            // A step begun and abandoned leaves no trace.
            sim.world.begin_step(dt).expect("argus begin_step");
            sim.world.cancel_step();
        }
        let rays = sim.world.begin_step(dt).expect("argus begin_step").to_vec();
        let mut hits = vec![RayHit::default(); rays.len()];
        answer(&rays, &mut hits);
        sim.world.finish_step(&hits).expect("argus finish_step");
    }
}

/// Runs one world; a panic inside argus (or the reference) is reported as a mismatch.
pub fn run_world(seed: u64, verbose: bool, stats: &mut Stats) -> Outcome {
    let guarded = |verbose: bool, stats: &mut Stats| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(seed, verbose, stats))).unwrap_or_else(|panic| {
            let message = panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
            Outcome::Mismatch(format!(
                "seed {seed:#x} panicked: {}\nrerun: ARGUS_DIFF_SEED={seed:#x} cargo test --test differential -- --nocapture",
                message.unwrap_or_default()
            ))
        })
    };
    match guarded(verbose, stats) {
        // Run the same world again with the action log on, for a readable report.
        Outcome::Mismatch(first) if !verbose => match guarded(true, &mut Stats::default()) {
            Outcome::Mismatch(report) => Outcome::Mismatch(report),
            _ => Outcome::Mismatch(first),
        },
        outcome => outcome,
    }
}

fn run(seed: u64, verbose: bool, stats: &mut Stats) -> Outcome {
    let mut rng = Rng::new(seed);
    let sizes = diff_world::sizes(&mut rng);
    let world = World::new(&diff_world::world_def(&mut rng)).expect("valid world");
    let mut oracle = RefWorld::new();
    oracle.note_boundaries = true;
    let mut sim = Sim {
        rng,
        sizes,
        world,
        oracle,
        agents: Vec::new(),
        targets: Vec::new(),
        occluders: Vec::new(),
        pending: Vec::new(),
        verbose,
        actions: Vec::new(),
    };
    for _ in 0..sizes.occluders {
        sim.add_occluder();
    }
    for _ in 0..sizes.agents {
        sim.add_agent();
    }
    for _ in 0..sizes.targets {
        sim.add_target();
    }
    if sim.rng.chance(0.15) {
        sim.set_attitude();
    }
    stats.worlds += 1;
    for step in 0..sizes.steps {
        let before = if verbose { format!("{:#?}", sim.oracle) } else { String::new() };
        sim.actions.clear();
        let dt = sim.mutate(stats);
        step_argus(&mut sim, dt);
        let events = sim.oracle.step(dt);
        stats.steps += 1;
        for p in &events.percepts {
            match p.kind {
                RefSense::Sight => {
                    stats.sight_percepts += 1;
                    stats.partial_sightings += (p.strength < 1.0) as u64;
                }
                RefSense::Sound => stats.sound_percepts += 1,
            }
        }
        for &(_, from, to, _) in &events.brain {
            stats.brain[state_index(from)][state_index(to)] += 1;
        }
        stats.forgotten += events.forgotten.len() as u64;
        stats.near_steps += !sim.oracle.near.is_empty() as u64;

        let expected = oracle_rows(&sim.oracle, &events);
        let actual = argus_rows(&sim.world, &sim.agents);
        if expected == actual {
            continue;
        }
        let (agents, explained) = tolerable(&expected, &actual, sim.agents.len(), &sim.oracle.near);
        let diff: String = agents.iter().map(|&a| diff_text(&expected, &actual, a)).collect();
        let near: Vec<_> = sim.oracle.near.iter().filter(|(a, _)| agents.contains(a)).collect();
        let head = format!("seed {seed:#x} step {step} (dt {dt}): agents {agents:?} disagree");
        if explained {
            stats.tolerated += 1;
            stats.points_tested += sim.oracle.points_tested;
            stats.blocked_points += sim.oracle.points_blocked;
            let text = format!("{head}; near boundary: {near:?}");
            if stats.tolerated_examples.len() < 5 {
                stats.tolerated_examples.push(format!("{text}\n{diff}"));
            }
            return Outcome::Tolerated(text);
        }
        let order =
            if agents.is_empty() { "  (same rows per agent: the events are in a different order)\n" } else { "" };
        return Outcome::Mismatch(format!(
            "{head}\nrerun: ARGUS_DIFF_SEED={seed:#x} cargo test --test differential -- --nocapture\n\
             near-boundary decisions this step: {near:?}\n{order}{diff}\nactions before the step:\n  {}\n\
             reference world before the actions:\n{before}",
            sim.actions.join("\n  ")
        ));
    }
    stats.points_tested += sim.oracle.points_tested;
    stats.blocked_points += sim.oracle.points_blocked;
    Outcome::Agreed
}
