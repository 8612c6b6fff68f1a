//! Random API call sequences with extreme (but finite) values. Whatever the API accepts, save
//! accepts; loading that save gives a world that continues exactly like the original; and no
//! value Argus returns is ever infinite or NaN. Also the individual limits behind that promise.

mod common;
use argus_core::influence::{CombineOp, Extremum, LayerWeight, PropagationParams};
use argus_core::math::{MAX_COORDINATE, MAX_MAGNITUDE};
use argus_core::world::MAX_WORLD_TIME;
use argus_core::*;
use common::finite::assert_world_outputs_finite;
use common::*;

/// A coordinate: ordinary, at the accepted edge, or just beyond it (refused).
fn coord(rng: &mut Rng) -> f32 {
    let edge = [0.0, 1.0, -3.5, MAX_COORDINATE, -MAX_COORDINATE, 0.999 * MAX_COORDINATE, 1.5 * MAX_COORDINATE, 3.0e38];
    if rng.chance(0.5) { rng.range(-30.0, 30.0) } else { edge[rng.below(edge.len() as u32) as usize] }
}

fn point(rng: &mut Rng) -> Vec3 {
    Vec3::new(coord(rng), coord(rng), coord(rng))
}

/// A non-negative scalar (radius, loudness, multiplier, rate, dt): ordinary or extreme.
fn scalar(rng: &mut Rng) -> f32 {
    let edge = [
        0.0,
        f32::MIN_POSITIVE,
        1.0e-30,
        1.0,
        360.0,
        400.0,
        MAX_MAGNITUDE,
        0.5 * MAX_MAGNITUDE,
        2.0 * MAX_MAGNITUDE,
        f32::MAX,
    ];
    if rng.chance(0.5) { rng.range(0.0, 20.0) } else { edge[rng.below(edge.len() as u32) as usize] }
}

fn direction(rng: &mut Rng) -> Vec3 {
    let d = Vec3::new(rng.range(-1.0, 1.0), rng.range(-0.2, 0.2), rng.range(-1.0, 1.0));
    if rng.chance(0.1) { d * MAX_COORDINATE } else { d + Vec3::new(0.01, 0.0, 0.0) }
}

/// Applies one random call (refusals are fine, crashes are not); true if it was a step that ran.
fn random_call(world: &mut World, rng: &mut Rng) -> bool {
    let agents: Vec<AgentId> = world.agents().map(|(id, _)| id).collect();
    let targets: Vec<TargetId> = world.targets().map(|(id, _)| id).collect();
    let maps: Vec<InfluenceMapId> = (0..8u32)
        .flat_map(|i| (1..3).map(move |g| InfluenceMapId { index: i, generation: g }))
        .filter(|&id| world.influence_map(id).is_ok())
        .collect();
    let pick = |rng: &mut Rng, n: usize| rng.below(n as u32) as usize;
    match rng.below(12) {
        0 if agents.len() < 12 => {
            let mut d = AgentDef { position: point(rng), forward: direction(rng), ..Default::default() };
            d.sight.eye_offset = point(rng);
            d.sight.view_radius = scalar(rng);
            d.sight.view_angle = scalar(rng);
            d.sight.rate_hz = if rng.chance(0.5) { 0.0 } else { scalar(rng) };
            d.hearing.sensitivity = scalar(rng);
            d.memory.decay_per_second = scalar(rng);
            d.brain.search_duration = scalar(rng);
            d.brain.investigate_timeout = scalar(rng);
            d.awareness.enabled = rng.chance(0.5);
            d.awareness.rise_per_second = scalar(rng);
            let _ = world.create_agent(&d);
        }
        1 if targets.len() < 8 => {
            let check_points = (0..rng.below(4)).map(|_| point(rng)).collect();
            let _ = world.create_target(&TargetDef { position: point(rng), check_points, ..Default::default() });
        }
        2 => {
            let shape = match rng.below(3) {
                0 => OccluderShape::Box { half_extents: point(rng).abs() },
                1 => OccluderShape::Sphere { radius: scalar(rng) },
                _ => OccluderShape::Capsule { half_height: scalar(rng), radius: scalar(rng) },
            };
            let _ = world.add_occluder(&OccluderDef { shape, position: point(rng), ..Default::default() });
        }
        3 if !agents.is_empty() => {
            let _ = world.set_agent_pose(agents[pick(rng, agents.len())], point(rng), direction(rng));
        }
        4 if !targets.is_empty() => {
            let _ = world.set_target_pose(targets[pick(rng, targets.len())], point(rng), direction(rng));
        }
        5 => {
            let source =
                if targets.is_empty() || rng.chance(0.3) { TargetId::NULL } else { targets[pick(rng, targets.len())] };
            let _ = world.emit_sound(&SoundDef {
                position: point(rng),
                loudness: scalar(rng),
                source,
                ..Default::default()
            });
        }
        6 | 7 => {
            let dt = if rng.chance(0.7) { 1.0 / 30.0 } else { scalar(rng) };
            return world.step(dt).is_ok();
        }
        8 if maps.len() < 3 => {
            let def = InfluenceMapDef {
                width: 1 + rng.below(6),
                height: 1 + rng.below(6),
                cell_size: if rng.chance(0.5) { 1.0 } else { scalar(rng) },
                origin: point(rng),
                layer_count: 2,
                ..Default::default()
            };
            let _ = world.create_influence_map(&def);
        }
        9 | 10 if !maps.is_empty() => {
            let id = maps[pick(rng, maps.len())];
            let value = if rng.chance(0.5) { scalar(rng) } else { -scalar(rng) };
            let (p, radius) = (point(rng), scalar(rng));
            let m = world.influence_map_mut(id).unwrap();
            let _ = match rng.below(6) {
                0 => m.add_influence(0, p, value, rng.below(3) as i32),
                1 => m.scale(pick(rng, 2), value),
                2 => m.combine(
                    pick(rng, 2),
                    [CombineOp::WeightedSum, CombineOp::Multiply, CombineOp::Max][pick(rng, 3)],
                    &[LayerWeight { layer: 0, weight: value }, LayerWeight { layer: 1, weight: scalar(rng) }],
                ),
                3 => m.set_value(pick(rng, 2), p, value),
                4 => m.fill(1, value),
                _ => world.propagate_influence(id, 0, &PropagationParams { decay: radius, momentum: 0.5 }, 0),
            };
            let m = world.influence_map(id).unwrap();
            for layer in 0..2 {
                assert!(m.layer(layer).unwrap().iter().all(|v| v.is_finite() && v.abs() <= MAX_MAGNITUDE));
                if let Ok(Some(best)) = m.best_cell(layer, point(rng), radius, Extremum::Max) {
                    assert!(best.position.is_finite() && best.value.is_finite(), "best cell {best:?}");
                }
                if let Ok(v) = m.sample(layer, point(rng)) {
                    assert!(v.is_finite());
                }
            }
        }
        _ if !agents.is_empty() && !targets.is_empty() => {
            let (a, t) = (agents[pick(rng, agents.len())], targets[pick(rng, targets.len())]);
            let _ = world.remember(a, t, point(rng), rng.range(0.0, 1.0));
        }
        _ => {}
    }
    false
}

/// Same events (once both have stepped since the load), same save: indistinguishable.
fn assert_same(a: &World, b: &World, stepped: bool, context: &str) {
    if stepped {
        assert_eq!(snapshot_events(a), snapshot_events(b), "{context}: events differ");
    }
    assert!(a.save().unwrap() == b.save().unwrap(), "{context}: saves differ");
}

#[test]
fn random_calls_with_extreme_values_always_save_load_and_continue_identically() {
    let mut loads = 0;
    for seed in 1..=40u64 {
        let mut rng = Rng(seed * 0x9E37_79B9);
        let mut world = World::default();
        for call in 0..300 {
            random_call(&mut world, &mut rng);
            assert!(world.time().is_finite() && world.time() <= MAX_WORLD_TIME);
            assert_world_outputs_finite(&world);
            if call % 25 == 24 {
                let bytes = world.save().expect("save accepts whatever the API accepted");
                let mut twin = World::load(&bytes).expect("a world's own save always loads");
                loads += 1;
                assert!(twin.save().unwrap() == bytes, "seed {seed} call {call}: re-save differs");
                // Continue both with the same calls; they must stay identical.
                let mut rng_twin = Rng(rng.0);
                let mut stepped = false;
                for k in 0..10 {
                    let a = random_call(&mut world, &mut rng);
                    let b = random_call(&mut twin, &mut rng_twin);
                    assert_eq!(a, b, "seed {seed} call {call}+{k}: one world stepped, the other did not");
                    stepped |= a;
                    assert_same(&world, &twin, stepped, &format!("seed {seed} call {call}+{k}"));
                }
            }
        }
    }
    assert!(loads >= 400);
}

#[test]
fn a_huge_step_is_refused_and_the_clock_stays_finite() {
    let mut world = World::default();
    assert!(matches!(world.step(f32::MAX), Err(Error::InvalidArgument(_))));
    world.step(f32::MAX).unwrap_err();
    assert_eq!(world.time(), 0.0);
    world.step(9.0e8).unwrap();
    assert!(world.step(2.0e8).is_err(), "past the maximum world time");
    world.step(1.0e8).unwrap();
    assert_eq!(world.time(), MAX_WORLD_TIME);
    let bytes = world.save().unwrap();
    assert_eq!(World::load(&bytes).unwrap().time(), MAX_WORLD_TIME);
}

#[test]
fn values_beyond_the_finite_range_are_refused_at_the_boundary() {
    let mut world = World::default();
    let far = AgentDef { position: Vec3::new(3.0e38, 0.0, 0.0), ..Default::default() };
    assert!(matches!(world.create_agent(&far), Err(Error::InvalidArgument(_))));
    let mut eye = AgentDef::default();
    eye.sight.eye_offset = Vec3::new(0.0, 3.0e38, 0.0);
    assert!(matches!(world.create_agent(&eye), Err(Error::InvalidArgument(_))));
    let mut deaf = AgentDef::default();
    deaf.hearing.sensitivity = f32::MAX;
    assert!(matches!(world.create_agent(&deaf), Err(Error::InvalidArgument(_))));
    let loud = SoundDef { loudness: f32::MAX, ..Default::default() };
    assert!(matches!(world.emit_sound(&loud), Err(Error::InvalidArgument(_))));
    for def in [
        InfluenceMapDef { origin: Vec3::splat(f32::MAX), ..Default::default() },
        InfluenceMapDef { cell_size: f32::MAX, ..Default::default() },
    ] {
        assert!(matches!(world.create_influence_map(&def), Err(Error::InvalidArgument(_))));
    }
    // At the limits everything is accepted and stays finite: loudness × sensitivity = 1e18.
    let mut edge = AgentDef { position: Vec3::splat(MAX_COORDINATE), ..Default::default() };
    edge.sight.eye_offset = Vec3::splat(MAX_COORDINATE);
    edge.hearing.sensitivity = MAX_MAGNITUDE;
    world.create_agent(&edge).unwrap();
    let source =
        world.create_target(&TargetDef { position: Vec3::splat(-MAX_COORDINATE), ..Default::default() }).unwrap();
    world
        .emit_sound(&SoundDef {
            position: Vec3::splat(-MAX_COORDINATE),
            loudness: MAX_MAGNITUDE,
            source,
            ..Default::default()
        })
        .unwrap();
    world.step(0.1).unwrap();
    assert!(!world.events().percepts.is_empty(), "the loudest sound is heard across the world");
    assert_world_outputs_finite(&world);
    let map = world
        .create_influence_map(&InfluenceMapDef {
            origin: Vec3::splat(MAX_COORDINATE),
            cell_size: MAX_MAGNITUDE,
            ..Default::default()
        })
        .unwrap();
    let m = world.influence_map_mut(map).unwrap();
    m.fill(0, MAX_MAGNITUDE).unwrap();
    m.scale(0, MAX_MAGNITUDE).unwrap();
    assert!(m.layer(0).unwrap().iter().all(|&v| v == MAX_MAGNITUDE), "saturated, not infinite");
    let best = m.best_cell(0, Vec3::splat(MAX_COORDINATE), MAX_MAGNITUDE, Extremum::Max).unwrap().unwrap();
    assert!(best.position.is_finite());
}

#[test]
fn a_view_angle_of_400_means_all_around() {
    let mut world = World::default();
    let mut def = AgentDef::default();
    def.sight.view_angle = 400.0;
    let guard = world.create_agent(&def).unwrap();
    let behind = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, -5.0), ..Default::default() }).unwrap();
    assert!(world.can_see(guard, behind).unwrap().seen);
}

#[test]
fn a_huge_candidate_grid_is_refused_without_overflow() {
    let world = World::default();
    for half_count in [0x8000_0000u32, u32::MAX, 1 << 16] {
        let grid = Candidates::Grid { center: Vec3::ZERO, spacing: 1.0, half_count, plane: Plane::XZ };
        assert!(grid.count() > tactics::MAX_CANDIDATES as u64);
        let mut out = Vec::new();
        assert!(matches!(grid.generate(&mut out), Err(Error::InvalidArgument(_))), "half_count {half_count}");
    }
    let ring = Candidates::Ring {
        center: Vec3::ZERO,
        inner_radius: 0.0,
        outer_radius: 1.0,
        rings: u32::MAX,
        per_ring: u32::MAX,
        plane: Plane::XZ,
    };
    assert!(ring.count() > tactics::MAX_CANDIDATES as u64);
    drop(world);
}

#[test]
fn an_engine_hit_beyond_the_ray_is_refused() {
    let mut world = World::new(&WorldDef { ray_backend: RayBackend::Engine, ..Default::default() }).unwrap();
    world.create_agent(&AgentDef::default()).unwrap();
    world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 5.0), ..Default::default() }).unwrap();
    let mut too_far = |rays: &[RayQuery], hits: &mut [RayHit]| {
        for (r, h) in rays.iter().zip(hits.iter_mut()) {
            *h = RayHit { hit: true, distance: r.max_distance + 1.0 };
        }
    };
    let before = world.save().unwrap();
    assert!(matches!(world.step_with(0.1, Rays::Engine(&mut too_far)), Err(Error::InvalidArgument(_))));
    assert!(world.save().unwrap() == before, "a refused step changes nothing");
    let mut at_end = |rays: &[RayQuery], hits: &mut [RayHit]| {
        for (r, h) in rays.iter().zip(hits.iter_mut()) {
            *h = RayHit { hit: true, distance: r.max_distance };
        }
    };
    world.step_with(0.1, Rays::Engine(&mut at_end)).unwrap();
}

#[test]
fn a_snapshot_naming_a_dead_target_is_refused() {
    // A guard chasing a target, saved; then the target's slot is made stale in the bytes.
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef::default()).unwrap();
    let player = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 4.0), ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    assert_eq!(world.agent(guard).unwrap().brain().focus, player);
    world.forget(guard, player).unwrap();
    world.emit_sound(&SoundDef { position: Vec3::ONE, loudness: 3.0, source: player, ..Default::default() }).unwrap();
    let bytes = world.save().unwrap();
    let fields = snapshot::trace_fields(&bytes).unwrap();
    // Every u32 equal to the target's generation, one at a time: each names a dead target once
    // bumped (the focus, the sound's source) or breaks the pool itself.
    let mut refused = 0;
    for f in fields.iter().filter(|f| f.kind == snapshot::FieldKind::U32) {
        let at = snapshot::PAYLOAD_OFFSET + f.offset;
        if u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) != player.generation {
            continue;
        }
        let mut forged = bytes.clone();
        forged[at..at + 4].copy_from_slice(&(player.generation + 1).to_le_bytes());
        snapshot::reseal(&mut forged);
        match World::load(&forged) {
            Err(Error::BadSnapshot(_)) => refused += 1,
            Ok(w) => assert!(w.save().unwrap() == forged, "accepted only if canonical"),
            Err(e) => panic!("{e:?}"),
        }
    }
    assert!(refused >= 3, "pool generation, brain focus and sound source are all checked ({refused})");
}

/// A brain may still hold the id of a target destroyed since the last step (it gives up at the
/// next one), and a pending sound its source's: such a save loads and continues identically.
#[test]
fn a_save_right_after_destroying_a_focused_target_loads() {
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef::default()).unwrap();
    let player = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 4.0), ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    world.emit_sound(&SoundDef { position: Vec3::ONE, loudness: 3.0, source: player, ..Default::default() }).unwrap();
    world.destroy_target(player).unwrap();
    assert_eq!(world.agent(guard).unwrap().brain().focus, player);
    let bytes = world.save().unwrap();
    let mut twin = World::load(&bytes).expect("a world's own save loads");
    world.step(0.1).unwrap();
    twin.step(0.1).unwrap();
    assert_eq!(snapshot_events(&world), snapshot_events(&twin));
    assert_eq!(world.agent(guard).unwrap().brain().state, BrainState::Idle);
}

#[test]
fn a_snapshot_time_of_1e300_is_refused() {
    let bytes = World::default().save().unwrap();
    let fields = snapshot::trace_fields(&bytes).unwrap();
    let time = fields.iter().find(|f| f.kind == snapshot::FieldKind::F64).unwrap();
    for t in [1.0e300, MAX_WORLD_TIME * 1.01, -1.0, f64::INFINITY] {
        let mut forged = bytes.clone();
        let at = snapshot::PAYLOAD_OFFSET + time.offset;
        forged[at..at + 8].copy_from_slice(&t.to_le_bytes());
        snapshot::reseal(&mut forged);
        assert!(matches!(World::load(&forged), Err(Error::BadSnapshot(_))), "time {t}");
    }
}

#[test]
fn a_load_keeps_the_hosts_runtime_settings() {
    let mut host =
        World::new(&WorldDef { ray_backend: RayBackend::Engine, worker_threads: 2, ..Default::default() }).unwrap();
    let mut saved = World::new(&WorldDef { sound_occlusion: 0.5, ..Default::default() }).unwrap();
    saved.create_agent(&AgentDef::default()).unwrap();
    host.load_into(&saved.save().unwrap()).unwrap();
    assert_eq!(host.def().ray_backend, RayBackend::Engine);
    assert_eq!(host.def().worker_threads, 2);
    assert_eq!(host.def().sound_occlusion, 0.5, "the snapshot carries the world's rules");
    // And the other way round: a built-in world stays built-in after loading an engine world.
    let mut builtin = World::default();
    builtin.load_into(&host.save().unwrap()).unwrap();
    assert_eq!(builtin.def().ray_backend, RayBackend::Builtin);
    builtin.step(0.1).unwrap();
}

/// A target the agent does not perceive (friendly team, disabled, masked) is reported as
/// filtered, not as out of range, even right in front of the eye.
#[test]
fn can_see_reports_a_filtered_target_as_filtered() {
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef::default()).unwrap();
    let friend =
        world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 3.0), team: 0, ..Default::default() }).unwrap();
    let foe = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 30.0), ..Default::default() }).unwrap();
    let near = world.can_see(guard, friend).unwrap();
    assert!(!near.seen && !near.perceivable);
    assert_eq!(near.points()[0].status, PointStatus::Filtered);
    assert_eq!(world.can_see(guard, foe).unwrap().points()[0].status, PointStatus::OutOfRange);
    world.set_target_enabled(foe, false).unwrap();
    assert_eq!(world.can_see(guard, foe).unwrap().points()[0].status, PointStatus::Filtered);
}
