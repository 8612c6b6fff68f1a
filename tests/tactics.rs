//! Tactical queries: hand-built scenes with known answers, the lesson's loops as an oracle,
//! deterministic ties, top-K order, and the early exit against exhaustive evaluation.

mod common;
use common::Rng;

use std::cell::Cell;

use argus_core::influence::{InfluenceMap, InfluenceMapDef, Plane};
use argus_core::occluders::OccluderSet;
use argus_core::tactics::{
    Candidates, CoverMode, CoverQuery, FlankQuery, MAX_CANDIDATES, TacticalResult, Threat, find_cover, find_flank,
};
use argus_core::{Error, OccluderDef, Vec3};

fn walls(boxes: &[(Vec3, Vec3)]) -> OccluderSet {
    let mut set = OccluderSet::default();
    for &(centre, half) in boxes {
        set.add(&OccluderDef::cuboid(centre, half)).unwrap();
    }
    set
}

fn danger_map() -> InfluenceMap {
    InfluenceMap::new(&InfluenceMapDef {
        width: 40,
        height: 40,
        origin: Vec3::new(-20.0, 0.0, -20.0),
        ..Default::default()
    })
    .unwrap()
}

/// The lesson's `FindBestCover`, ported plainly: one threat, every ray cast, strict `<`.
fn lesson_cover(self_pos: Vec3, eye: Vec3, candidates: &[Vec3], map: &InfluenceMap, occ: &OccluderSet) -> Vec3 {
    let (mut best, mut best_score) = (self_pos, f32::MAX);
    for &c in candidates {
        let to = c - eye;
        let blocked = to.length() > 0.0 && occ.cast_ray(eye, to.normalize(), to.length(), u32::MAX).is_some();
        if !blocked {
            continue;
        }
        let score = map.value(0, c).unwrap() * 10.0 + self_pos.distance(c);
        if score < best_score {
            (best, best_score) = (c, score);
        }
    }
    best
}

/// The lesson's `FindFlankPosition`, ported plainly.
fn lesson_flank(enemy: Vec3, forward: Vec3, candidates: &[Vec3], map: &InfluenceMap) -> Vec3 {
    let (mut best, mut best_score) = (enemy, f32::MIN);
    for &c in candidates {
        let facing = forward.dot((c - enemy).normalize_or_zero());
        if facing > 0.3 {
            continue;
        }
        let score = -facing - map.value(0, c).unwrap();
        if score > best_score {
            (best, best_score) = (c, score);
        }
    }
    best
}

const EYE: f32 = 1.6;

#[test]
fn cover_picks_the_spot_behind_the_wall_then_avoids_danger() {
    let occ = walls(&[(Vec3::new(0.0, 1.0, 5.0), Vec3::new(2.0, 1.5, 0.2))]);
    let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, EYE)];
    let behind = Vec3::new(0.0, 0.5, 7.0);
    let open = Vec3::new(5.0, 0.5, 7.0); // the ray passes the wall's end
    let also_behind = Vec3::new(-1.0, 0.5, 8.0);
    let spots = [open, behind, also_behind];
    let me = Vec3::new(3.0, 0.0, 8.0);
    let mut q = CoverQuery {
        self_position: me,
        threats: &threats,
        candidates: Candidates::Points(&spots),
        ..Default::default()
    };
    let mut out = Vec::new();
    let answer = find_cover(&q, &occ, &mut out).unwrap();
    assert_eq!((answer.position, answer.found), (behind, 1));
    assert_eq!(
        out[0],
        TacticalResult { position: behind, score: me.distance(behind), candidate_index: 1, hidden_from: 1 }
    );
    // Danger at the nearer spot: danger · 10 + distance now favours the other one.
    let mut map = danger_map();
    map.add_influence(0, behind, 1.0, 0).unwrap();
    q.map = Some((&map, 0));
    let answer = find_cover(&q, &occ, &mut out).unwrap();
    assert_eq!(answer.position, also_behind);
    assert!(me.distance(behind) + 10.0 > me.distance(also_behind));
    assert_eq!(answer.position, lesson_cover(me, threats[0].eye, &spots, &map, &occ));
    // Nothing hidden: none found, and the answer is the agent's own position.
    q.candidates = Candidates::Points(&spots[..1]);
    let answer = find_cover(&q, &occ, &mut out).unwrap();
    assert_eq!((answer.position, answer.found, out.len()), (me, 0, 0));
}

#[test]
fn flank_prefers_behind_then_beside_and_skips_the_front() {
    let threat = Threat::standing(Vec3::ZERO, Vec3::Z, EYE);
    let front = Vec3::new(0.0, 0.0, 5.0);
    let front_diagonal = Vec3::new(3.0, 0.0, 3.0); // facing 0.707 > 0.3
    let beside = Vec3::new(5.0, 0.0, 0.0);
    let behind = Vec3::new(0.0, 0.0, -5.0);
    let spots = [front, front_diagonal, beside, behind];
    let mut q = FlankQuery { threat, candidates: Candidates::Points(&spots), top_k: 4, ..Default::default() };
    let mut out = Vec::new();
    let answer = find_flank(&q, &mut out).unwrap();
    assert_eq!((answer.position, answer.found), (behind, 2), "front spots are skipped");
    assert_eq!((out[0].score, out[1].score), (1.0, 0.0), "score = −facing − danger");
    assert_eq!((out[0].candidate_index, out[1].candidate_index), (3, 2));
    let mut map = danger_map();
    map.add_influence(0, behind, 2.0, 0).unwrap();
    q.map = Some((&map, 0));
    assert_eq!(find_flank(&q, &mut out).unwrap().position, beside, "danger behind tips it to the side");
    assert_eq!(lesson_flank(threat.position, threat.forward, &spots, &map), beside);
    let strict = FlankQuery { max_facing_dot: 0.0, map: None, ..q };
    let answer = find_flank(&strict, &mut out).unwrap();
    assert_eq!((answer.found, out[1].position), (2, beside), "facing exactly at the limit still counts");
    q.candidates = Candidates::Points(&spots[..2]);
    let answer = find_flank(&q, &mut out).unwrap();
    assert_eq!((answer.position, answer.found), (threat.position, 0), "none found: the threat's position");
}

#[test]
fn ties_go_to_the_lower_candidate_index() {
    let threat = Threat::standing(Vec3::ZERO, Vec3::Z, EYE);
    let (left, right) = (Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0));
    let mut out = Vec::new();
    for spots in [[left, right], [right, left]] {
        let q = FlankQuery { threat, candidates: Candidates::Points(&spots), top_k: 2, ..Default::default() };
        find_flank(&q, &mut out).unwrap();
        assert_eq!((out[0].position, out[0].candidate_index, out[1].candidate_index), (spots[0], 0, 1));
        assert_eq!(out[0].score, out[1].score);
    }
    // Cover: two hidden spots equally far from the agent.
    let occ = walls(&[(Vec3::new(0.0, 1.0, 5.0), Vec3::new(4.0, 1.5, 0.2))]);
    let threats = [threat];
    for spots in
        [[Vec3::new(-1.0, 0.5, 7.0), Vec3::new(1.0, 0.5, 7.0)], [Vec3::new(1.0, 0.5, 7.0), Vec3::new(-1.0, 0.5, 7.0)]]
    {
        let q = CoverQuery {
            self_position: Vec3::new(0.0, 0.5, 9.0),
            threats: &threats,
            candidates: Candidates::Points(&spots),
            ..Default::default()
        };
        assert_eq!(find_cover(&q, &occ, &mut out).unwrap().position, spots[0]);
        assert_eq!(out[0].candidate_index, 0);
    }
}

#[test]
fn top_k_is_ordered_best_first() {
    let threat = Threat::standing(Vec3::ZERO, Vec3::Z, EYE);
    let spots: Vec<Vec3> = (0..24)
        .map(|i| {
            let a = i as f32 * 0.2618; // 15° steps round the threat
            Vec3::new(a.sin() * 4.0, 0.0, a.cos() * 4.0)
        })
        .collect();
    let mut out = Vec::new();
    let q = FlankQuery { threat, candidates: Candidates::Points(&spots), top_k: 5, ..Default::default() };
    find_flank(&q, &mut out).unwrap();
    let mut all: Vec<(f32, u32)> = spots
        .iter()
        .enumerate()
        .map(|(i, s)| (-threat.forward.dot(s.normalize()), i as u32))
        .filter(|&(score, _)| -score <= 0.3)
        .collect();
    all.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap().then(a.1.cmp(&b.1)));
    let got: Vec<(f32, u32)> = out.iter().map(|r| (r.score, r.candidate_index)).collect();
    assert_eq!(got, all[..5]);
    assert!(got.windows(2).all(|w| w[0].0 >= w[1].0));
    // Cover top-K: every spot is hidden behind a big wall, so the order is by distance.
    let occ = walls(&[(Vec3::new(0.0, 1.0, 2.0), Vec3::new(50.0, 5.0, 0.2))]);
    let threats = [threat];
    let spots: Vec<Vec3> = (0..10).map(|i| Vec3::new((i as f32 * 7.3) % 10.0 - 5.0, 0.5, 6.0)).collect();
    let q = CoverQuery { threats: &threats, candidates: Candidates::Points(&spots), top_k: 4, ..Default::default() };
    let answer = find_cover(&q, &occ, &mut out).unwrap();
    let mut by_distance: Vec<u32> = (0..10).collect();
    by_distance
        .sort_by(|&a, &b| spots[a as usize].length().partial_cmp(&spots[b as usize].length()).unwrap().then(a.cmp(&b)));
    assert_eq!(out.iter().map(|r| r.candidate_index).collect::<Vec<_>>(), by_distance[..4]);
    assert_eq!(answer.rays_cast, 4, "the first four visited were all hidden: no more rays");
}

#[test]
fn several_threats_hidden_from_all_or_from_most() {
    let occ = walls(&[
        (Vec3::new(-1.0, 1.0, 0.0), Vec3::new(0.2, 2.0, 1.0)), // shields A from the left threat
        (Vec3::new(-1.0, 1.0, 10.0), Vec3::new(0.2, 2.0, 2.0)), // B is shielded on both sides
        (Vec3::new(1.0, 1.0, 10.0), Vec3::new(0.2, 2.0, 2.0)),
    ]);
    let threats = [
        Threat::standing(Vec3::new(-10.0, 0.0, 0.0), Vec3::X, EYE),
        Threat::standing(Vec3::new(10.0, 0.0, 0.0), -Vec3::X, EYE),
    ];
    let (a, b, c) = (Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 0.5, 10.0), Vec3::new(0.0, 0.5, 20.0));
    let spots = [c, a, b];
    let mut q =
        CoverQuery { threats: &threats, candidates: Candidates::Points(&spots), top_k: 3, ..Default::default() };
    let mut out = Vec::new();
    find_cover(&q, &occ, &mut out).unwrap();
    assert_eq!(out.iter().map(|r| (r.position, r.hidden_from)).collect::<Vec<_>>(), [(b, 2)]);
    q.mode = CoverMode::HiddenFromMost;
    find_cover(&q, &occ, &mut out).unwrap();
    assert_eq!(
        out.iter().map(|r| (r.position, r.hidden_from)).collect::<Vec<_>>(),
        [(b, 2), (a, 1)],
        "C is seen by both"
    );
    // Early exit: with A (hidden from 1) in hand, C needs both threats, so its first visible
    // ray settles it: 2 rays for A + 1 for C.
    let spots = [c, a];
    q.candidates = Candidates::Points(&spots);
    q.top_k = 1;
    let answer = find_cover(&q, &occ, &mut out).unwrap();
    assert_eq!((answer.position, answer.rays_cast), (a, 3));
}

/// Exhaustive cover: every ray cast, then sorted by (hidden desc, score, index).
fn exhaustive_cover(q: &CoverQuery, spots: &[Vec3], occ: &OccluderSet) -> Vec<TacticalResult> {
    let mut all = Vec::new();
    for (i, &s) in spots.iter().enumerate() {
        let hidden = q
            .threats
            .iter()
            .filter(|t| {
                let to = s - t.eye;
                occ.cast_ray(t.eye, to / to.length(), to.length(), q.obstacle_mask).is_some()
            })
            .count() as u32;
        let wanted = match q.mode {
            CoverMode::HiddenFromAll => q.threats.len() as u32,
            CoverMode::HiddenFromMost => 1,
        };
        let danger = q.map.map_or(0.0, |(m, l)| m.value(l, s).unwrap());
        let score = danger * q.weights.danger + q.self_position.distance(s) * q.weights.distance;
        if hidden >= wanted {
            all.push(TacticalResult { position: s, score, candidate_index: i as u32, hidden_from: hidden });
        }
    }
    all.sort_by(|x, y| {
        y.hidden_from
            .cmp(&x.hidden_from)
            .then(x.score.partial_cmp(&y.score).unwrap())
            .then(x.candidate_index.cmp(&y.candidate_index))
    });
    all.truncate(q.top_k);
    all
}

#[test]
fn early_exit_gives_the_exhaustive_answer_with_fewer_rays() {
    let mut rng = Rng(0xC0FF_EE12_3456_789B);
    let (mut rays_early, mut rays_all) = (0u64, 0u64);
    let (mut found_some, mut mixed_hidden) = (0, 0);
    for case in 0..150 {
        let boxes: Vec<(Vec3, Vec3)> = (0..1 + rng.below(12))
            .map(|_| {
                (
                    Vec3::new(rng.range(-15.0, 15.0), rng.range(0.0, 2.0), rng.range(-15.0, 15.0)),
                    Vec3::new(rng.range(0.1, 4.0), rng.range(0.3, 2.0), rng.range(0.1, 4.0)),
                )
            })
            .collect();
        let occ = walls(&boxes);
        let threats: Vec<Threat> = (0..1 + rng.below(4))
            .map(|_| Threat::standing(Vec3::new(rng.range(-20.0, 20.0), 0.0, rng.range(-20.0, 20.0)), Vec3::Z, EYE))
            .collect();
        let spots: Vec<Vec3> = (0..20 + rng.below(150))
            .map(|_| {
                // Coarse coordinates make equal scores (ties) common.
                Vec3::new(rng.below(30) as f32 - 15.0, 0.5, rng.below(30) as f32 - 15.0)
            })
            .collect();
        let mut map = danger_map();
        for _ in 0..rng.below(5) {
            map.add_influence(
                0,
                spots[rng.below(spots.len() as u32) as usize],
                rng.range(0.0, 2.0),
                rng.below(4) as i32,
            )
            .unwrap();
        }
        let q = CoverQuery {
            self_position: Vec3::new(rng.range(-10.0, 10.0), 0.0, rng.range(-10.0, 10.0)),
            threats: &threats,
            candidates: Candidates::Points(&spots),
            map: if rng.below(2) == 0 { Some((&map, 0)) } else { None },
            mode: if rng.below(2) == 0 { CoverMode::HiddenFromAll } else { CoverMode::HiddenFromMost },
            top_k: 1 + rng.below(8) as usize,
            ..Default::default()
        };
        let counted = Cell::new(0u64);
        let blocker = |o: Vec3, d: Vec3, dist: f32, layers: u32| {
            counted.set(counted.get() + 1);
            occ.cast_ray(o, d, dist, layers).is_some()
        };
        let mut out = Vec::new();
        let answer = find_cover(&q, &blocker, &mut out).unwrap();
        assert_eq!(out, exhaustive_cover(&q, &spots, &occ), "case {case}");
        assert_eq!(answer.rays_cast as u64, counted.get());
        assert_eq!(answer.position, out.first().map_or(q.self_position, |r| r.position));
        if threats.len() == 1 && q.top_k == 1 && q.mode == CoverMode::HiddenFromAll {
            let zero = danger_map();
            let m = q.map.map_or(&zero, |(m, _)| m);
            assert_eq!(answer.position, lesson_cover(q.self_position, threats[0].eye, &spots, m, &occ), "case {case}");
        }
        rays_early += counted.get();
        rays_all += (spots.len() * threats.len()) as u64;
        found_some += !out.is_empty() as u32;
        mixed_hidden += out.windows(2).any(|w| w[0].hidden_from != w[1].hidden_from) as u32;
    }
    assert!(rays_early < rays_all / 2, "early exit cast {rays_early} of {rays_all} rays");
    assert!(found_some > 100 && mixed_hidden > 5, "the scenes exercise the ranking: {found_some} {mixed_hidden}");
}

#[test]
fn flank_matches_the_lesson_on_random_scenes() {
    let mut rng = Rng(7);
    let mut out = Vec::new();
    for _ in 0..200 {
        let angle = rng.range(0.0, std::f32::consts::TAU);
        let threat = Threat::standing(
            Vec3::new(rng.range(-5.0, 5.0), 0.0, rng.range(-5.0, 5.0)),
            Vec3::new(angle.cos(), 0.0, angle.sin()),
            EYE,
        );
        let spots: Vec<Vec3> =
            (0..1 + rng.below(40)).map(|_| Vec3::new(rng.range(-15.0, 15.0), 0.0, rng.range(-15.0, 15.0))).collect();
        let mut map = danger_map();
        map.add_influence(0, spots[0], rng.range(0.0, 3.0), rng.below(6) as i32).unwrap();
        let q =
            FlankQuery { threat, candidates: Candidates::Points(&spots), map: Some((&map, 0)), ..Default::default() };
        let answer = find_flank(&q, &mut out).unwrap();
        let forward = threat.forward.normalize();
        assert_eq!(answer.position, lesson_flank(threat.position, forward, &spots, &map));
    }
}

#[test]
fn generated_candidates_follow_the_documented_order() {
    let mut points = Vec::new();
    let grid = Candidates::Grid { center: Vec3::new(1.0, 2.0, 1.0), spacing: 2.0, half_count: 1, plane: Plane::XZ };
    grid.generate(&mut points).unwrap();
    let want: Vec<Vec3> =
        [-1.0f32, 1.0, 3.0].iter().flat_map(|&z| [-1.0f32, 1.0, 3.0].map(|x| Vec3::new(x, 2.0, z))).collect();
    assert_eq!(points, want);
    assert_eq!(grid.count(), 9);
    let ring = Candidates::Ring {
        center: Vec3::new(1.0, 2.0, 3.0),
        inner_radius: 2.0,
        outer_radius: 6.0,
        rings: 2,
        per_ring: 4,
        plane: Plane::XY,
    };
    ring.generate(&mut points).unwrap();
    assert_eq!(points.len(), 8);
    let expected = [(3.0, 0.0), (0.0, 3.0), (-3.0, 0.0), (0.0, -3.0), (5.0, 0.0), (0.0, 5.0), (-5.0, 0.0), (0.0, -5.0)];
    for (p, (dx, dy)) in points.iter().zip(expected) {
        assert!((*p - Vec3::new(1.0 + dx, 2.0 + dy, 3.0)).length() < 1e-5, "{p}");
    }
    // Results name generated candidates by their generation index.
    let threat = Threat::standing(Vec3::new(1.0, 0.0, 1.0), Vec3::Z, EYE);
    let q = FlankQuery { threat, candidates: grid, top_k: 9, ..Default::default() };
    let mut out = Vec::new();
    find_flank(&q, &mut out).unwrap();
    grid.generate(&mut points).unwrap();
    assert!(out.len() >= 3);
    for r in &out {
        assert_eq!(points[r.candidate_index as usize], r.position);
    }
}

#[test]
fn max_travel_and_probe_offset_filter_spots() {
    // A low wall (1 m): it hides a spot on the ground but not a head 1.5 m above it.
    let occ = walls(&[(Vec3::new(0.0, 0.5, 5.0), Vec3::new(3.0, 0.5, 0.2))]);
    let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, 1.0)];
    let (near, far) = (Vec3::new(0.0, 0.1, 6.0), Vec3::new(2.0, 0.1, 7.0));
    let spots = [near, far];
    let mut q = CoverQuery {
        self_position: near,
        threats: &threats,
        candidates: Candidates::Points(&spots),
        top_k: 2,
        ..Default::default()
    };
    let mut out = Vec::new();
    assert_eq!(find_cover(&q, &occ, &mut out).unwrap().found, 2);
    q.max_travel = 1.0;
    find_cover(&q, &occ, &mut out).unwrap();
    assert_eq!(out.iter().map(|r| r.position).collect::<Vec<_>>(), [near], "the far spot is beyond max travel");
    q.max_travel = 0.0;
    q.probe_offset = Vec3::new(0.0, 1.5, 0.0);
    assert_eq!(find_cover(&q, &occ, &mut out).unwrap().found, 0, "a standing head shows over the wall");
}

#[test]
fn threat_from_a_world_agent() {
    let mut world = argus_core::World::default();
    let def = argus_core::AgentDef { position: Vec3::new(1.0, 0.0, 2.0), forward: Vec3::X, ..Default::default() };
    let agent = world.create_agent(&def).unwrap();
    let t = Threat::from_agent(world.agent(agent).unwrap());
    assert_eq!((t.position, t.eye, t.forward), (Vec3::new(1.0, 0.0, 2.0), Vec3::new(1.0, 1.6, 2.0), Vec3::X));
}

#[test]
fn bad_queries_are_refused_and_leave_the_output_alone() {
    let occ = walls(&[]);
    let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, EYE)];
    let spots = [Vec3::new(1.0, 0.0, 1.0)];
    let nan = Vec3::new(0.0, f32::NAN, 0.0);
    let bad_spots = [Vec3::ONE, nan];
    let map = danger_map();
    let good = CoverQuery { threats: &threats, candidates: Candidates::Points(&spots), ..Default::default() };
    let huge = Candidates::Grid { center: Vec3::ZERO, spacing: 1.0, half_count: 1000, plane: Plane::XZ };
    assert!(huge.count() > MAX_CANDIDATES as u64);
    let bad_cover = [
        CoverQuery { self_position: nan, ..good },
        CoverQuery { threats: &[], ..good },
        CoverQuery { top_k: 0, ..good },
        CoverQuery { map: Some((&map, 1)), ..good },
        CoverQuery { candidates: Candidates::Points(&bad_spots), ..good },
        CoverQuery { candidates: huge, ..good },
        CoverQuery {
            candidates: Candidates::Grid { spacing: 0.0, half_count: 1, center: Vec3::ZERO, plane: Plane::XZ },
            ..good
        },
        CoverQuery {
            candidates: Candidates::Ring {
                center: Vec3::ZERO,
                inner_radius: 3.0,
                outer_radius: 1.0,
                rings: 1,
                per_ring: 4,
                plane: Plane::XZ,
            },
            ..good
        },
        CoverQuery {
            candidates: Candidates::Ring {
                center: Vec3::ZERO,
                inner_radius: 1.0,
                outer_radius: 3.0,
                rings: 0,
                per_ring: 4,
                plane: Plane::XZ,
            },
            ..good
        },
        CoverQuery { max_travel: -1.0, ..good },
        CoverQuery { probe_offset: nan, ..good },
        CoverQuery { weights: argus_core::tactics::CoverWeights { danger: f32::INFINITY, distance: 1.0 }, ..good },
    ];
    let sentinel = TacticalResult { position: Vec3::splat(9.0), score: 9.0, candidate_index: 9, hidden_from: 9 };
    let mut out = vec![sentinel];
    for (i, q) in bad_cover.iter().enumerate() {
        let r = find_cover(q, &occ, &mut out);
        assert!(matches!(r, Err(Error::InvalidArgument(_))), "cover case {i}: {r:?}");
        assert_eq!(out, [sentinel]);
    }
    let threat_nan = Threat { eye: nan, ..threats[0] };
    assert!(find_cover(&CoverQuery { threats: &[threat_nan], ..good }, &occ, &mut out).is_err());
    let flank = FlankQuery { candidates: Candidates::Points(&spots), ..Default::default() };
    let bad_flank = [
        FlankQuery { threat: Threat { forward: Vec3::ZERO, ..flank.threat }, ..flank },
        FlankQuery { threat: Threat { position: nan, ..flank.threat }, ..flank },
        FlankQuery { max_facing_dot: f32::NAN, ..flank },
        FlankQuery { top_k: 0, ..flank },
        FlankQuery { map: Some((&map, 3)), ..flank },
    ];
    for (i, q) in bad_flank.iter().enumerate() {
        assert!(matches!(find_flank(q, &mut out), Err(Error::InvalidArgument(_))), "flank case {i}");
        assert_eq!(out, [sentinel]);
    }
    assert_eq!(find_cover(&good, &occ, &mut out).unwrap().found, 0, "no walls: nothing hidden");
    assert!(out.is_empty());
}

#[test]
fn an_engine_ray_source_answers_cover_one_ray_at_a_time() {
    use argus_core::tactics::RaySourceBlocker;
    use argus_core::{RayHit, RayQuery};
    let occ = walls(&[(Vec3::new(0.0, 1.0, 5.0), Vec3::new(2.0, 1.5, 0.2))]);
    let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, 1.6)];
    let spots = [Vec3::new(5.0, 0.5, 7.0), Vec3::new(0.0, 0.5, 7.0), Vec3::new(-1.0, 0.5, 8.0)];
    let q = CoverQuery {
        self_position: Vec3::new(3.0, 0.0, 8.0),
        threats: &threats,
        candidates: Candidates::Points(&spots),
        obstacle_mask: 0b101,
        top_k: 3,
        ..Default::default()
    };
    let (mut direct, mut via_engine) = (Vec::new(), Vec::new());
    let want = find_cover(&q, &occ, &mut direct).unwrap();
    // The "engine": the same occluders behind a batch interface, logging what it is asked.
    let asked: std::cell::RefCell<Vec<RayQuery>> = Default::default();
    let bad_distance: Cell<Option<f32>> = Cell::new(None);
    let mut engine = |rays: &[RayQuery], hits: &mut [RayHit]| {
        for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
            asked.borrow_mut().push(*ray);
            let toi = occ.cast_ray(ray.origin, ray.direction, ray.max_distance, ray.layer_mask);
            *hit = RayHit { hit: toi.is_some(), distance: bad_distance.get().or(toi).unwrap_or(0.0) };
        }
    };
    let blocker = RaySourceBlocker::new(&mut engine);
    let got = find_cover(&q, &blocker, &mut via_engine).unwrap();
    blocker.check().unwrap();
    assert_eq!((got, &via_engine), (want, &direct));
    assert_eq!(asked.borrow().len() as u32, got.rays_cast);
    for (ray, &spot) in asked.borrow().iter().zip(&spots) {
        // nearest first, as it happens
        assert_eq!((ray.origin, ray.layer_mask, ray.agent.index, ray.target.index), (threats[0].eye, 0b101, 0, 0));
        assert!((ray.max_distance - threats[0].eye.distance(spot)).abs() < 1e-5, "the full distance to the spot");
    }
    // A hit without a usable distance is reported after the query.
    bad_distance.set(Some(f32::NAN));
    let blocker = RaySourceBlocker::new(&mut engine);
    find_cover(&q, &blocker, &mut via_engine).unwrap();
    assert!(matches!(blocker.check(), Err(Error::InvalidArgument(_))));
}

/// Five spots behind one wall, `|x|` metres from the agent, and a uniform map of 1.
fn danger_scene() -> (OccluderSet, [Threat; 1], [Vec3; 5], InfluenceMap) {
    let occ = walls(&[(Vec3::new(0.0, 1.0, 3.0), Vec3::new(20.0, 5.0, 0.5))]);
    let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, 1.6)];
    let spots = [-4.0, -2.0, 0.0, 2.0, 4.0].map(|x| Vec3::new(x, 0.5, 6.0));
    let mut map = danger_map();
    map.fill(0, 1.0).unwrap();
    (occ, threats, spots, map)
}

#[test]
fn candidate_danger_adds_to_the_map_in_cover_and_flank_scores() {
    let (occ, threats, spots, map) = danger_scene();
    let danger = [0.0, -0.5, 3.0, 0.25, 0.0];
    let q = CoverQuery {
        self_position: Vec3::new(0.0, 0.5, 6.0),
        threats: &threats,
        candidates: Candidates::Points(&spots),
        map: Some((&map, 0)),
        candidate_danger: Some(&danger),
        top_k: 5,
        ..Default::default()
    };
    let mut out = Vec::new();
    find_cover(&q, &occ, &mut out).unwrap();
    // score = (map 1 + danger[i]) · 10 + |x|: 5 + 2 = 7, 10 + 4 = 14, 12.5 + 2 = 14.5, 40 + 0.
    let order: Vec<u32> = out.iter().map(|r| r.candidate_index).collect();
    assert_eq!(order, [1, 0, 4, 3, 2]);
    for r in &out {
        let i = r.candidate_index as usize;
        assert_eq!(r.score, (1.0 + danger[i]) * 10.0 + spots[i].x.abs(), "spot {i}");
    }
    find_cover(&CoverQuery { candidate_danger: None, ..q }, &occ, &mut out).unwrap();
    assert_eq!(out[0].candidate_index, 2, "without the array the nearest spot wins");

    // Flank from behind the spots: every spot is outside the cone; score = −facing − danger.
    let threat = Threat::standing(Vec3::new(0.0, 0.5, 0.0), -Vec3::Z, 1.6);
    let f = FlankQuery {
        threat,
        candidates: Candidates::Points(&spots),
        map: Some((&map, 0)),
        candidate_danger: Some(&danger),
        top_k: 5,
        ..Default::default()
    };
    find_flank(&f, &mut out).unwrap();
    for r in &out {
        let i = r.candidate_index as usize;
        let facing = (-Vec3::Z).dot((spots[i] - threat.position).normalize());
        assert_eq!(r.score, -facing - (1.0 + danger[i]), "spot {i}");
    }
    assert_eq!(out[0].candidate_index, 1, "the least dangerous spot");
    assert_eq!(out[4].candidate_index, 2, "the most dangerous spot");
}

#[test]
fn bad_candidate_danger_is_refused_and_nothing_changes() {
    let (occ, threats, spots, _) = danger_scene();
    let q = CoverQuery { threats: &threats, candidates: Candidates::Points(&spots), ..Default::default() };
    let f = FlankQuery { candidates: Candidates::Points(&spots), ..Default::default() };
    let short = [0.0; 4];
    let nan = [0.0, f32::NAN, 0.0, 0.0, 0.0];
    let inf = [0.0, 0.0, f32::INFINITY, 0.0, 0.0];
    let huge = [0.0, 0.0, 0.0, 1e30, 0.0];
    let sentinel = TacticalResult { position: Vec3::ONE, score: 7.0, candidate_index: 9, hidden_from: 3 };
    for bad in [&short[..], &nan, &inf, &huge] {
        let mut out = vec![sentinel];
        let err = find_cover(&CoverQuery { candidate_danger: Some(bad), ..q }, &occ, &mut out).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument(ref m) if m.contains("candidate danger")), "{err}");
        assert_eq!(out, [sentinel]);
        assert!(argus_core::tactics::begin_cover(&CoverQuery { candidate_danger: Some(bad), ..q }).is_err());
        assert!(matches!(
            find_flank(&FlankQuery { candidate_danger: Some(bad), ..f }, &mut out),
            Err(Error::InvalidArgument(_))
        ));
        assert_eq!(out, [sentinel]);
    }
}

#[test]
fn two_phase_cover_keeps_the_candidate_danger() {
    let (occ, threats, spots, map) = danger_scene();
    let danger = vec![0.0, -0.5, 3.0, 0.25, 0.0];
    let q = CoverQuery {
        self_position: Vec3::new(0.0, 0.5, 6.0),
        threats: &threats,
        candidates: Candidates::Points(&spots),
        map: Some((&map, 0)),
        candidate_danger: Some(&danger),
        top_k: 3,
        ..Default::default()
    };
    let mut direct = Vec::new();
    let want = find_cover(&q, &occ, &mut direct).unwrap();
    let pending = argus_core::tactics::begin_cover(&q).unwrap();
    drop(danger); // the pending query keeps what it needs
    let hits: Vec<argus_core::RayHit> = pending
        .rays()
        .iter()
        .map(|r| argus_core::RayHit {
            hit: occ.cast_ray(r.origin, r.direction, r.max_distance, r.layer_mask).is_some(),
            distance: 0.0,
        })
        .collect();
    let mut phased = Vec::new();
    let got = pending.finish(&hits, &mut phased).unwrap();
    assert_eq!(phased, direct);
    assert_eq!(got.position, want.position);
    assert_eq!(direct[0].candidate_index, 1);
}
