//! The courtyard demo (the README's main command), recorded from its first step to its last and
//! replayed: every frame compares equal and the replayed world saves to the same bytes.

#![allow(dead_code)]

#[path = "../../examples/courtyard/level.rs"]
mod level;
#[path = "../../examples/courtyard/script.rs"]
mod script;
#[path = "../../examples/courtyard/svg.rs"]
mod svg;
#[path = "../../examples/courtyard/tactical.rs"]
mod tactical;

use argus_core::{BrainState, RecordOptions, Replay, World, WorldDef};
use script::{Guard, Player};

const DT: f32 = 1.0 / 30.0;

#[test]
fn the_courtyard_demo_replays_exactly() {
    let level = level::courtyard();
    let mut world = World::new(&WorldDef::default()).unwrap();
    let (guard_ids, player_id) = level::build(&mut world, &level).unwrap();
    let mut guards: Vec<Guard> =
        level.guards.iter().zip(&guard_ids).map(|(spec, &id)| Guard::new(id, spec.name, spec.patrol.clone())).collect();
    let mut player = Player::new(player_id, level.player_start, level.legs.clone());
    let danger = tactical::Danger::new(&mut world, (level::WIDTH, level::DEPTH)).unwrap();
    world.start_recording(&RecordOptions::default()).unwrap();
    let steps = (40.0 / DT).round() as usize;
    let mut states = std::collections::HashSet::new();
    for _ in 0..steps {
        player.advance(&mut world, DT).unwrap();
        for g in &mut guards {
            let (position, forward) = g.advance(&mut world, &level.walls, DT).unwrap();
            world.set_agent_pose(g.id, position, forward).unwrap();
        }
        world.step(DT).unwrap();
        danger.update(&mut world, &guard_ids).unwrap();
        danger.picks(&world, &level.walls, &guard_ids, player_id).unwrap();
        states.extend(world.events().brain.iter().map(|b| b.to));
    }
    let bytes = world.stop_recording().unwrap();
    assert!(states.contains(&BrainState::Chasing) && states.contains(&BrainState::Searching), "{states:?}");
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().unwrap();
    assert_eq!(replay.steps_done() as usize, steps);
    assert!(replay.world().save().unwrap() == world.save().unwrap());
}
