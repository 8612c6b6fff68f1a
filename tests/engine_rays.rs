//! Engine rays give exactly the built-in backend's results; so do two-phase steps and any
//! number of worker threads (determinism).

mod common;
use argus_core::*;
use common::*;

const STEPS: usize = 120;
const DT: f32 = 1.0 / 30.0;

/// Everything one step reported.
type Events = StepEvents;

fn run(def: WorldDef, mode: &str, seed: u64) -> Vec<Events> {
    let mut world = World::new(&def).unwrap();
    // The "engine" keeps its own copy of the level, updated the same way (as a game would).
    let mut engine_level = World::new(&WorldDef::default()).unwrap();
    let mut scenario = Scenario::build(&mut world, seed, 40, 12, 60);
    let mut mirror = Scenario::build(&mut engine_level, seed, 40, 12, 60);
    let mut out = Vec::new();
    for _ in 0..STEPS {
        scenario.drive(&mut world);
        mirror.drive(&mut engine_level);
        let level = engine_level.occluders();
        let mut engine = |rays: &[RayQuery], hits: &mut [RayHit]| {
            for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
                let d = level.cast_ray(ray.origin, ray.direction, ray.max_distance, ray.layer_mask);
                *hit = RayHit { hit: d.is_some(), distance: d.unwrap_or(0.0) };
            }
        };
        match mode {
            "builtin" => world.step(DT).unwrap(),
            "callback" => world.step_with(DT, Rays::Engine(&mut engine)).unwrap(),
            "two-phase" => {
                let rays = world.begin_step(DT).unwrap().to_vec();
                let mut hits = vec![RayHit::default(); rays.len()];
                engine(&rays, &mut hits);
                world.finish_step(&hits).unwrap();
            }
            _ => unreachable!(),
        }
        out.push(snapshot_events(&world));
    }
    out
}

#[test]
fn engine_rays_match_the_builtin_backend_exactly() {
    for seed in [1, 2, 3] {
        let builtin = run(WorldDef::default(), "builtin", seed);
        let engine_def = WorldDef { ray_backend: RayBackend::Engine, ..Default::default() };
        assert_eq!(builtin, run(engine_def, "callback", seed), "callback, seed {seed}");
        assert_eq!(builtin, run(engine_def, "two-phase", seed), "two-phase, seed {seed}");
        let percepts: usize = builtin.iter().map(|s| s.percepts.len()).sum();
        let states: usize = builtin.iter().map(|s| s.brain.len()).sum();
        assert!(percepts > 100 && states > 10, "the scenario exercises the senses ({percepts}, {states})");
    }
}

#[test]
fn worker_threads_do_not_change_any_result() {
    let single = run(WorldDef::default(), "builtin", 7);
    for threads in [2, 3, 8] {
        let def = WorldDef { worker_threads: threads, ..Default::default() };
        assert_eq!(single, run(def, "builtin", 7), "{threads} threads");
        let engine = WorldDef { worker_threads: threads, ray_backend: RayBackend::Engine, ..Default::default() };
        assert_eq!(single, run(engine, "two-phase", 7), "{threads} threads, engine rays");
    }
}

#[test]
fn the_same_inputs_give_the_same_event_stream_every_run() {
    assert_eq!(run(WorldDef::default(), "builtin", 11), run(WorldDef::default(), "builtin", 11));
}

#[test]
fn an_engine_ray_world_refuses_to_step_without_a_ray_source() {
    let def = WorldDef { ray_backend: RayBackend::Engine, ..Default::default() };
    let mut world = World::new(&def).unwrap();
    let a = world.create_agent(&lesson_agent(Vec3::ZERO, Vec3::Z)).unwrap();
    let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    assert_eq!(world.step(0.1), Err(Error::NoRayBackend));
    assert_eq!(world.can_see(a, t), Err(Error::NoRayBackend));
    assert_eq!(world.time(), 0.0, "a refused step does not advance time");
}

#[test]
fn the_engine_sees_every_ray_with_its_agent_target_and_mask_before_answering() {
    let def = WorldDef { ray_backend: RayBackend::Engine, ..Default::default() };
    let mut world = World::new(&def).unwrap();
    let mut agent_def = lesson_agent(Vec3::ZERO, Vec3::Z);
    agent_def.sight.obstacle_mask = 0b110;
    let a = world.create_agent(&agent_def).unwrap();
    let t = world
        .create_target(&TargetDef { check_points: vec![Vec3::ZERO, Vec3::Y], ..point_target(Vec3::new(0.0, 0.0, 5.0)) })
        .unwrap();
    let rays = world.begin_step(0.1).unwrap().to_vec();
    assert_eq!(rays.len(), 2, "the ray count is known before the engine is asked");
    for r in &rays {
        assert_eq!((r.agent, r.target, r.layer_mask), (a, t, 0b110));
        assert!((r.direction.length() - 1.0).abs() < 1e-6);
    }
    assert!((rays[0].max_distance - 4.99).abs() < 1e-5, "stops 0.01 short of the point");
    // While rays are out, the world refuses changes; a wrong answer count is refused too.
    assert_eq!(world.set_target_pose(t, Vec3::ZERO, Vec3::Z), Err(Error::StepInProgress));
    assert_eq!(world.step(0.1), Err(Error::StepInProgress));
    assert!(matches!(world.finish_step(&[RayHit::default()]), Err(Error::InvalidArgument(_))));
    let bad = [RayHit { hit: true, distance: f32::NAN }, RayHit::default()];
    assert!(matches!(world.finish_step(&bad), Err(Error::InvalidArgument(_))));
    // One blocked, one clear: seen with fraction 0.5.
    world.finish_step(&[RayHit { hit: true, distance: 2.0 }, RayHit::default()]).unwrap();
    let p = &world.events().percepts;
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].strength, 0.5);
    assert_eq!(world.finish_step(&[]), Err(Error::NoStepInProgress));
}

#[test]
fn the_rays_handed_to_the_engine_come_in_the_same_order_for_every_thread_count() {
    // Collect every step's ray list from a two-phase run.
    let rays_of = |threads: u32| {
        let def = WorldDef { worker_threads: threads, ray_backend: RayBackend::Engine, ..Default::default() };
        let mut world = World::new(&def).unwrap();
        let mut scenario = Scenario::build(&mut world, 5, 40, 12, 60);
        let mut all = Vec::new();
        for _ in 0..30 {
            scenario.drive(&mut world);
            let rays = world.begin_step(DT).unwrap().to_vec();
            let hits = vec![RayHit::default(); rays.len()];
            world.finish_step(&hits).unwrap();
            all.push(rays);
        }
        all
    };
    let single = rays_of(1);
    assert!(single.iter().map(Vec::len).sum::<usize>() > 100, "the scenario casts rays");
    for threads in [2, 3, 8] {
        assert_eq!(single, rays_of(threads), "{threads} threads");
    }
}

/// Events of `STEPS` steps of the usual scenario (built-in rays) in a world made from `def`,
/// with an agent destroyed and another created every ten steps, so that some slots are empty
/// and some reused.
fn run_with_turnover(def: WorldDef, seed: u64) -> Vec<Events> {
    let mut world = World::new(&def).unwrap();
    let mut scenario = Scenario::build(&mut world, seed, 60, 12, 60);
    let mut out = Vec::new();
    for step in 0..STEPS {
        scenario.drive(&mut world);
        if step % 10 == 5 {
            let gone = scenario.agents.remove(scenario.rng.below(scenario.agents.len() as u32) as usize);
            world.destroy_agent(gone).unwrap();
            let position = Vec3::new(scenario.rng.range(-30.0, 30.0), 0.0, scenario.rng.range(-30.0, 30.0));
            if step % 20 == 5 {
                scenario.agents.push(world.create_agent(&AgentDef { position, ..Default::default() }).unwrap());
            }
        }
        world.step(DT).unwrap();
        out.push(snapshot_events(&world));
    }
    out
}

/// Small worlds step in one pass over their agents, sweeping and concluding each in turn; larger
/// ones, and any world with a sight-tick budget, sweep every due agent in spatial order first
/// (see `world/step/one_pass.rs`). A budget larger than any agent count means the same as none,
/// so it takes the other path with the same inputs: every event must be the same, on one thread
/// and on two.
#[test]
fn the_one_pass_and_the_spatial_order_give_the_same_events() {
    for seed in [3, 4] {
        for threads in [1, 2] {
            let one_pass = run_with_turnover(WorldDef { worker_threads: threads, ..Default::default() }, seed);
            let spatial =
                WorldDef { worker_threads: threads, max_sight_ticks_per_step: u32::MAX, ..Default::default() };
            assert_eq!(one_pass, run_with_turnover(spatial, seed), "seed {seed}, {threads} threads");
            let percepts: usize = one_pass.iter().map(|s| s.percepts.len()).sum();
            let forgotten: usize = one_pass.iter().map(|s| s.forgotten.len()).sum();
            assert!(percepts > 100 && forgotten > 0, "the scenario exercises the senses ({percepts}, {forgotten})");
        }
    }
}

/// A world that grows past `SORTED_STORE_MIN_AGENTS` has its agent store sorted into spatial
/// order between two steps, and its events go on exactly as those of a world that took the
/// two-stage step (which never sorts the store) all along.
#[test]
fn a_world_growing_past_the_sorted_store_size_goes_on_with_the_same_events() {
    let limit = argus_core::world::SORTED_STORE_MIN_AGENTS;
    let run = |def: WorldDef| {
        let mut world = World::new(&def).unwrap();
        let mut scenario = Scenario::build(&mut world, 9, limit - 2, 12, 60);
        let mut out = Vec::new();
        for step in 0..8 {
            if step == 4 {
                for k in 0..4 {
                    let position = Vec3::new(k as f32 * 5.0 - 10.0, 0.0, 3.0);
                    scenario.agents.push(world.create_agent(&AgentDef { position, ..Default::default() }).unwrap());
                }
            }
            scenario.drive(&mut world);
            world.step(DT).unwrap();
            out.push(snapshot_events(&world));
        }
        assert_eq!(world.agent_count(), limit + 2);
        out
    };
    let spatial = WorldDef { max_sight_ticks_per_step: u32::MAX, ..Default::default() };
    let grown = run(WorldDef::default());
    assert_eq!(grown, run(spatial));
    assert!(grown.iter().all(|s| !s.percepts.is_empty()), "every step saw something");
}

/// Issue #34: an engine source that fails ends the step with its error and changes nothing (a
/// save before and after is byte-identical; the brain does not move Chasing -> Searching, as it
/// did when a failed batch counted as blocked), and the next good step is the one that was missed.
#[test]
fn a_failing_ray_source_leaves_the_world_unchanged() {
    let mut world = World::new(&WorldDef { ray_backend: RayBackend::Engine, ..Default::default() }).unwrap();
    let guard = world.create_agent(&lesson_agent(Vec3::ZERO, Vec3::Z)).unwrap();
    world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    let mut clear = |_: &[RayQuery], hits: &mut [RayHit]| hits.fill(RayHit::default());
    for _ in 0..3 {
        world.step_with(0.1, Rays::Engine(&mut clear)).unwrap();
    }
    assert_eq!(world.agent(guard).unwrap().brain().state, BrainState::Chasing);
    world.emit_sound(&SoundDef { position: Vec3::new(2.0, 0.0, 0.0), ..Default::default() }).unwrap();
    let (before, events, time) = (world.save().unwrap(), world.events().clone(), world.time());
    struct Broken(u32);
    impl RaySource for Broken {
        fn cast_rays(&mut self, _: &[RayQuery], hits: &mut [RayHit]) -> Result<()> {
            self.0 += 1;
            hits.fill(RayHit { hit: true, distance: 0.0 });
            Err(Error::RaySourceFailed("the physics scene is gone".into()))
        }
    }
    let mut broken = Broken(0);
    let err = world.step_with(0.1, Rays::Engine(&mut broken)).unwrap_err();
    assert!(matches!(err, Error::RaySourceFailed(_)), "{err:?}");
    assert_eq!(broken.0, 1);
    assert_eq!(world.save().unwrap(), before, "byte-identical");
    assert_eq!((world.events(), world.time()), (&events, time));
    assert_eq!(world.agent(guard).unwrap().brain().state, BrainState::Chasing);
    assert!(!world.is_step_in_progress(), "the begun step was cancelled");
    assert!(matches!(
        world.can_see_with(guard, TargetId { index: 0, generation: 1 }, Rays::Engine(&mut broken)),
        Err(Error::RaySourceFailed(_))
    ));
    world.step_with(0.1, Rays::Engine(&mut clear)).unwrap();
    assert_eq!(world.time(), time + 0.1f32 as f64);
    assert_eq!(world.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sound).count(), 1, "the sound waited");
}
