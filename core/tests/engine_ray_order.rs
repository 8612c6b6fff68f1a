//! An engine-ray world's batch is in an order its replay can ask again. The recording keeps the
//! engine's answers by their place in the batch, and a replay starts from a loaded world, whose
//! agents sit in id order; a live world's agents sit in the order they came and went (a destroy
//! moves the last agent into the hole). The batch must not follow that order, or the replay hands
//! one guard's answers to another (found by the FFI fuzzer: two guards' sight swapped at step 0).

mod common;

use argus_core::record::Replay;
use argus_core::*;
use common::Rng;

/// The engine: a deterministic function of the ray, so the same ray is answered alike whichever
/// place it has in the batch.
fn engine(rays: &[RayQuery], hits: &mut [RayHit]) {
    for (r, h) in rays.iter().zip(hits.iter_mut()) {
        let hit = ((r.direction.x + 1.0) * 100.0) as i32 % 3 == 0;
        *h = RayHit { hit, distance: if hit { r.max_distance * 0.5 } else { 0.0 } };
    }
}

/// Guards crowded around a few players (several share a spatial cell), some destroyed and others
/// created into their slots, so that the store's order is not the ids' order.
fn churned_world(seed: u64, workers: u32) -> (World, Vec<TargetId>) {
    let def = WorldDef { ray_backend: RayBackend::Engine, worker_threads: workers, ..Default::default() };
    let mut w = World::new(&def).unwrap();
    let mut rng = Rng(seed);
    let guard = |rng: &mut Rng| AgentDef {
        position: rng.ground(3.0),
        forward: rng.dir(),
        sight: SightConfig { view_angle: 360.0, view_radius: 20.0, ..Default::default() },
        ..Default::default()
    };
    let mut agents: Vec<AgentId> = (0..12).map(|_| w.create_agent(&guard(&mut rng)).unwrap()).collect();
    for k in [0, 3, 4, 7] {
        w.destroy_agent(agents[k]).unwrap();
    }
    agents.retain(|&a| w.agent(a).is_ok());
    for _ in 0..6 {
        agents.push(w.create_agent(&guard(&mut rng)).unwrap());
    }
    w.destroy_agent(agents[2]).unwrap();
    let targets = (0..3)
        .map(|_| w.create_target(&TargetDef { position: rng.ground(4.0), ..Default::default() }).unwrap())
        .collect();
    (w, targets)
}

fn records_and_replays(seed: u64, workers: u32) {
    let (mut w, targets) = churned_world(seed, workers);
    let mut rng = Rng(seed ^ 0x5eed);
    w.start_recording(&RecordOptions::default()).unwrap();
    let mut seen = 0;
    for step in 0..40u32 {
        for &t in &targets {
            let p = w.target(t).unwrap().position() + rng.ground(0.3);
            w.set_target_pose(t, p, Vec3::Z).unwrap();
        }
        if step.is_multiple_of(2) {
            w.step_with(0.05, Rays::Engine(&mut engine)).unwrap();
        } else {
            let rays = w.begin_step(0.05).unwrap().to_vec();
            let mut hits = vec![RayHit::default(); rays.len()];
            engine(&rays, &mut hits);
            w.finish_step(&hits).unwrap();
        }
        seen += w.events().percepts.len();
    }
    let bytes = w.stop_recording().unwrap();
    assert!(seen > 0, "seed {seed}: the guards saw someone");
    let mut replay = Replay::new(&bytes).unwrap();
    if let Err(e) = replay.run_to_end() {
        panic!("seed {seed}, {workers} workers: {e}");
    }
    assert!(replay.world().save().unwrap() == w.save().unwrap(), "seed {seed}: the replayed world is the live one");
}

#[test]
fn an_engine_ray_world_whose_guards_came_and_went_replays() {
    for seed in 1..=12 {
        records_and_replays(seed, 0);
    }
    records_and_replays(5, 2);
}

#[test]
fn the_batch_is_in_the_guards_id_order() {
    let (mut w, _) = churned_world(3, 0);
    let rays = w.begin_step(0.05).unwrap();
    let agents: Vec<u32> = rays.iter().map(|r| r.agent.index).collect();
    assert!(!agents.is_empty());
    assert!(agents.windows(2).all(|p| p[0] <= p[1]), "rays by agent id: {agents:?}");
    let hits = vec![RayHit::default(); rays.len()];
    w.finish_step(&hits).unwrap();
}
