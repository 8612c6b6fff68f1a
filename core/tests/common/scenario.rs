//! The recording tests' random worlds: every feature of the core driven by seeded random inputs
//! (occluders, agents with belief search, targets, influence maps, the walk grid, tactical
//! queries, a snapshot loaded back), with the recording's start and stop left to the caller.

use argus_core::influence::PropagationParams;
use argus_core::tactics::{Candidates, CoverQuery, FlankQuery, Threat};
use argus_core::*;

use super::Rng;

pub fn occluder(rng: &mut Rng) -> OccluderDef {
    let position = rng.ground(20.0) + Vec3::Y;
    let shape = match rng.n(4) {
        0 => OccluderShape::Box { half_extents: Vec3::new(rng.f(0.2, 3.0), rng.f(0.5, 2.0), rng.f(0.2, 3.0)) },
        1 => OccluderShape::Sphere { radius: rng.f(0.3, 2.0) },
        2 => OccluderShape::Capsule { half_height: rng.f(0.2, 1.5), radius: rng.f(0.2, 1.0) },
        _ => OccluderShape::Mesh {
            vertices: vec![
                Vec3::new(-2.0, -1.0, 0.0),
                Vec3::new(2.0, -1.0, 0.0),
                Vec3::new(2.0, 2.0, 0.0),
                Vec3::new(-2.0, 2.0, 0.0),
            ],
            indices: vec![[0, 1, 2], [0, 2, 3]],
        },
    };
    let rotation = Quat::from_rotation_y(rng.f(0.0, 6.0));
    let (layers, movable) = (1 << rng.n(3), rng.chance(0.5));
    let sound_transmission = if rng.chance(0.3) { Some(rng.f(0.0, 1.0)) } else { None };
    OccluderDef { shape, position, rotation, layers, movable, sound_transmission }
}

pub fn agent_def(rng: &mut Rng) -> AgentDef {
    let mut d =
        AgentDef { position: rng.ground(20.0), forward: rng.dir(), team: rng.n(3) as u32, ..Default::default() };
    d.detect = [1, 0b111, 0b011][rng.n(3)];
    d.sight.view_radius = rng.f(4.0, 18.0);
    d.sight.view_angle = [60.0, 90.0, 120.0, 360.0][rng.n(4)];
    if rng.chance(0.3) {
        d.sight.lose_sight_radius = d.sight.view_radius * 1.4;
    }
    if rng.chance(0.3) {
        d.sight.peripheral_radius = rng.f(2.0, 6.0);
        d.sight.peripheral_angle = 200.0;
    }
    d.sight.rate_hz = [0.0, 5.0, 10.0, 30.0][rng.n(4)];
    d.sight.obstacle_mask = [u32::MAX, 1, 0b110][rng.n(3)];
    d.hearing.sensitivity = rng.f(0.5, 2.0);
    d.memory.decay_per_second = rng.f(0.1, 0.6);
    d.brain.search_duration = rng.f(1.0, 4.0);
    d.awareness.enabled = rng.chance(0.5);
    d
}

/// Beliefs kept, summed over the steps of every scenario run (the replays must meet some).
pub static BELIEF_STEPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Belief search for about half the agents (drawn apart from `agent_def`, which other tests
/// share).
pub fn searching_by_belief(mut d: AgentDef, rng: &mut Rng) -> AgentDef {
    if rng.chance(0.5) {
        d.brain.search = SearchKind::Belief;
        d.brain.share_belief = rng.chance(0.6);
        d.brain.search_duration = rng.f(2.0, 8.0);
    }
    d
}

pub fn target_def(rng: &mut Rng) -> TargetDef {
    let n = 1 + rng.n(4);
    let check_points = (0..n).map(|k| Vec3::new(0.0, 0.4 + 0.4 * k as f32, 0.0)).collect();
    TargetDef {
        position: rng.ground(20.0),
        forward: Vec3::Z,
        team: rng.n(3) as u32,
        layers: 1 << rng.n(2),
        check_points,
        enabled: rng.chance(0.9),
        ..Default::default()
    }
}

/// What a scenario does with a recording: starts it after the setup, looks in after each step,
/// and stops it after the inputs that follow the last step (returning its bytes).
pub trait Recording {
    fn start(&mut self, world: &mut World);
    fn after_step(&mut self, _world: &mut World, _step: usize) {}
    fn stop(&mut self, world: &mut World) -> Vec<u8>;
}

/// A recording kept in memory (`start_recording`).
struct InMemory(RecordOptions);

impl Recording for InMemory {
    fn start(&mut self, world: &mut World) {
        world.start_recording(&self.0).unwrap();
    }
    fn stop(&mut self, world: &mut World) -> Vec<u8> {
        world.stop_recording().unwrap()
    }
}

/// A random world, then `steps` steps of random inputs; `record` starts a recording after the
/// setup. Returns the world and the recording (empty when not recording). Seeds 4 and 6 share
/// out a budget of sight ticks (the two-stage step, its rays cast by the sweep).
pub fn scenario(seed: u64, steps: usize, record: Option<RecordOptions>, workers: u32) -> (World, Vec<u8>) {
    match record {
        Some(options) => scenario_recorded(seed, steps, workers, Some(&mut InMemory(options))),
        None => scenario_recorded(seed, steps, workers, None),
    }
}

/// [`scenario`] with the recording's start, steps and stop left to `record`.
pub fn scenario_recorded(
    seed: u64,
    steps: usize,
    workers: u32,
    mut record: Option<&mut dyn Recording>,
) -> (World, Vec<u8>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let budget = if seed == 4 || seed == 6 { 5 } else { 0 };
    let def = WorldDef { worker_threads: workers, max_sight_ticks_per_step: budget, ..Default::default() };
    let mut w = World::new(&def).unwrap();
    let mut occluders: Vec<OccluderId> = (0..8).map(|_| w.add_occluder(&occluder(&mut rng)).unwrap()).collect();
    let mut agents: Vec<AgentId> = (0..12)
        .map(|_| {
            let d = agent_def(&mut rng);
            w.create_agent(&searching_by_belief(d, &mut rng)).unwrap()
        })
        .collect();
    let mut targets: Vec<TargetId> = (0..8)
        .map(|_| {
            let d = target_def(&mut rng);
            w.create_target(&TargetDef { top_speed: rng.f(0.5, 3.0), ..d }).unwrap()
        })
        .collect();
    w.set_attitude(1, 2, Attitude::Neutral).unwrap();
    let walk_grid = WalkGridDef {
        origin: Vec3::new(-20.0, 0.0, -20.0),
        width: 80,
        depth: 80,
        cell_size: 0.5,
        ..Default::default()
    };
    w.set_walk_grid(&walk_grid).unwrap();
    let map_def = InfluenceMapDef {
        width: 12,
        height: 10,
        cell_size: 2.0,
        origin: Vec3::new(-12.0, 1.0, -10.0),
        layer_count: 2,
        ..Default::default()
    };
    let mut maps = vec![w.create_influence_map(&map_def).unwrap()];
    if let Some(r) = record.as_deref_mut() {
        r.start(&mut w);
    }
    let mut saved = None;
    for step in 0..steps {
        // Poses.
        for &a in &agents {
            if rng.chance(0.5) {
                let p = w.agent(a).unwrap().position() + rng.ground(0.5);
                w.set_agent_pose(a, p, rng.dir()).unwrap();
            }
        }
        let ts: Vec<TargetId> = targets.iter().copied().filter(|_| rng.chance(0.6)).collect();
        let ps: Vec<Vec3> = ts.iter().map(|&t| w.target(t).unwrap().position() + Vec3::new(0.3, 0.0, -0.2)).collect();
        w.set_target_poses(&ts, &ps, None).unwrap();
        if rng.chance(0.3) {
            let ids = [agents[0], agents[1]];
            let ps = [rng.ground(15.0), rng.ground(15.0)];
            let fs = [rng.dir(), rng.dir()];
            w.set_agent_poses(&ids, &ps, Some(&fs)).unwrap();
        }
        // Moving occluders, layers.
        for &o in &occluders {
            if w.occluder(o).unwrap().def().movable && rng.chance(0.3) {
                let p = w.occluder(o).unwrap().def().position + rng.ground(0.4);
                w.set_occluder_pose(o, p, Quat::from_rotation_y(rng.f(0.0, 6.0))).unwrap();
            }
        }
        if rng.chance(0.1) {
            w.set_occluder_layers(occluders[rng.n(occluders.len())], 1 << rng.n(3)).unwrap();
        }
        // Sounds, settings, enable/disable, check points, memory by hand, attitudes.
        if rng.chance(0.4) {
            let source = if rng.chance(0.5) { targets[rng.n(targets.len())] } else { TargetId::NULL };
            w.emit_sound(&SoundDef {
                position: rng.ground(15.0),
                loudness: rng.f(2.0, 12.0),
                source,
                ..Default::default()
            })
            .unwrap();
        }
        if rng.chance(0.15) {
            let a = agents[rng.n(agents.len())];
            let mut sight = *w.agent(a).unwrap().sight();
            sight.view_radius = rng.f(4.0, 15.0);
            sight.lose_sight_radius = 0.0;
            sight.rate_hz = [0.0, 5.0, 20.0][rng.n(3)];
            w.set_agent_sight(a, &sight).unwrap();
        }
        if rng.chance(0.05) {
            let a = agents[rng.n(agents.len())];
            let mut hearing = *w.agent(a).unwrap().hearing();
            hearing.enabled = !hearing.enabled;
            w.set_agent_hearing(a, &hearing).unwrap();
            let mut aw = *w.agent(a).unwrap().awareness();
            aw.enabled = !aw.enabled;
            w.set_agent_awareness(a, &aw).unwrap();
        }
        if rng.chance(0.1) {
            let t = targets[rng.n(targets.len())];
            let on = w.target(t).unwrap().enabled();
            w.set_target_enabled(t, !on).unwrap();
        }
        if rng.chance(0.05) {
            let t = targets[rng.n(targets.len())];
            w.set_target_check_points(t, &[Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.3, 1.6, 0.0)]).unwrap();
        }
        if rng.chance(0.1) {
            let (a, t) = (agents[rng.n(agents.len())], targets[rng.n(targets.len())]);
            w.remember(a, t, rng.ground(10.0), rng.f(0.2, 1.0)).unwrap();
        }
        if rng.chance(0.05) {
            let (a, t) = (agents[rng.n(agents.len())], targets[rng.n(targets.len())]);
            w.forget(a, t).unwrap();
        }
        if rng.chance(0.05) {
            w.report_arrived(agents[rng.n(agents.len())]).unwrap();
        }
        if rng.chance(0.05) {
            let att = [Attitude::Hostile, Attitude::Neutral, Attitude::Friendly][rng.n(3)];
            w.set_attitude(rng.n(3) as u32, rng.n(3) as u32, att).unwrap();
        }
        // Creations and destructions.
        if rng.chance(0.1) {
            let d = agent_def(&mut rng);
            agents.push(w.create_agent(&searching_by_belief(d, &mut rng)).unwrap());
        }
        if rng.chance(0.08) && agents.len() > 4 {
            let a = agents.swap_remove(2 + rng.n(agents.len() - 2));
            w.destroy_agent(a).unwrap();
        }
        if rng.chance(0.08) {
            targets.push(w.create_target(&target_def(&mut rng)).unwrap());
        }
        if rng.chance(0.06) && targets.len() > 3 {
            let t = targets.swap_remove(rng.n(targets.len()));
            w.destroy_target(t).unwrap();
        }
        if rng.chance(0.08) {
            occluders.push(w.add_occluder(&occluder(&mut rng)).unwrap());
        }
        if rng.chance(0.05) && occluders.len() > 3 {
            w.remove_occluder(occluders.swap_remove(rng.n(occluders.len()))).unwrap();
        }
        if rng.chance(0.03) {
            let a = agents[rng.n(agents.len())];
            w.set_agent_def(a, &agent_def(&mut rng)).unwrap();
        }
        if rng.chance(0.03) {
            let t = targets[rng.n(targets.len())];
            w.set_target_def(t, &target_def(&mut rng)).unwrap();
        }
        // Refused calls record nothing.
        assert!(w.destroy_agent(AgentId { index: 999, generation: 1 }).is_err());
        assert!(w.set_target_pose(targets[0], Vec3::new(f32::NAN, 0.0, 0.0), Vec3::Z).is_err());
        // Influence maps: stamps through `influence_map_mut`, blocking, propagation.
        if rng.chance(0.4) {
            let m = maps[rng.n(maps.len())];
            let map = w.influence_map_mut(m).unwrap();
            map.add_influence(0, rng.ground(10.0) + Vec3::Y, rng.f(-1.0, 1.0), 2).unwrap();
            map.set_cell(1, rng.n(12) as i32, rng.n(10) as i32, rng.f(0.0, 1.0)).unwrap();
        }
        if rng.chance(0.1) {
            w.update_influence_blocking(maps[0], u32::MAX).unwrap();
        }
        if rng.chance(0.1) {
            w.propagate_influence(maps[0], 0, &PropagationParams::default(), 1).unwrap();
        }
        if rng.chance(0.05) {
            maps.push(w.create_influence_map(&map_def).unwrap());
        }
        if rng.chance(0.04) && maps.len() > 1 {
            w.destroy_influence_map(maps.pop().unwrap()).unwrap();
        }
        // The walk graph replaced (the beliefs over the old one are dropped).
        if rng.chance(0.02) {
            w.set_walk_grid(&WalkGridDef { cell_size: [0.5, 1.0][rng.n(2)], ..walk_grid }).unwrap();
        }
        // Tactical queries (answers go to the Tactics section).
        if rng.chance(0.2) {
            let threats = [Threat::standing(rng.ground(10.0), rng.dir(), 1.6)];
            let spots: Vec<Vec3> = (0..6).map(|_| rng.ground(12.0) + Vec3::Y * 0.5).collect();
            let query = CoverQuery { threats: &threats, candidates: Candidates::Points(&spots), ..Default::default() };
            let mut out = Vec::new();
            w.find_cover(&query, Rays::World, &mut out).unwrap();
            let flank = FlankQuery { threat: threats[0], candidates: Candidates::Points(&spots), ..Default::default() };
            w.find_flank(&flank, &mut out).unwrap();
        }
        // A snapshot taken, and loaded back into the recording world later.
        if step == steps / 3 {
            saved = Some(w.save().unwrap());
        }
        if step == 2 * steps / 3 && seed.is_multiple_of(2) {
            w.load_into(saved.as_ref().unwrap()).unwrap();
            agents.retain(|&a| w.is_agent_valid(a));
            targets.retain(|&t| w.is_target_valid(t));
            occluders.retain(|&o| w.is_occluder_valid(o));
            maps.retain(|&m| w.influence_map(m).is_ok());
            if maps.is_empty() {
                maps.push(w.create_influence_map(&map_def).unwrap());
            }
            if agents.len() < 3 {
                agents.push(w.create_agent(&agent_def(&mut rng)).unwrap());
                agents.push(w.create_agent(&agent_def(&mut rng)).unwrap());
            }
            if targets.is_empty() {
                targets.push(w.create_target(&target_def(&mut rng)).unwrap());
            }
        }
        w.step([0.05, 1.0 / 30.0, 0.0, 0.1][rng.n(4)]).unwrap();
        BELIEF_STEPS.fetch_add(w.beliefs().count(), std::sync::atomic::Ordering::Relaxed);
        if let Some(r) = record.as_deref_mut() {
            r.after_step(&mut w, step);
        }
    }
    // Inputs after the last step are recorded too.
    w.set_agent_pose(agents[0], Vec3::new(1.0, 0.0, 1.0), Vec3::X).unwrap();
    w.influence_map_mut(maps[0]).unwrap().fill(1, 0.25).unwrap();
    let bytes = record.map(|r| r.stop(&mut w)).unwrap_or_default();
    assert!(!w.is_recording());
    (w, bytes)
}
