//! The recording's Beliefs section (format 6): the beliefs of guards that search by belief, as
//! levels of their peak in runs of the nodes holding any, with each searching owner's search
//! point and why it was chosen. Parsed here from the bytes by `docs/recording.md`'s layout (not
//! by the library's reader) and checked against the world after each step: the probabilities,
//! the search points, when a belief is written (made, an owner's sight ticked, a point chosen,
//! a key frame), the record of a belief dropped; and the replay compares the section.

use argus_core::record::frame_sections;
use argus_core::*;

/// A Beliefs record as `docs/recording.md` lays it out.
#[derive(Debug)]
struct BeliefRec {
    target: u64,
    kind: u8,
    owner: u64,
    nodes: u32,
    peak: f32,
    tile: f32,
    owners: Vec<u64>,
    claims: Vec<ClaimRec>,
    runs: Vec<(u32, Vec<u8>)>,
}

#[derive(Debug)]
struct ClaimRec {
    agent: u64,
    position: Vec3,
    mass: f32,
    reason: u8,
    tile_probability: f32,
    walk: f32,
}

struct Bytes<'a>(&'a [u8], usize);

impl Bytes<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self.0[self.1..self.1 + N].try_into().unwrap();
        self.1 += N;
        out
    }
    fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take())
    }
    fn vec3(&mut self) -> Vec3 {
        Vec3::new(self.f32(), self.f32(), self.f32())
    }
}

fn parse_beliefs(section: &[u8]) -> Vec<BeliefRec> {
    let mut b = Bytes(section, 0);
    let count = b.u32();
    let out = (0..count)
        .map(|_| {
            let (target, kind) = (b.u64(), b.u8());
            assert_eq!(b.take::<3>(), [0; 3], "pad");
            let (owner, nodes, peak, tile) = (b.u64(), b.u32(), b.f32(), b.f32());
            let owners = (0..b.u32()).map(|_| b.u64()).collect();
            let claims = (0..b.u32())
                .map(|_| {
                    let (agent, position, mass, reason) = (b.u64(), b.vec3(), b.f32(), b.u8());
                    assert_eq!(b.take::<3>(), [0; 3], "pad");
                    ClaimRec { agent, position, mass, reason, tile_probability: b.f32(), walk: b.f32() }
                })
                .collect();
            let runs = (0..b.u32())
                .map(|_| {
                    let (first, length) = (b.u32(), b.u32());
                    (first, (0..length).map(|_| b.u8()).collect())
                })
                .collect();
            BeliefRec { target, kind, owner, nodes, peak, tile, owners, claims, runs }
        })
        .collect();
    assert_eq!(b.1, section.len(), "the section holds its records exactly");
    out
}

/// The slots whose sight ticked, from a frame's Sight ticks section.
fn ticked(section: &[u8]) -> Vec<u32> {
    let mut b = Bytes(section, 0);
    let runs = b.u32();
    let mut out = Vec::new();
    for _ in 0..runs {
        let (first, count, _next) = (b.u32(), b.u32(), b.f32());
        out.extend(first..first + count);
    }
    out
}

fn id_bits(index: u32, generation: u32) -> u64 {
    index as u64 | (generation as u64 & 0xFFFF) << 48
}

fn key(owner: BeliefOwner, b: &Belief) -> (u8, u64, u64) {
    let target = id_bits(b.target().index, b.target().generation);
    match owner {
        BeliefOwner::Agent(a) => (0, id_bits(a.index, a.generation), target),
        BeliefOwner::Team(t) => (1, t as u64, target),
    }
}

/// A belief as the section names it (owner kind, owner, target), its probabilities and owners.
type Held = ((u8, u64, u64), Vec<f32>, Vec<AgentId>);

/// What the world held after a step, for the checks.
struct Seen {
    beliefs: Vec<Held>,
    /// Each guard: its id bits, its slot, the search point it will walk to next, whether one was
    /// chosen in this step.
    guards: Vec<(u64, u32, Option<Vec3>, bool)>,
}

fn seen(world: &World, guards: &[AgentId]) -> Seen {
    let beliefs = world.beliefs().map(|(o, b)| (key(o, b), b.probabilities().to_vec(), b.owners().to_vec())).collect();
    let guards = guards
        .iter()
        .map(|&g| {
            let brain = world.agent(g).unwrap().brain();
            let point = brain.next_search_point.or(brain.search_point);
            (id_bits(g.index, g.generation), g.index, point, brain.next_search_point.is_some())
        })
        .collect();
    Seen { beliefs, guards }
}

/// 30 × 30 m of 0.5 m cells, a wall across the middle with a gap at its east end (the level of
/// `tests/scenarios/belief_search_behind_a_wall.json`); two guards searching by belief, sight
/// at 2 Hz (a tick every fifth 0.1 s step), the first keeping its own belief, the second its
/// team's.
fn level() -> (World, Vec<AgentId>, TargetId) {
    let mut world = World::default();
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(12.0, 1.5, 15.0), Vec3::new(12.0, 1.5, 0.3))).unwrap();
    world.set_walk_grid(&WalkGridDef { width: 60, depth: 60, cell_size: 0.5, ..Default::default() }).unwrap();
    let guards = (0..2)
        .map(|k| {
            let brain = BrainConfig {
                search: SearchKind::Belief,
                search_duration: 60.0,
                share_belief: k == 1,
                ..Default::default()
            };
            let def = AgentDef {
                position: Vec3::new(4.0 + 2.0 * k as f32, 0.0, 6.0),
                sight: SightConfig { view_radius: 15.0, view_angle: 120.0, rate_hz: 2.0, ..Default::default() },
                brain,
                ..Default::default()
            };
            world.create_agent(&def).unwrap()
        })
        .collect();
    let player = world.create_target(&TargetDef { position: Vec3::new(6.0, 0.0, 11.0), ..Default::default() }).unwrap();
    (world, guards, player)
}

/// Each guard walks 0.15 m toward its move target.
fn walk(world: &mut World, guards: &[AgentId]) {
    for &g in guards {
        let to = world.move_target(g).unwrap().unwrap_or(Vec3::ZERO);
        let at = world.agent(g).unwrap().position();
        let step = (to - at).clamp_length_max(0.15);
        if step.length() > 1e-4 {
            world.set_agent_pose(g, at + step, Vec3::new(step.x, 0.0, step.z).normalize_or(Vec3::Z)).unwrap();
        }
    }
}

/// Records the chase, the search (past the key frame at step 60) and the player destroyed;
/// the recording and what the world held after each step.
fn record(options: &RecordOptions) -> (Vec<u8>, Vec<Seen>, Vec<AgentId>) {
    let (mut world, guards, player) = level();
    world.start_recording(options).unwrap();
    let mut after = Vec::new();
    let mut steps = 0;
    while !guards.iter().all(|&g| world.agent(g).unwrap().brain().state == BrainState::Chasing) {
        world.step(0.1).unwrap();
        after.push(seen(&world, &guards));
        steps += 1;
        assert!(steps < 40, "the guards do not chase");
    }
    world.set_target_pose(player, Vec3::new(20.0, 0.0, 24.0), Vec3::Z).unwrap();
    while steps < 75 {
        walk(&mut world, &guards);
        world.step(0.1).unwrap();
        after.push(seen(&world, &guards));
        steps += 1;
    }
    assert!(
        guards.iter().all(|&g| world.agent(g).unwrap().brain().state == BrainState::Searching),
        "the guards search to the end"
    );
    world.destroy_target(player).unwrap();
    world.step(0.1).unwrap();
    after.push(seen(&world, &guards));
    world.step(0.1).unwrap();
    after.push(seen(&world, &guards));
    (world.stop_recording().unwrap(), after, guards)
}

#[test]
fn beliefs_are_recorded_as_the_world_holds_them() {
    let (bytes, after, guards) = record(&RecordOptions::default());
    let frames = frame_sections(&bytes).expect("well-formed frames");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 6, "format 6");
    assert_eq!(frames.len(), after.len());
    let mut listed: Vec<(u8, u64, u64)> = Vec::new();
    let (mut written, mut skipped, mut dropped, mut claims_seen, mut key_frames) = (0, 0, 0, 0, 0);
    let mut seen_kinds = [false; 2];
    for (step, (frame, now)) in frames.iter().zip(&after).enumerate() {
        assert_eq!(frame.len(), 18, "step {step}: the header and 17 sections");
        let key = u32::from_le_bytes(frame[0][16..20].try_into().unwrap()) & 1 == 1;
        key_frames += key as usize;
        let ticks = ticked(&frame[3]);
        let records = parse_beliefs(&frame[17]);
        let before = if step == 0 { None } else { Some(&after[step - 1]) };
        // Each belief the world holds is written when the rule says so, in the world's order.
        let mut expected = Vec::new();
        for (k, probabilities, owners) in &now.beliefs {
            let made = before.is_none_or(|b| !b.beliefs.iter().any(|(bk, ..)| bk == k));
            let tick = owners.iter().any(|a| ticks.contains(&a.index));
            let chose = now.guards.iter().any(|g| g.3 && owners.iter().any(|a| a.index == g.1));
            if key || made || tick || chose || !listed.contains(k) {
                expected.push((*k, probabilities, owners));
            } else {
                skipped += 1;
            }
        }
        let live: Vec<&BeliefRec> = records.iter().filter(|r| r.nodes > 0).collect();
        let keys = |r: &BeliefRec| (r.kind, r.owner, r.target);
        assert_eq!(
            live.iter().map(|r| keys(r)).collect::<Vec<_>>(),
            expected.iter().map(|e| e.0).collect::<Vec<_>>(),
            "step {step}: the beliefs written"
        );
        for (r, (_, probabilities, owners)) in live.iter().zip(&expected) {
            written += 1;
            seen_kinds[r.kind as usize] = true;
            assert_eq!(r.nodes as usize, probabilities.len());
            let peak = probabilities.iter().copied().fold(0.0, f32::max);
            assert_eq!(r.peak, peak, "step {step}: the peak");
            let ids: Vec<u64> = owners.iter().map(|a| id_bits(a.index, a.generation)).collect();
            assert_eq!(r.owners, ids, "step {step}: the owners");
            assert!((r.tile - 4.0).abs() < 1e-4, "a tile is 4 m for a 15 m view: {}", r.tile);
            // The runs cover exactly the nodes holding probability, each at its level.
            let mut covered = vec![None; probabilities.len()];
            let mut last_end = None;
            for (first, levels) in &r.runs {
                assert!(!levels.is_empty(), "an empty run");
                assert!(last_end.is_none_or(|e| *first > e), "runs in order, apart");
                last_end = Some(first + levels.len() as u32);
                for (k, &l) in levels.iter().enumerate() {
                    covered[*first as usize + k] = Some(l);
                }
            }
            for (n, (&p, level)) in probabilities.iter().zip(&covered).enumerate() {
                match level {
                    None => assert_eq!(p, 0.0, "step {step}: node {n} holds {p} but is in no run"),
                    Some(l) => {
                        assert!(p > 0.0 && *l >= 1, "step {step}: node {n} of {p} at level {l}");
                        let shown = *l as f32 / 255.0 * peak;
                        assert!(
                            shown >= p * (1.0 - 1e-5) && shown - p <= peak / 255.0 * 1.0001,
                            "node {n}: {p} as {l}"
                        );
                    }
                }
            }
            // One search point per searching owner, where it walks next.
            for c in &r.claims {
                claims_seen += 1;
                let guard = now.guards.iter().find(|g| g.0 == c.agent).expect("a guard's point");
                assert!(owners.iter().any(|a| a.index == guard.1), "the point of an owner");
                assert_eq!(Some(c.position), guard.2, "step {step}: the claim is where the guard walks next");
                assert!(c.mass > 0.0 && c.mass <= 1.0);
                assert!(c.reason == 1 || c.reason == 2, "a reason: {}", c.reason);
                assert!(c.tile_probability >= c.mass * 0.999 && c.tile_probability <= 1.001);
                assert!(c.walk >= 0.0 && (c.reason == 1 || c.walk == 0.0));
            }
        }
        // The beliefs gone since they were listed: a record with no nodes (none in a key frame).
        let gone: Vec<_> = records.iter().filter(|r| r.nodes == 0).map(keys).collect();
        let mut was_gone: Vec<_> =
            listed.iter().filter(|k| !now.beliefs.iter().any(|(bk, ..)| bk == *k)).copied().collect();
        if key {
            was_gone.clear();
        }
        assert_eq!(gone, was_gone, "step {step}: the dropped records");
        for r in records.iter().filter(|r| r.nodes == 0) {
            assert!(r.owners.is_empty() && r.claims.is_empty() && r.runs.is_empty() && r.peak == 0.0);
        }
        dropped += gone.len();
        listed = now.beliefs.iter().map(|(k, ..)| *k).collect();
    }
    assert_eq!(seen_kinds, [true, true], "an agent's and a team's belief");
    assert!(key_frames >= 2, "the first frame and step 60");
    assert!(written > 20 && skipped > 20, "written {written}, left out {skipped}");
    assert!(claims_seen > 10, "{claims_seen} search points");
    assert_eq!(dropped, 2, "both beliefs dropped with the player");
    assert!(after.last().unwrap().beliefs.is_empty());
    let _ = guards;

    // The replay compares the section: it passes, and fails naming it when one byte differs.
    Replay::new(&bytes).unwrap().run_to_end().unwrap();
    let (step, section) =
        frames.iter().enumerate().rev().map(|(s, f)| (s, &f[17])).find(|(_, f)| f.len() > 200).expect("a belief");
    let at = bytes.windows(section.len()).position(|w| w == &section[..]).expect("the section in the file");
    let mut damaged = bytes.clone();
    let last = at + section.len() - 1; // a level of the last run
    damaged[last] = if damaged[last] == 255 { 254 } else { damaged[last] + 1 };
    argus_core::record::reseal(&mut damaged);
    match Replay::new(&damaged).unwrap().run_to_end() {
        Err(Error::ReplayMismatch { step: s, section }) => {
            assert_eq!((s as usize, section), (step, "beliefs"));
        }
        other => panic!("a changed level replayed: {other:?}"),
    }
}

#[test]
fn without_explanations_or_out_of_focus_no_belief_is_written() {
    let (bytes, ..) = record(&RecordOptions { explain: false, ..Default::default() });
    let frames = frame_sections(&bytes).unwrap();
    assert!(frames.iter().all(|f| f[17] == [0; 4]), "count 0 in every frame");
    Replay::new(&bytes).unwrap().run_to_end().unwrap();
    // Only the first guard in focus: its own belief, never the team's of the second.
    let (world, guards, _) = level();
    drop(world);
    let (bytes, ..) = record(&RecordOptions { focus: vec![guards[0]], ..Default::default() });
    let frames = frame_sections(&bytes).unwrap();
    let records: Vec<BeliefRec> = frames.iter().flat_map(|f| parse_beliefs(&f[17])).collect();
    assert!(!records.is_empty());
    assert!(records.iter().all(|r| r.kind == 0 && r.owner == id_bits(guards[0].index, guards[0].generation)));
    Replay::new(&bytes).unwrap().run_to_end().unwrap();
}

/// The section's size for one guard searching a 64 × 64 m level of 0.5 m cells (128 × 128
/// nodes) with sight at 10 Hz, printed (see the changelog); bounded by a record per tick.
#[test]
fn the_sections_size_for_one_guard_in_a_128_by_128_grid() {
    let mut world = World::default();
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(24.0, 1.5, 30.0), Vec3::new(24.0, 1.5, 0.3))).unwrap();
    world.set_walk_grid(&WalkGridDef { width: 128, depth: 128, cell_size: 0.5, ..Default::default() }).unwrap();
    let brain = BrainConfig { search: SearchKind::Belief, search_duration: 60.0, ..Default::default() };
    let sight = SightConfig { view_radius: 15.0, view_angle: 120.0, rate_hz: 10.0, ..Default::default() };
    let def = AgentDef { position: Vec3::new(10.0, 0.0, 20.0), sight, brain, ..Default::default() };
    let g = world.create_agent(&def).unwrap();
    let player =
        world.create_target(&TargetDef { position: Vec3::new(12.0, 0.0, 26.0), ..Default::default() }).unwrap();
    world.start_recording(&RecordOptions::default()).unwrap();
    for _ in 0..10 {
        world.step(0.1).unwrap();
    }
    assert_eq!(world.agent(g).unwrap().brain().state, BrainState::Chasing);
    world.set_target_pose(player, Vec3::new(40.0, 0.0, 50.0), Vec3::Z).unwrap();
    let steps = 300;
    for _ in 0..steps {
        walk(&mut world, &[g]);
        world.step(0.1).unwrap();
    }
    assert_eq!(world.agent(g).unwrap().brain().state, BrainState::Searching);
    let bytes = world.stop_recording().unwrap();
    let frames = frame_sections(&bytes).unwrap();
    let searching = &frames[frames.len() - steps..];
    let section: usize = searching.iter().map(|f| f[17].len() - 4).sum();
    let seconds = steps as f32 * 0.1;
    let per_second = section as f32 / seconds;
    let records: Vec<BeliefRec> = searching.iter().flat_map(|f| parse_beliefs(&f[17])).collect();
    let nonzero: usize = records.iter().map(|r| r.runs.iter().map(|(_, l)| l.len()).sum::<usize>()).sum();
    eprintln!(
        "Beliefs: {per_second:.0} bytes/s for one guard in a 128 x 128 grid ({} records, {} nodes each on \
         average; the whole recording {:.0} bytes/s)",
        records.len(),
        nonzero / records.len().max(1),
        bytes.len() as f32 / (seconds + 1.0)
    );
    assert!(per_second > 0.0 && per_second < 10.0 * (88.0 + 128.0 * 128.0 * 5.0));
}

/// A save of snapshot format 4 (before the search points' reasons) still loads: its points'
/// reasons are unknown (0), recorded as such, and the recording replays exactly.
#[test]
fn a_format_4_save_loads_with_its_search_points_reasons_unknown() {
    let (mut world, guards, player) = level();
    // Only the team's belief (the second guard's): its search points end the save.
    world.destroy_agent(guards[0]).unwrap();
    for _ in 0..20 {
        world.step(0.1).unwrap();
    }
    world.set_target_pose(player, Vec3::new(20.0, 0.0, 24.0), Vec3::Z).unwrap();
    for _ in 0..10 {
        walk(&mut world, &guards[1..]);
        world.step(0.1).unwrap();
    }
    let saved = world.save().unwrap();
    assert_eq!(u32::from_le_bytes(saved[8..12].try_into().unwrap()), 5, "snapshot format 5");
    // Format 4: each search point without its reason (u8 code, f32 tile, f32 walk).
    let claims = 1;
    let end = saved.len() - 8;
    let points = end - 37 * claims;
    assert_eq!(u32::from_le_bytes(saved[points - 4..points].try_into().unwrap()), claims as u32, "one point");
    let mut v4 = saved[..points].to_vec();
    for k in 0..claims {
        v4.extend_from_slice(&saved[points + 37 * k..points + 37 * k + 28]);
        assert_eq!(saved[points + 37 * k + 28], 1, "chosen per metre walked");
    }
    v4.extend_from_slice(&[0; 8]);
    v4[8..12].copy_from_slice(&4u32.to_le_bytes());
    argus_core::snapshot::reseal(&mut v4);
    let mut loaded = World::load(&v4).expect("format 4 is read");
    let resaved = loaded.save().unwrap();
    assert_eq!(resaved.len(), saved.len());
    assert_eq!(resaved[points + 28..points + 37], [0; 9], "the reason unknown");
    loaded.start_recording(&RecordOptions::default()).unwrap();
    loaded.step(0.1).unwrap();
    let bytes = loaded.stop_recording().unwrap();
    let first = parse_beliefs(&frame_sections(&bytes).unwrap()[0][17]);
    assert_eq!(first.len(), 1);
    assert!(first[0].claims.iter().any(|c| c.reason == 0), "{:?}", first[0].claims);
    Replay::new(&bytes).unwrap().run_to_end().unwrap();
}
