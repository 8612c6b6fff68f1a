//! The grid walk against the BVH.

use super::*;
use crate::test_rng::Xorshift;

/// The sweep's grid walk must give exactly the BVH's answer, for short and long rays, small,
/// huge and moving occluders, layers and meshes.
#[test]
fn the_grid_walk_agrees_with_the_bvh_on_random_rays() {
    let mut rng = Xorshift(0x2545_f491_u64);
    let mut rand = move |lo: f32, hi: f32| rng.range(lo, hi);
    let mut set = OccluderSet::default();
    let mut movers = Vec::new();
    for i in 0..300 {
        let shape = match i % 4 {
            0 => OccluderShape::Sphere { radius: rand(0.3, 2.0) },
            1 => OccluderShape::Capsule { half_height: rand(0.2, 2.0), radius: rand(0.2, 1.0) },
            _ => OccluderShape::Box { half_extents: Vec3::new(rand(0.2, 3.0), rand(0.2, 3.0), rand(0.2, 3.0)) },
        };
        let def = OccluderDef {
            shape,
            position: Vec3::new(rand(0.0, 120.0), rand(0.0, 3.0), rand(0.0, 120.0)),
            rotation: Quat::from_rotation_y(rand(0.0, 6.0)) * Quat::from_rotation_x(rand(-0.5, 0.5)),
            layers: 1 << (i % 3),
            movable: i % 10 == 0,
            sound_transmission: None,
        };
        let id = set.add(&def).unwrap();
        if def.movable {
            movers.push(id);
        }
    }
    // A long thin wall and a big tilted ground quad: both cover far more than 64 cells.
    set.add(&OccluderDef::cuboid(Vec3::new(60.0, 1.0, 60.0), Vec3::new(55.0, 1.0, 0.2))).unwrap();
    let quad = OccluderShape::Mesh {
        vertices: vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(120.0, 2.0, 0.0),
            Vec3::new(120.0, 0.0, 120.0),
            Vec3::new(0.0, -2.0, 120.0),
        ],
        indices: vec![[0, 1, 2], [0, 2, 3]],
    };
    set.add(&OccluderDef { shape: quad, layers: 4, ..Default::default() }).unwrap();
    let mut scratch = RayScratch::default();
    let (mut checked, mut stops) = (0, 0);
    for round in 0..4 {
        set.maintain();
        for _ in 0..20_000 {
            let origin = Vec3::new(rand(-10.0, 130.0), rand(-1.0, 4.0), rand(-10.0, 130.0));
            let dir = Vec3::new(rand(-1.0, 1.0), rand(-0.3, 0.3), rand(-1.0, 1.0)).normalize_or(Vec3::X);
            let length = if rand(0.0, 1.0) < 0.8 { rand(0.0, 18.0) } else { rand(18.0, 200.0) };
            let layers = [u32::MAX, 1, 2, 4, 6][(rand(0.0, 5.0) as usize).min(4)];
            let want = set.blocks(origin, dir, length, layers);
            let got = set.blocks_swept::<false>(origin, dir, length, layers, None, &mut scratch);
            assert_eq!(got, want, "round {round}: ray from {origin} along {dir} for {length} on {layers:#b}");
            checked += want as u32;
            // Keeping the stop changes no answer, and the stop is on the occluder it names.
            scratch.stop = None;
            let kept = set.blocks_swept::<true>(origin, dir, length, layers, None, &mut scratch);
            assert_eq!(kept, want, "round {round}: keeping the stop changed the answer");
            if kept {
                let (slot, distance) = scratch.stop.expect("a blocked ray's stop");
                let (_, occluder) = set.iter().find(|(id, _)| id.index == slot).expect("a live occluder");
                let at = occluder.ray_distance(origin, dir, length).expect("the named occluder is on the ray");
                assert!((at - distance).abs() <= 1e-3 * (1.0 + at), "round {round}: stop {distance}, occluder at {at}");
                stops += 1;
            }
        }
        for &id in &movers {
            set.set_pose(id, Vec3::new(rand(0.0, 120.0), 1.0, rand(0.0, 120.0)), Quat::IDENTITY).unwrap();
        }
    }
    assert!(checked > 10_000, "the scene blocks plenty of rays ({checked})");
    assert_eq!(stops, checked);
}

/// 300 movable walls, on layers 1 and 2 by turns, over 100 m × 100 m.
fn walled_town(rand: &mut impl FnMut(f32, f32) -> f32) -> (OccluderSet, Vec<OccluderId>) {
    let mut set = OccluderSet::default();
    let mut walls = Vec::new();
    for i in 0..300 {
        let def = OccluderDef {
            shape: OccluderShape::Box { half_extents: Vec3::new(rand(1.0, 4.0), rand(0.5, 2.5), rand(0.1, 0.5)) },
            position: Vec3::new(rand(0.0, 100.0), 1.0, rand(0.0, 100.0)),
            rotation: Quat::from_rotation_y(rand(0.0, 6.3)),
            layers: 1 << (i % 2),
            movable: true,
            sound_transmission: None,
        };
        walls.push(set.add(&def).unwrap());
    }
    (set, walls)
}

/// Fans of rays from guards behind walls, as a sweep casts them: the blocker remembered from
/// one ray answers many of the next (the test fails if it never does), and every answer is
/// still the BVH's, across layers the remembered wall is not on and grids rebuilt after moves.
#[test]
fn the_remembered_blocker_answers_coherent_rays_as_the_bvh_does() {
    let mut rng = Xorshift(0x9e37_79b9_u64);
    let mut rand = move |lo: f32, hi: f32| rng.range(lo, hi);
    let (mut set, walls) = walled_town(&mut rand);
    let mut scratch = RayScratch::default();
    let (mut blocked, mut rays) = (0, 0);
    for round in 0..3 {
        set.maintain();
        for _ in 0..400 {
            let eye = Vec3::new(rand(0.0, 100.0), rand(0.5, 2.5), rand(0.0, 100.0));
            let heading = rand(0.0, 6.3);
            for k in 0..24 {
                let yaw = heading + k as f32 * 0.02;
                let dir = Vec3::new(yaw.sin(), rand(-0.05, 0.05), yaw.cos()).normalize();
                let length = rand(4.0, 20.0);
                let layers = [u32::MAX, 1, 2][k % 3];
                let want = set.blocks(eye, dir, length, layers);
                assert_eq!(
                    set.blocks_swept::<false>(eye, dir, length, layers, None, &mut scratch),
                    want,
                    "round {round}: ray from {eye} along {dir} for {length} on {layers:#b}"
                );
                (blocked, rays) = (blocked + want as u32, rays + 1);
            }
        }
        for &id in &walls[..100] {
            set.set_pose(id, Vec3::new(rand(0.0, 100.0), 1.0, rand(0.0, 100.0)), Quat::from_rotation_y(rand(0.0, 6.3)))
                .unwrap();
        }
    }
    assert!(blocked * 3 > rays, "walls block plenty of rays ({blocked} of {rays})");
    assert!(
        scratch.answered_early[1] * 5 > blocked as u64,
        "{} of {blocked} answered by the last blocker",
        scratch.answered_early[1]
    );
}

/// The same guard-to-target rays tick after tick, as the sweep casts them, each told the
/// occluder that blocked it at its last tick: that occluder answers most blocked rays (the test
/// fails if it rarely does), and every answer is still the BVH's, whatever the remembered rank
/// has become — an occluder that moved away, changed layers or was removed, a rank of an older
/// grid, one past the end, one that never blocked this ray.
#[test]
fn a_remembered_blocker_answers_repeated_rays_and_a_stale_one_changes_no_answer() {
    let mut rng = Xorshift(0x7f4a_7c15_u64);
    let mut rand = move |lo: f32, hi: f32| rng.range(lo, hi);
    let (mut set, walls) = walled_town(&mut rand);
    let pairs: Vec<(Vec3, Vec3, u32)> = (0..600)
        .map(|k| {
            let eye = Vec3::new(rand(0.0, 100.0), rand(0.5, 2.5), rand(0.0, 100.0));
            let yaw = rand(0.0, 6.3);
            let point = eye + Vec3::new(yaw.sin(), 0.0, yaw.cos()) * rand(3.0, 20.0) + Vec3::Y * rand(-0.5, 0.5);
            (eye, point, [u32::MAX, 1, 2][k % 3])
        })
        .collect();
    let mut remembered: Vec<Option<u32>> = vec![None; pairs.len()];
    let mut scratch = RayScratch::default();
    let (mut blocked_in_still_ticks, mut stale_tried) = (0u64, 0u32);
    for tick in 0..6 {
        set.maintain();
        let still = tick % 2 == 1; // the walls did not change since the last tick
        for (k, &(eye, point, layers)) in pairs.iter().enumerate() {
            let (dir, length) = ((point - eye).normalize(), eye.distance(point));
            // Now and then a rank that is no guess at all: any occluder, or none that exists.
            let guess = match k % 7 {
                0 => Some(rand(0.0, 330.0) as u32),
                _ => remembered[k],
            };
            stale_tried += (!still && guess.is_some()) as u32;
            let want = set.blocks(eye, dir, length, layers);
            let got = set.blocks_swept::<false>(eye, dir, length, layers, guess, &mut scratch);
            assert_eq!(got, want, "tick {tick}: ray {k} from {eye} to {point} on {layers:#b}, told {guess:?}");
            remembered[k] = scratch.blocker.filter(|_| got);
            blocked_in_still_ticks += (still && want) as u64;
        }
        if tick % 2 == 1 {
            // Walls move, change layers and go: ranks remembered before now name other walls.
            for (i, &id) in walls.iter().enumerate().skip(tick) {
                match i % 9 {
                    0 => set.set_pose(id, Vec3::new(rand(0.0, 100.0), 1.0, rand(0.0, 100.0)), Quat::IDENTITY).unwrap(),
                    1 => set.set_layers(id, 3 - (1 << (i % 2))).unwrap(),
                    2 if tick == 3 => set.remove(id).unwrap(),
                    _ => {}
                }
            }
        }
    }
    assert!(stale_tried > 500, "few stale guesses were tried ({stale_tried})");
    assert!(
        scratch.answered_early[0] * 2 > blocked_in_still_ticks,
        "{} answered by the remembered blocker, {blocked_in_still_ticks} blocked in still ticks",
        scratch.answered_early[0]
    );
}
