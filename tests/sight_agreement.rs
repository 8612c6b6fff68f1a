//! The immediate query and the step must never disagree (a Unity user calls both): on random
//! worlds (the differential test's generators, plus lose-sight and peripheral cones, attitudes
//! and worker threads, walls that move, change layers and go between steps), `can_see` asked
//! just before a step equals that step's sight percepts — which targets, and each one's visible
//! fraction bit for bit — and `visible_targets` lists the same targets. Both use the same
//! classifier (`sight::classify_points`); this pins it. The step also tries the occluders that
//! blocked each agent's rays at its last tick first; the moving walls make those guesses stale.
//!
//! Reproduce one world: `ARGUS_SIGHT_SEED=<seed> cargo test --test sight_agreement -- --nocapture`.

#[path = "support/diff_world.rs"]
mod diff_world;
#[path = "support/reference.rs"]
mod reference;

use argus_core::*;
use diff_world::Rng;

const WORLDS: u64 = 20_000;
const BASE_SEED: u64 = 0x5167_A6EE_0000_0000;

struct Checked {
    agents_compared: u64,
    sightings: u64,
}

fn build(seed: u64) -> (World, Rng, f32) {
    let mut rng = Rng::new(seed);
    let sizes = diff_world::sizes(&mut rng);
    let mut def = diff_world::world_def(&mut rng);
    def.ray_backend = RayBackend::Builtin; // can_see answers with the world's occluders
    let mut world = World::new(&def).unwrap();
    for _ in 0..sizes.occluders {
        let shape = diff_world::shape(&mut rng);
        let (position, rotation) = diff_world::occluder_pose(&mut rng, sizes.arena);
        let layers = rng.pick(&[1, 1, 2, 3]);
        world.add_occluder(&diff_world::argus_occluder(&shape, position, rotation, layers)).unwrap();
    }
    for _ in 0..sizes.agents {
        let mut agent = diff_world::argus_agent(&diff_world::agent(&mut rng, sizes.arena));
        let s = &mut agent.sight;
        if rng.chance(0.3) {
            s.lose_sight_radius = s.view_radius * rng.f(1.0, 2.0);
        }
        if rng.chance(0.3) {
            s.peripheral_radius = rng.f(0.0, s.view_radius.max(1.0));
            s.peripheral_angle = rng.f(s.view_angle, 360.0);
        }
        world.create_agent(&agent).unwrap();
    }
    for _ in 0..sizes.targets {
        world.create_target(&diff_world::argus_target(&diff_world::target(&mut rng, sizes.arena))).unwrap();
    }
    for _ in 0..rng.below(3) {
        let attitude = rng.pick(&[Attitude::Hostile, Attitude::Neutral, Attitude::Friendly]);
        world.set_attitude(rng.below(3) as u32, rng.below(3) as u32, attitude).unwrap();
    }
    (world, rng, sizes.arena)
}

/// Runs one world; `Err` describes the first disagreement.
fn run(seed: u64, checked: &mut Checked) -> std::result::Result<(), String> {
    let (mut world, mut rng, arena) = build(seed);
    let agents: Vec<AgentId> = world.agents().map(|(id, _)| id).collect();
    let targets: Vec<TargetId> = world.targets().map(|(id, _)| id).collect();
    let mut listed = Vec::new();
    for step in 0..12 {
        // Asked before the step: the same poses and memory the step's sweep will use.
        let mut expected = Vec::new();
        for &agent in &agents {
            let mut seen = Vec::new();
            for &target in &targets {
                let r = world.can_see(agent, target).unwrap();
                if r.seen {
                    seen.push((target, r.fraction));
                }
            }
            world.visible_targets(agent, &mut listed).unwrap();
            let from_query: Vec<TargetId> = seen.iter().map(|s| s.0).collect();
            if listed != from_query {
                return Err(format!(
                    "step {step}: agent {agent:?}: visible_targets {listed:?}, can_see {from_query:?}"
                ));
            }
            expected.push((agent, seen));
        }
        world.step(diff_world::dt(&mut rng, false)).unwrap();
        for (agent, seen) in expected {
            let percepts: Vec<(TargetId, f32)> = world
                .events()
                .percepts
                .iter()
                .filter(|p| p.agent == agent && p.kind == PerceptKind::Sight)
                .map(|p| (p.target, p.strength))
                .collect();
            let same = percepts.len() == seen.len()
                && percepts.iter().zip(&seen).all(|(p, s)| p.0 == s.0 && p.1.to_bits() == s.1.to_bits());
            if !same {
                return Err(format!("step {step}: agent {agent:?}: step percepts {percepts:?}, can_see {seen:?}"));
            }
            checked.agents_compared += 1;
            checked.sightings += seen.len() as u64;
        }
        // Move a few things so later steps see new configurations (and memory-driven hysteresis).
        for &target in &targets {
            if rng.chance(0.5) {
                let p = Vec3::new(rng.f(-arena, arena), 0.0, rng.f(-arena, arena));
                world.set_target_pose(target, p, Vec3::Z).unwrap();
            }
        }
        for &agent in &agents {
            if rng.chance(0.3) {
                let position = world.agent(agent).unwrap().position();
                world.set_agent_pose(agent, position, rng.facing()).unwrap();
            }
        }
        // Walls move, change layers and go too: the blockers each agent remembers from this
        // step (tried first at its next tick) go stale, and must change no answer.
        let occluders: Vec<OccluderId> = world.occluders().iter().map(|(id, _)| id).collect();
        for id in occluders {
            match rng.below(24) {
                0 => {
                    let (position, rotation) = diff_world::occluder_pose(&mut rng, arena);
                    world.set_occluder_pose(id, position, rotation).unwrap();
                }
                1 => world.set_occluder_layers(id, rng.pick(&[1, 2, 3])).unwrap(),
                2 => world.remove_occluder(id).unwrap(),
                _ => {}
            }
        }
    }
    Ok(())
}

#[test]
fn can_see_agrees_with_the_steps_sight_percepts_on_random_worlds() {
    let mut checked = Checked { agents_compared: 0, sightings: 0 };
    if let Some(seed) = std::env::var("ARGUS_SIGHT_SEED").ok().and_then(|s| s.parse().ok()) {
        run(seed, &mut checked).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        return;
    }
    let failures: Vec<String> = (0..WORLDS)
        .filter_map(|i| run(BASE_SEED + i, &mut checked).err().map(|e| format!("seed {}: {e}", BASE_SEED + i)))
        .take(3)
        .collect();
    println!("{} agent-steps compared, {} sightings", checked.agents_compared, checked.sightings);
    assert!(failures.is_empty(), "can_see and the step disagree:\n{}", failures.join("\n"));
    // The worlds must actually exercise sight, or agreement would be vacuous.
    assert!(checked.sightings > checked.agents_compared / 20, "too few sightings: {}", checked.sightings);
}
