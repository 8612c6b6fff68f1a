//! Cover and flank on the world: `World::find_cover` with the world's occluders, with an engine
//! source (one batch), and in two phases (`begin_cover`, the engine casts, `finish`) all give
//! the same answer on random scenes; flank likewise; who answers the rays follows `Rays`.

mod common;
use common::Rng;

use argus_core::influence::{InfluenceMapDef, Plane};
use argus_core::tactics::{Candidates, CoverMode, CoverQuery, FlankQuery, MAX_COVER_RAYS, TacticalResult, Threat};
use argus_core::{Error, OccluderDef, RayBackend, RayHit, RayQuery, Rays, Vec3, World, WorldDef};

/// The "engine": the world's own occluders behind the batch interface.
fn cast_all(world: &World, rays: &[RayQuery]) -> Vec<RayHit> {
    rays.iter()
        .map(|r| match world.occluders().cast_ray(r.origin, r.direction, r.max_distance, r.layer_mask) {
            Some(distance) => RayHit { hit: true, distance },
            None => RayHit::default(),
        })
        .collect()
}

fn random_scene(rng: &mut Rng, backend: RayBackend) -> World {
    let mut world = World::new(&WorldDef { ray_backend: backend, ..Default::default() }).unwrap();
    for _ in 0..1 + rng.below(12) {
        let centre = Vec3::new(rng.range(-15.0, 15.0), rng.range(0.0, 2.0), rng.range(-15.0, 15.0));
        let half = Vec3::new(rng.range(0.1, 4.0), rng.range(0.3, 2.0), rng.range(0.1, 4.0));
        let mut def = OccluderDef::cuboid(centre, half);
        def.layers = 1 + rng.below(2);
        world.add_occluder(&def).unwrap();
    }
    world
}

#[test]
fn two_phase_and_engine_cover_equal_the_builtin_answer() {
    let mut rng = Rng(0x7A0_FA5E5);
    let (mut found, mut rays_handed_out, mut rays_early) = (0u32, 0u64, 0u64);
    for case in 0..300 {
        let mut world = random_scene(&mut rng, RayBackend::Builtin);
        let map = world.create_influence_map(&InfluenceMapDef::default()).unwrap();
        for _ in 0..rng.below(4) {
            let at = Vec3::new(rng.range(-10.0, 10.0), 0.0, rng.range(-10.0, 10.0));
            world.influence_map_mut(map).unwrap().add_influence(0, at, rng.range(0.0, 2.0), 3).unwrap();
        }
        let threats: Vec<Threat> = (0..1 + rng.below(4))
            .map(|_| Threat::standing(Vec3::new(rng.range(-20.0, 20.0), 0.0, rng.range(-20.0, 20.0)), Vec3::Z, 1.6))
            .collect();
        let spots: Vec<Vec3> = (0..10 + rng.below(80))
            .map(|_| Vec3::new(rng.below(30) as f32 - 15.0, 0.5, rng.below(30) as f32 - 15.0))
            .collect();
        let candidates = match rng.below(3) {
            0 => Candidates::Points(&spots),
            1 => Candidates::Grid { center: Vec3::ZERO, spacing: rng.range(0.5, 3.0), half_count: 6, plane: Plane::XZ },
            _ => Candidates::Ring {
                center: Vec3::new(rng.range(-5.0, 5.0), 0.0, 0.0),
                inner_radius: 1.0,
                outer_radius: rng.range(2.0, 15.0),
                rings: 3,
                per_ring: 12,
                plane: Plane::XZ,
            },
        };
        let q = CoverQuery {
            self_position: Vec3::new(rng.range(-10.0, 10.0), 0.0, rng.range(-10.0, 10.0)),
            threats: &threats,
            candidates,
            map: if rng.chance(0.5) { Some((world.influence_map(map).unwrap(), 0)) } else { None },
            obstacle_mask: if rng.chance(0.8) { u32::MAX } else { 1 },
            mode: if rng.chance(0.5) { CoverMode::HiddenFromAll } else { CoverMode::HiddenFromMost },
            top_k: 1 + rng.below(6) as usize,
            max_travel: if rng.chance(0.3) { rng.range(3.0, 20.0) } else { 0.0 },
            probe_offset: if rng.chance(0.3) { Vec3::new(0.0, 1.0, 0.0) } else { Vec3::ZERO },
            ..Default::default()
        };
        let mut builtin = Vec::new();
        let want = world.find_cover(&q, Rays::World, &mut builtin).unwrap();

        let pending = world.begin_cover(&q).unwrap();
        let hits = cast_all(&world, pending.rays());
        let mut two_phase =
            vec![TacticalResult { position: Vec3::ONE, score: 0.0, candidate_index: 9, hidden_from: 9 }];
        let got = pending.finish(&hits, &mut two_phase).unwrap();
        assert_eq!(two_phase, builtin, "case {case}: two-phase results");
        assert_eq!((got.position, got.found), (want.position, want.found), "case {case}");
        assert_eq!(got.rays_cast as usize, hits.len(), "two-phase rays_cast is the batch size");

        let mut batches = 0;
        let mut engine = |rays: &[RayQuery], hits: &mut [RayHit]| {
            batches += 1;
            hits.copy_from_slice(&cast_all(&world, rays));
        };
        let mut via_engine = Vec::new();
        let by_engine = world.find_cover(&q, Rays::Engine(&mut engine), &mut via_engine).unwrap();
        assert_eq!((via_engine, by_engine.position), (builtin.clone(), want.position), "case {case}: engine");
        assert!(batches <= 1, "an engine source is asked once per query, not once per ray");

        found += !builtin.is_empty() as u32;
        rays_handed_out += hits.len() as u64;
        rays_early += want.rays_cast as u64;
    }
    assert!(found > 150, "the scenes find cover often enough to compare answers: {found}");
    println!("two-phase batches: {rays_handed_out} rays; the early exit cast {rays_early}");
}

#[test]
fn rays_follow_the_world_backend_unless_the_engine_answers() {
    let mut world = World::new(&WorldDef { ray_backend: RayBackend::Engine, ..Default::default() }).unwrap();
    let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, 1.6)];
    let spots = [Vec3::new(0.0, 0.5, 7.0), Vec3::new(4.0, 0.5, 7.0)];
    let q = CoverQuery { threats: &threats, candidates: Candidates::Points(&spots), ..Default::default() };
    let mut out = Vec::new();
    assert_eq!(world.find_cover(&q, Rays::World, &mut out), Err(Error::NoRayBackend));
    // The engine's wall: only the ray towards the first spot (straight ahead) is blocked.
    let mut engine = |rays: &[RayQuery], hits: &mut [RayHit]| {
        for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
            *hit = RayHit { hit: ray.direction.x.abs() < 0.1, distance: 5.0 };
        }
    };
    let answer = world.find_cover(&q, Rays::Engine(&mut engine), &mut out).unwrap();
    assert_eq!((answer.position, answer.found), (spots[0], 1));
    // Two phases need no source in any world.
    let pending = world.begin_cover(&q).unwrap();
    assert_eq!(pending.rays().len(), 2);
    let hits: Vec<RayHit> =
        pending.rays().iter().map(|r| RayHit { hit: r.direction.x.abs() < 0.1, distance: 5.0 }).collect();
    assert!(matches!(pending.finish_ref(&hits[..1], &mut out), Err(Error::InvalidArgument(_))));
    let bad = [RayHit { hit: true, distance: f32::NAN }, RayHit::default()];
    assert!(matches!(pending.finish_ref(&bad, &mut out), Err(Error::InvalidArgument(_))));
    // Finite and >= 0 is not enough: a hit past the ray's max distance is refused too (the
    // header says so), and one exactly at it is accepted.
    let past = pending.rays()[0].max_distance * 1.001 + 1e-3;
    let beyond = [RayHit { hit: true, distance: past }, RayHit::default()];
    assert!(matches!(pending.finish_ref(&beyond, &mut out), Err(Error::InvalidArgument(_))));
    let at_end = [RayHit { hit: true, distance: pending.rays()[0].max_distance }, RayHit::default()];
    pending.finish_ref(&at_end, &mut out).unwrap();
    assert_eq!(pending.finish(&hits, &mut out).unwrap().position, spots[0]);
    // The engine's bad hit refuses the one-call query too.
    let mut liar = |_: &[RayQuery], hits: &mut [RayHit]| hits.fill(RayHit { hit: true, distance: -1.0 });
    assert!(matches!(world.find_cover(&q, Rays::Engine(&mut liar), &mut out), Err(Error::InvalidArgument(_))));
    // Sight follows the same rule.
    let agent = world.create_agent(&Default::default()).unwrap();
    let target = world.create_target(&Default::default()).unwrap();
    assert_eq!(world.can_see(agent, target), Err(Error::NoRayBackend));
    assert_eq!(world.step(0.1), Err(Error::NoRayBackend));
    world.step_with(0.1, Rays::Engine(&mut engine)).unwrap();
    let _ = &mut world;
}

#[test]
fn oversized_two_phase_cover_is_refused() {
    let world = World::default();
    let threats = vec![Threat::standing(Vec3::ZERO, Vec3::Z, 1.6); 300];
    let q = CoverQuery {
        threats: &threats,
        candidates: Candidates::Grid { center: Vec3::ZERO, spacing: 1.0, half_count: 30, plane: Plane::XZ },
        ..Default::default()
    };
    const { assert!(61 * 61 * 300 > MAX_COVER_RAYS) };
    assert!(matches!(world.begin_cover(&q), Err(Error::InvalidArgument(_))));
}

#[test]
fn two_phase_flank_equals_find_flank() {
    let mut rng = Rng(0xF1A4C);
    let world = World::default();
    for case in 0..200 {
        let spots: Vec<Vec3> =
            (0..5 + rng.below(40)).map(|_| Vec3::new(rng.range(-10.0, 10.0), 0.0, rng.range(-10.0, 10.0))).collect();
        let forward = Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)) + Vec3::Z * 0.01;
        let q = FlankQuery {
            threat: Threat::standing(Vec3::new(rng.range(-5.0, 5.0), 0.0, rng.range(-5.0, 5.0)), forward, 1.6),
            candidates: Candidates::Points(&spots),
            top_k: 1 + rng.below(4) as usize,
            ..Default::default()
        };
        let (mut direct, mut phased) = (Vec::new(), Vec::new());
        let want = world.find_flank(&q, &mut direct).unwrap();
        let pending = world.begin_flank(&q).unwrap();
        assert!(pending.rays().is_empty());
        assert!(pending.finish_ref(&[RayHit::default()], &mut phased).is_err(), "a flank takes no ray results");
        assert_eq!(pending.finish(&[], &mut phased).unwrap(), want, "case {case}");
        assert_eq!(phased, direct, "case {case}");
    }
}
