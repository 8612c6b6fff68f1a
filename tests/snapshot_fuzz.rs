//! A structure-aware snapshot fuzzer. It knows the format (the loader's own field trace), mutates
//! fields, counts and elements, then recomputes the payload length and checksum so the parser
//! itself must catch the damage. Every load is refused with `BadSnapshot` (and changes nothing)
//! or accepted (and the world re-saves to exactly the loaded bytes, then steps with finite outputs,
//! and its save after the step loads and re-saves to the same bytes). Float fields are set to
//! the extremes of their type as well as to the API's limits.
//! The runs happen in a child process under an address-space limit (`ulimit -v`), where any
//! unbounded allocation would abort instead of being refused.

mod common;
use argus_core::id::Slot;
use argus_core::snapshot::{Field, FieldKind, PAYLOAD_OFFSET, reseal, trace_fields};
use argus_core::*;
use common::finite::assert_world_outputs_finite;
use common::*;
use std::process::Command;

/// Address-space limit of the child runs, in KiB.
const LIMIT_KIB: u64 = 1 << 20;
const LOADS: usize = 100_000;

/// Worlds that exercise every part of the format: all occluder shapes, destroyed things (free
/// lists), memories, brains mid-flight, pending sounds, influence maps with names and walls, a
/// walk grid (seed 11) or the engine's walk graph (seed 12), walk hearing, sound transmission,
/// beliefs searched by (`belief_world`).
fn seed_worlds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for seed in [11u64, 12] {
        let mut world = World::new(&WorldDef { hearing_path: HearingPath::Walk, ..Default::default() }).unwrap();
        let mut scenario = Scenario::build(&mut world, seed, 8, 4, 5);
        for _ in 0..25 {
            scenario.drive(&mut world);
            world.step(0.1).unwrap();
        }
        scenario.drive(&mut world);
        world.destroy_agent(scenario.agents[1]).unwrap();
        world.destroy_target(scenario.targets[3]).unwrap();
        let mesh = OccluderShape::Mesh {
            vertices: vec![Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::Y],
            indices: vec![[0, 1, 2], [0, 2, 3]],
        };
        for shape in
            [mesh, OccluderShape::Sphere { radius: 1.5 }, OccluderShape::Capsule { half_height: 1.0, radius: 0.5 }]
        {
            world
                .add_occluder(&OccluderDef { shape, position: Vec3::new(3.0, 0.0, -7.0), ..Default::default() })
                .unwrap();
        }
        let map = world
            .create_influence_map(&InfluenceMapDef { width: 6, height: 5, layer_count: 2, ..Default::default() })
            .unwrap();
        let m = world.influence_map_mut(map).unwrap();
        m.set_layer_name(1, "danger").unwrap();
        m.add_influence(0, Vec3::new(2.0, 0.0, 2.0), 3.0, 2).unwrap();
        m.set_cell(1, 4, 3, -2.5).unwrap();
        let extra = world.create_influence_map(&InfluenceMapDef::default()).unwrap();
        world.destroy_influence_map(extra).unwrap();
        let door =
            OccluderDef { sound_transmission: Some(0.5), ..OccluderDef::cuboid(Vec3::new(1.0, 1.0, 1.0), Vec3::ONE) };
        world.add_occluder(&door).unwrap();
        if seed == 11 {
            let grid = WalkGridDef { origin: Vec3::new(-10.0, 0.0, -10.0), width: 24, depth: 20, ..Default::default() };
            world.set_walk_grid(&grid).unwrap();
        } else {
            let nodes = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 3.0)];
            let edges = [WalkEdge { a: 0, b: 1, length: 4.0 }, WalkEdge { a: 2, b: 1, length: 3.5 }];
            world.set_walk_graph(&nodes, &edges, 1.5).unwrap();
        }
        out.push(world.save().unwrap());
    }
    out.push(belief_world().save().unwrap());
    out.push(World::default().save().unwrap());
    out
}

/// Guards searching by belief over a walk grid (a team sharing one, one keeping its own),
/// targets with top speeds, chased and then lost behind a wall: live beliefs with their
/// owners, masses and search points.
fn belief_world() -> World {
    let mut world = World::default();
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(12.0, 1.5, 15.0), Vec3::new(12.0, 1.5, 0.3))).unwrap();
    // Cells of a metre: few nodes, so that mutations reach the beliefs' other fields too.
    world.set_walk_grid(&WalkGridDef { width: 30, depth: 30, cell_size: 1.0, ..Default::default() }).unwrap();
    let guards: Vec<AgentId> = (0..3)
        .map(|k| {
            let brain = BrainConfig {
                search: SearchKind::Belief,
                search_duration: 30.0,
                share_belief: k < 2,
                give_up_probability: 0.001,
                ..Default::default()
            };
            let sight = SightConfig { view_radius: 15.0, view_angle: 120.0, rate_hz: 10.0, ..Default::default() };
            let position = Vec3::new(4.0 + 2.0 * k as f32, 0.0, 6.0);
            world.create_agent(&AgentDef { position, sight, brain, ..Default::default() }).unwrap()
        })
        .collect();
    let players: Vec<TargetId> = [(6.0, 1.4), (8.0, 3.0)]
        .iter()
        .map(|&(x, top_speed)| {
            let def = TargetDef { position: Vec3::new(x, 0.0, 11.0), top_speed, ..Default::default() };
            world.create_target(&def).unwrap()
        })
        .collect();
    for _ in 0..5 {
        world.step(0.1).unwrap();
    }
    for (k, &p) in players.iter().enumerate() {
        world.set_target_pose(p, Vec3::new(18.0 + 2.0 * k as f32, 0.0, 24.0), Vec3::Z).unwrap();
    }
    for _ in 0..6 {
        world.step(0.1).unwrap();
    }
    assert!(world.beliefs().count() >= 2, "the guards keep beliefs");
    assert!(guards.iter().any(|&g| world.agent(g).unwrap().brain().search_point.is_some()), "and search points");
    world
}

/// Values worth trying in a field of each kind.
fn interesting(kind: FieldKind, old: &[u8], rng: &mut Rng) -> Vec<u8> {
    let pick = |rng: &mut Rng, n: usize| rng.below(n as u32) as usize;
    match kind {
        FieldKind::U8 | FieldKind::Bool => vec![[0u8, 1, 2, 3, 4, 63, 64, 127, 255][pick(rng, 9)]],
        FieldKind::U32 | FieldKind::Count => {
            let v = u32::from_le_bytes(old.try_into().unwrap());
            let choices =
                [0, 1, 2, v.wrapping_add(1), v.wrapping_sub(1), v ^ 1, u32::MAX, 1 << 31, 1 << 24, 0xFFFF, 7, 64];
            choices[pick(rng, choices.len())].to_le_bytes().to_vec()
        }
        FieldKind::U64 => [0u64, 1, u64::MAX, 1 << 40][pick(rng, 4)].to_le_bytes().to_vec(),
        FieldKind::F32 => {
            // The extremes of every float field: signed zeros, ±max, ±infinity, NaN, subnormals
            // and the smallest normal of both signs, the API limits (1e6 coordinates, 1e9
            // magnitudes) and just past them, plus ordinary values that keep fields plausible.
            let choices = [
                0.0,
                -0.0,
                1.0,
                -1.0,
                f32::NAN,
                -f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::MAX,
                f32::MIN,
                3.4e38,
                -3.4e38,
                f32::MIN_POSITIVE,
                -f32::MIN_POSITIVE,
                f32::MIN_POSITIVE / 4.0,
                -f32::MIN_POSITIVE / 4.0,
                f32::from_bits(1),
                -f32::from_bits(1),
                1.0e6,
                -1.0e6,
                1.000_001e6,
                -1.000_001e6,
                1.0e9,
                -1.0e9,
                2.0e9,
                -2.0e9,
                360.0,
                400.0,
                0.5,
                2.0,
                -f32::from_le_bytes(old.try_into().unwrap()),
            ];
            choices[pick(rng, choices.len())].to_le_bytes().to_vec()
        }
        FieldKind::F64 => {
            let old = f64::from_le_bytes(old.try_into().unwrap());
            let choices = [
                0.0f64,
                -0.0,
                -1.0,
                1.0e300,
                -1.0e300,
                f64::MAX,
                f64::MIN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                f64::MIN_POSITIVE,
                f64::from_bits(1),
                -f64::from_bits(1),
                f32::MAX as f64,
                1.0e9,
                1.000_001e9,
                5.0,
                -old,
                old + 1.0,
                old - 1.0,
            ];
            choices[pick(rng, choices.len())].to_le_bytes().to_vec()
        }
        FieldKind::Bytes => {
            let mut b = old.to_vec();
            if !b.is_empty() {
                let i = pick(rng, b.len());
                b[i] = [0u8, 0xFF, 0x7F, 0x80, b'\xC3'][pick(rng, 5)];
            }
            b
        }
    }
}

/// One to three structural mutations of a valid snapshot, resealed.
fn mutate(bytes: &[u8], fields: &[Field], rng: &mut Rng) -> Vec<u8> {
    let mut payload = bytes[PAYLOAD_OFFSET..bytes.len() - 8].to_vec();
    for _ in 0..1 + rng.below(3) {
        if payload.is_empty() {
            break;
        }
        let f = fields[rng.below(fields.len() as u32) as usize];
        if f.offset + f.len > payload.len() {
            continue; // an earlier edit shortened the payload
        }
        let range = f.offset..f.offset + f.len;
        match rng.below(10) {
            0..=5 => {
                let new = interesting(f.kind, &payload[range.clone()], rng);
                payload.splice(range, new);
            }
            6 => {
                payload.drain(range); // an element (or a field of one) disappears
            }
            7 => {
                let copy = payload[range.clone()].to_vec(); // or appears twice
                payload.splice(f.offset..f.offset, copy);
            }
            8 => {
                // A field takes another field's value of the same kind: ids that name the wrong
                // slot, counts from elsewhere.
                let same: Vec<&Field> = fields
                    .iter()
                    .filter(|g| g.kind == f.kind && g.len == f.len && g.offset + g.len <= payload.len())
                    .collect();
                let g = same[rng.below(same.len() as u32) as usize];
                let copy = payload[g.offset..g.offset + g.len].to_vec();
                payload.splice(range, copy);
            }
            _ => {
                let i = rng.below(payload.len() as u32) as usize;
                payload[i] ^= 1 << rng.below(8);
            }
        }
    }
    let mut out = bytes[..PAYLOAD_OFFSET].to_vec();
    out.extend_from_slice(&payload);
    out.extend_from_slice(&[0; 8]);
    reseal(&mut out);
    out
}

/// Loads `LOADS` mutated snapshots into one host world; returns (accepted, refused).
fn fuzz(seed: u64, loads: usize) -> (usize, usize) {
    let seeds = seed_worlds();
    let traces: Vec<Vec<Field>> = seeds.iter().map(|s| trace_fields(s).unwrap()).collect();
    let mut rng = Rng(seed);
    let mut host = World::default();
    host.load_into(&seeds[0]).unwrap();
    let mut host_bytes = seeds[0].clone();
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..loads {
        let k = i % seeds.len();
        let input = mutate(&seeds[k], &traces[k], &mut rng);
        match host.load_into(&input) {
            Err(Error::BadSnapshot(_)) => {
                refused += 1;
                if i % 16 == 0 {
                    assert!(host.save().unwrap() == host_bytes, "a refused load changed the world");
                }
            }
            Err(other) => panic!("load {i} failed with {other:?}, not BadSnapshot"),
            Ok(()) => {
                accepted += 1;
                let again = host.save().unwrap();
                if again != input {
                    let at = again.iter().zip(&input).position(|(a, b)| a != b).unwrap_or(again.len().min(input.len()));
                    let field = trace_fields(&again).unwrap().into_iter().rfind(|f| f.offset + PAYLOAD_OFFSET <= at);
                    panic!(
                        "load {i}: an accepted snapshot re-saves to different bytes: first difference at byte {at} \
                         ({} vs {} bytes), in {field:?}: saved {:?}, loaded {:?}",
                        again.len(),
                        input.len(),
                        &again[at..(at + 8).min(again.len())],
                        &input[at..(at + 8).min(input.len())]
                    );
                }
                // A world at its maximum time refuses to go further (documented): step by 0 then.
                let dt = if host.time() + 1.0 <= world::MAX_WORLD_TIME { 1.0 / 30.0 } else { 0.0 };
                host.step(dt).unwrap();
                assert_world_outputs_finite(&host);
                // What the world made of the loaded state still saves, loads, and re-saves to
                // the same bytes (a non-finite schedule after one step used to refuse the save).
                let stepped = host.save().unwrap_or_else(|e| panic!("load {i}: the stepped world cannot save: {e}"));
                let reloaded =
                    World::load(&stepped).unwrap_or_else(|e| panic!("load {i}: its own save is refused: {e}"));
                assert!(reloaded.save().unwrap() == stepped, "load {i}: a stepped world's save re-saves differently");
                host.load_into(&seeds[0]).unwrap();
                host_bytes = seeds[0].clone();
            }
        }
    }
    (accepted, refused)
}

/// A forged pool count the bytes can hold (5 bytes a slot) but memory cannot (a slot in memory
/// is far larger): the load must be refused, not abort the process.
fn forged_pool_is_refused_under_the_limit() {
    let empty = World::default().save().unwrap();
    let trace = trace_fields(&empty).unwrap();
    // Pools in order: occluders, targets, agents (slot count then free-list count each).
    let counts: Vec<&Field> = trace.iter().filter(|f| f.kind == FieldKind::Count).collect();
    let agents_at = counts[4].offset;
    let slot = std::mem::size_of::<Slot<Agent>>() as u64;
    let n = (2 * LIMIT_KIB * 1024 / slot) as u32; // twice the whole address space allowed
    let mut payload = empty[PAYLOAD_OFFSET..PAYLOAD_OFFSET + agents_at].to_vec();
    payload.extend_from_slice(&n.to_le_bytes());
    payload.reserve(n as usize * 5 + 64);
    for _ in 0..n {
        payload.extend_from_slice(&1u32.to_le_bytes());
        payload.push(0);
    }
    payload.extend_from_slice(&empty[PAYLOAD_OFFSET + agents_at + 4..empty.len() - 8]);
    let mut bytes = empty[..PAYLOAD_OFFSET].to_vec();
    bytes.extend_from_slice(&payload);
    drop(payload);
    bytes.extend_from_slice(&[0; 8]);
    reseal(&mut bytes);
    let mut host = World::default();
    let before = host.save().unwrap();
    match host.load_into(&bytes) {
        Err(Error::BadSnapshot(why)) => assert!(why.contains("cannot allocate"), "{why}"),
        other => panic!("a {n}-slot pool under a {LIMIT_KIB} KiB limit gave {other:?}"),
    }
    assert!(host.save().unwrap() == before);
    // The same for a reservation at the documented maximum.
    assert!(matches!(host.reserve(1 << 26, 1 << 26), Err(Error::OutOfMemory(_))));
}

/// A grid mesh of about `triangles` triangles (half as many vertices), with a little relief.
fn grid_mesh(triangles: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let k = ((triangles / 2) as f64).sqrt() as usize + 1;
    let mut vertices = Vec::with_capacity(k * k);
    for z in 0..k {
        for x in 0..k {
            vertices.push(Vec3::new(x as f32 * 0.1, ((x * 7 + z * 3) % 5) as f32 * 0.01, z as f32 * 0.1));
        }
    }
    let mut indices = Vec::with_capacity(2 * (k - 1) * (k - 1));
    let w = k as u32;
    for z in 0..w - 1 {
        for x in 0..w - 1 {
            let i = z * w + x;
            indices.push([i, i + 1, i + w]);
            indices.push([i + 1, i + w + 1, i + w]);
        }
    }
    (vertices, indices)
}

/// A valid snapshot of an empty world but for one mesh occluder whose tree build (parry3d: about
/// 11 times the mesh's bytes) does not fit the address space left: refused, never an abort.
/// The same mesh through `add_occluder` is `OutOfMemory`.
fn huge_mesh_is_refused_under_the_limit() {
    // 2^23 triangles: 150 MB of mesh, about 1.7 GB to build, under a 1 GiB limit.
    let (vertices, indices) = grid_mesh(1 << 23);
    let empty = World::default().save().unwrap();
    let trace = trace_fields(&empty).unwrap();
    let counts: Vec<&Field> = trace.iter().filter(|f| f.kind == FieldKind::Count).collect();
    // The occluder pool (slot count, free count) comes first; it is empty here.
    let (slots_at, after) = (counts[0].offset, counts[1].offset + 4);
    let mut payload = Vec::with_capacity(empty.len() + 12 * (vertices.len() + indices.len()) + 64);
    payload.extend_from_slice(&empty[PAYLOAD_OFFSET..PAYLOAD_OFFSET + slots_at]);
    payload.extend_from_slice(&1u32.to_le_bytes()); // one slot
    payload.extend_from_slice(&1u32.to_le_bytes()); // generation 1
    payload.push(1); // live
    payload.push(3); // a mesh
    payload.extend_from_slice(&(vertices.len() as u32).to_le_bytes());
    for v in &vertices {
        for c in [v.x, v.y, v.z] {
            payload.extend_from_slice(&c.to_le_bytes());
        }
    }
    payload.extend_from_slice(&(indices.len() as u32).to_le_bytes());
    for t in &indices {
        for i in t {
            payload.extend_from_slice(&i.to_le_bytes());
        }
    }
    for c in [0.0f32, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0] {
        payload.extend_from_slice(&c.to_le_bytes()); // position, rotation (identity)
    }
    payload.extend_from_slice(&1u32.to_le_bytes()); // layers
    payload.push(0); // not movable
    payload.extend_from_slice(&0u32.to_le_bytes()); // empty free list
    payload.extend_from_slice(&empty[PAYLOAD_OFFSET + after..empty.len() - 8]);
    let mut bytes = empty[..PAYLOAD_OFFSET].to_vec();
    bytes.extend_from_slice(&payload);
    drop(payload);
    bytes.extend_from_slice(&[0; 8]);
    reseal(&mut bytes);
    println!("a snapshot of {} bytes with one mesh of {} triangles", bytes.len(), indices.len());
    let mut host = World::default();
    let before = host.save().unwrap();
    match host.load_into(&bytes) {
        Err(Error::BadSnapshot(why)) => assert!(why.contains("not available"), "{why}"),
        other => panic!("a mesh of {} triangles under a {LIMIT_KIB} KiB limit gave {other:?}", indices.len()),
    }
    assert!(host.save().unwrap() == before);
    drop(bytes);
    let def = OccluderDef { shape: OccluderShape::Mesh { vertices, indices }, ..Default::default() };
    match host.add_occluder(&def) {
        Err(Error::OutOfMemory(why)) => assert!(why.contains("mesh"), "{why}"),
        other => panic!("add_occluder of a huge mesh under the limit gave {other:?}"),
    }
    assert!(host.save().unwrap() == before);
    // A mesh that fits still loads and builds.
    let (vertices, indices) = grid_mesh(1 << 12);
    let def = OccluderDef { shape: OccluderShape::Mesh { vertices, indices }, ..Default::default() };
    host.add_occluder(&def).unwrap();
    World::load(&host.save().unwrap()).unwrap();
}

/// Runs `name` (an ignored test of this binary) in a child under `ulimit -v`.
fn run_limited(name: &str) {
    let exe = std::env::current_exe().unwrap();
    let script = format!("ulimit -v {LIMIT_KIB} && exec \"$0\" --exact {name} --ignored --nocapture --test-threads 1");
    let out = Command::new("sh").arg("-c").arg(script).arg(&exe).output().expect("sh must exist");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    assert!(out.status.success(), "{name} under ulimit -v {LIMIT_KIB} failed ({}):\n{text}", out.status);
    assert!(text.contains("1 passed"), "{name} did not run:\n{text}");
}

#[test]
#[ignore = "run by fuzzed_snapshots_never_crash_under_an_address_space_limit in a limited child"]
fn limited_snapshot_fuzz() {
    let (accepted, refused) = fuzz(0x5eed_5a7e, LOADS);
    println!("snapshot fuzz: {LOADS} loads, {accepted} accepted, {refused} refused");
    assert_eq!(accepted + refused, LOADS);
    assert!(accepted > LOADS / 100 && refused > LOADS / 2, "the mutations reach both outcomes");
}

#[test]
#[ignore = "run by forged_counts_are_refused_under_an_address_space_limit in a limited child"]
fn limited_forged_pool() {
    forged_pool_is_refused_under_the_limit();
}

#[test]
#[ignore = "run by huge_meshes_are_refused_under_an_address_space_limit in a limited child"]
fn limited_huge_mesh() {
    huge_mesh_is_refused_under_the_limit();
}

#[test]
fn huge_meshes_are_refused_under_an_address_space_limit() {
    run_limited("limited_huge_mesh");
}

#[test]
fn fuzzed_snapshots_never_crash_under_an_address_space_limit() {
    run_limited("limited_snapshot_fuzz");
}

#[test]
fn forged_counts_are_refused_under_an_address_space_limit() {
    run_limited("limited_forged_pool");
}

/// Also writes the seed payloads for `cargo fuzz` when `ARGUS_FUZZ_SEEDS` names a folder.
#[test]
fn the_field_trace_covers_the_whole_payload() {
    let seeds = std::env::var_os("ARGUS_FUZZ_SEEDS").map(std::path::PathBuf::from);
    for (k, bytes) in seed_worlds().into_iter().enumerate() {
        if let Some(dir) = &seeds {
            std::fs::write(dir.join(format!("seed-{k}")), &bytes[PAYLOAD_OFFSET..bytes.len() - 8]).unwrap();
        }
        let fields = trace_fields(&bytes).unwrap();
        let mut at = 0;
        for f in &fields {
            assert_eq!(f.offset, at, "fields are contiguous");
            at += f.len;
        }
        assert_eq!(at, bytes.len() - PAYLOAD_OFFSET - 8);
    }
}
