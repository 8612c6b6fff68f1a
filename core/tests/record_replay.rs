//! Recordings: random worlds with every feature recorded and replayed (the replayed world saves
//! to the same bytes, every frame compares equal), damaged and truncated recordings refused,
//! engine-ray worlds, `explain_sight` against `can_see`, and the Why section's schedule.

use argus_core::*;

mod common;
use common::Rng;
use common::scenario::*;

/// The chunks of a recording as documented: (kind, payload offset, payload length).
fn chunks(bytes: &[u8]) -> Vec<(u8, usize, usize)> {
    let mut out = Vec::new();
    let mut at = 16;
    while at < bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        out.push((bytes[at], at + 8, len));
        at += 8 + len;
    }
    assert_eq!(at, bytes.len());
    out
}

#[test]
fn random_worlds_with_every_feature_replay_exactly() {
    let mut stops_checked = 0;
    for seed in 1..=6 {
        let workers = if seed == 3 { 3 } else { 1 };
        let focus =
            if seed == 5 { RecordOptions { focus: Vec::new(), explain: false } } else { RecordOptions::default() };
        let (world, bytes) = scenario(seed, 90, Some(focus), workers);
        let mut replay = Replay::new(&bytes).unwrap();
        assert_eq!(replay.step_count(), 90);
        replay.run_to_end().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(replay.steps_done(), 90);
        assert!(replay.world().save().unwrap() == world.save().unwrap(), "seed {seed}: the replayed world differs");
        // Recording changed nothing: the same run unrecorded ends in the same state.
        let (plain, _) = scenario(seed, 90, None, workers);
        assert!(plain.save().unwrap() == world.save().unwrap(), "seed {seed}: recording changed the world");
        let kinds: Vec<u8> = chunks(&bytes).iter().map(|c| c.0).collect();
        for kind in [1, 2, 3, 4, 5, 255] {
            assert!(kinds.contains(&kind), "seed {seed}: no chunk of kind {kind}");
        }
        if seed.is_multiple_of(2) {
            assert!(kinds.iter().filter(|&&k| k == 1).count() == 2, "seed {seed}: load_into writes a fresh START");
        }
        why_agrees_with_the_steps(&bytes, seed != 5);
        stops_checked += stops_are_on_the_occluders_they_name(&bytes, seed);
    }
    assert!(stops_checked > 50, "only {stops_checked} blocked points checked");
    let beliefs = BELIEF_STEPS.load(std::sync::atomic::Ordering::Relaxed);
    assert!(beliefs > 100, "the scenarios kept beliefs in only {beliefs} belief-steps");
}

/// Each frame's agents, targets and memory, its changes applied from the last key frame, are the
/// replayed world's at that step; and every blocked point names an occluder that the ray from
/// the agent's eye to the point meets, at the distance written. Returns how many points it
/// checked.
fn stops_are_on_the_occluders_they_name(bytes: &[u8], seed: u64) -> usize {
    let fs = frames(bytes);
    let mut replay = Replay::new(bytes).unwrap();
    let mut checked = 0;
    for (k, f) in fs.iter().enumerate() {
        assert!(replay.next_step().unwrap());
        let w = replay.world();
        // The frames' changes, applied from the last key frame, give the world's agents and
        // targets of that step.
        let bits = |index: u32, generation: u32| index as u64 | (generation as u64 & 0xFFFF) << 48;
        let mut agents: Vec<u64> = w.agents().map(|(id, _)| bits(id.index, id.generation)).collect();
        agents.sort_unstable();
        assert_eq!(f.agents.iter().map(|a| a.0).collect::<Vec<_>>(), agents, "seed {seed} frame {k}: agents");
        let target = |t: &Target| {
            let mut v = t.position().to_array().to_vec();
            v.extend([t.enabled() as u8 as f32, t.team() as f32, t.layers() as f32]);
            t.world_points().for_each(|p| v.extend(p.to_array()));
            v
        };
        let mut targets: Vec<(u64, Vec<f32>)> =
            w.targets().map(|(id, t)| (bits(id.index, id.generation), target(t))).collect();
        targets.sort_by_key(|t| t.0);
        assert_eq!(f.targets, targets, "seed {seed} frame {k}: targets");
        records_match_the_world(f, w, &format!("seed {seed} frame {k}"));
        for (a, t, statuses, _, stops) in &f.why {
            let agent = w.agents().find(|(id, _)| id.index == *a).unwrap().0;
            let target = w.targets().find(|(id, _)| id.index == *t).unwrap().0;
            let e = w.explain_sight(agent, target).unwrap();
            let blocked = (0..e.points().len()).filter(|&p| statuses >> (2 * p) & 3 == 2);
            for (p, &(distance, slot)) in blocked.zip(stops) {
                let (id, occluder) = w
                    .occluders()
                    .iter()
                    .find(|(id, _)| id.index == slot)
                    .unwrap_or_else(|| panic!("seed {seed} frame {k}: occluder slot {slot} is not live"));
                let to = e.points()[p].point - e.eye;
                let at = occluder.ray_distance(e.eye, to.normalize(), to.length());
                let near = at.is_some_and(|at| (at - distance).abs() <= 1e-3 * (1.0 + distance));
                assert!(near, "seed {seed} frame {k}: {id:?} is at {at:?} on the ray, the recording says {distance}");
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn a_changed_frame_is_refused_by_the_checksum_or_as_a_mismatch() {
    let (_, bytes) = scenario(7, 30, Some(RecordOptions::default()), 1);
    let frames: Vec<_> = chunks(&bytes).into_iter().filter(|c| c.0 == 5).collect();
    // A flipped byte: the checksum catches it.
    let mut damaged = bytes.clone();
    damaged[frames[10].1 + 30] ^= 0x40;
    assert!(matches!(Replay::new(&damaged), Err(Error::BadSnapshot(m)) if m.contains("checksum")));
    // Resealed, the replay itself finds the difference: the first agent's position in step 10.
    let mut resealed = bytes.clone();
    resealed[frames[10].1 + 16 + 4 + 8] ^= 0x01;
    argus_core::record::reseal(&mut resealed);
    let mut replay = Replay::new(&resealed).unwrap();
    assert_eq!(replay.run_to_end(), Err(Error::ReplayMismatch { step: 10, section: "agents" }));
    assert_eq!(replay.steps_done(), 10);
    // A percept's strength changed (if step 20 has one), or the clock of step 20.
    let mut resealed = bytes.clone();
    resealed[frames[20].1] ^= 0x01;
    argus_core::record::reseal(&mut resealed);
    let err = Replay::new(&resealed).unwrap().run_to_end();
    assert_eq!(err, Err(Error::ReplayMismatch { step: 20, section: "frame header" }));
    // A recorded input changed: a pose moved; the replay diverges at that step at the latest.
    let inputs: Vec<_> = chunks(&bytes).into_iter().filter(|c| c.0 == 3 && bytes[c.1] == 4).collect();
    let mut resealed = bytes.clone();
    resealed[inputs[5].1 + 4 + 8] ^= 0x10;
    argus_core::record::reseal(&mut resealed);
    assert!(matches!(Replay::new(&resealed).unwrap().run_to_end(), Err(Error::ReplayMismatch { .. })));
}

#[test]
fn truncated_and_damaged_recordings_are_refused() {
    let (_, bytes) = scenario(8, 20, Some(RecordOptions::default()), 1);
    let cs = chunks(&bytes);
    let mut cuts: Vec<usize> = cs.iter().map(|c| c.1 - 8).collect();
    cuts.extend((0..bytes.len()).step_by(97));
    cuts.extend([0, 7, 8, 15, 16, bytes.len() - 1, bytes.len() - 24]);
    for cut in cuts {
        match Replay::new(&bytes[..cut]) {
            Err(Error::BadSnapshot(m)) => assert!(m.starts_with("recording:"), "{m}"),
            other => panic!("a recording cut at {cut} of {} gave {other:?}", bytes.len()),
        }
    }
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert!(matches!(Replay::new(&bad), Err(Error::BadSnapshot(m)) if m.contains("magic")));
    let mut bad = bytes.clone();
    bad[8] = 1;
    assert!(matches!(Replay::new(&bad), Err(Error::BadSnapshot(m)) if m.contains("version")));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Replay::new(&longer).is_err());
    assert!(Replay::new(&bytes).is_ok());
}

#[test]
fn engine_ray_worlds_replay_with_their_recorded_answers() {
    // Seeds whose Why once disagreed with the steps: the engine answers every agent's rays,
    // and only the focus agents' answers belong to the traced pairs.
    for seed in [77, 80, 82, 83] {
        engine_ray_world_replays(seed);
    }
}

fn engine_ray_world_replays(seed: u64) {
    let def = WorldDef { ray_backend: RayBackend::Engine, ..Default::default() };
    let mut w = World::new(&def).unwrap();
    let mut rng = Rng(seed);
    let agents: Vec<AgentId> = (0..10).map(|_| w.create_agent(&agent_def(&mut rng)).unwrap()).collect();
    let targets: Vec<TargetId> = (0..6).map(|_| w.create_target(&target_def(&mut rng)).unwrap()).collect();
    // The engine: a deterministic function of the ray (blocked halfway for a third of the
    // directions).
    let mut engine = |rays: &[RayQuery], hits: &mut [RayHit]| {
        for (r, h) in rays.iter().zip(hits.iter_mut()) {
            let hit = ((r.direction.x + 1.0) * 100.0) as i32 % 3 == 0;
            *h = RayHit { hit, distance: if hit { r.max_distance * 0.5 } else { 0.0 } };
        }
    };
    w.start_recording(&RecordOptions { focus: agents[..4].to_vec(), explain: true }).unwrap();
    let (mut blocked, mut seen) = (0, 0);
    for step in 0..60u32 {
        for &t in &targets {
            let p = w.target(t).unwrap().position() + rng.ground(0.4);
            w.set_target_pose(t, p, Vec3::Z).unwrap();
        }
        if step.is_multiple_of(2) {
            w.step_with(0.05, Rays::Engine(&mut engine)).unwrap();
        } else {
            let rays = w.begin_step(0.05).unwrap().to_vec();
            let mut hits = vec![RayHit::default(); rays.len()];
            engine(&rays, &mut hits);
            blocked += hits.iter().filter(|h| h.hit).count();
            w.finish_step(&hits).unwrap();
        }
        seen += w.events().percepts.len();
        assert!(w.step(0.05).is_err(), "an engine-ray world refuses built-in steps");
    }
    let bytes = w.stop_recording().unwrap();
    assert!(blocked > 0 && seen > 0, "the engine blocked some rays ({blocked}) and agents saw ({seen})");
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().unwrap();
    assert_eq!(replay.steps_done(), 60);
    why_agrees_with_the_steps(&bytes, true);
    assert!(replay.world().save().unwrap() == w.save().unwrap());
    // Other answers from the engine would be another recording: changing one answer is caught.
    let steps: Vec<_> = chunks(&bytes).into_iter().filter(|c| c.0 == 4 && c.2 > 8).collect();
    let mut changed = bytes.clone();
    let (at, len) = (steps[steps.len() / 2].1, steps[steps.len() / 2].2);
    for k in (8..len).step_by(8) {
        changed[at + k] ^= 1; // every answer of that step flipped
    }
    argus_core::record::reseal(&mut changed);
    assert!(matches!(Replay::new(&changed).unwrap().run_to_end(), Err(Error::ReplayMismatch { .. })));
}

#[test]
fn explain_sight_agrees_with_can_see() {
    let (mut checked, mut blocked, mut visible, mut filtered) = (0, 0, 0, 0);
    for seed in 20..26 {
        // A dense world: agents, targets and occluders within 10 m.
        let mut rng = Rng(seed);
        let mut w = World::default();
        for _ in 0..25 {
            let mut d = occluder(&mut rng);
            d.position = rng.ground(10.0) + Vec3::Y;
            w.add_occluder(&d).unwrap();
        }
        for _ in 0..15 {
            let mut d = agent_def(&mut rng);
            d.position = rng.ground(10.0);
            w.create_agent(&d).unwrap();
        }
        for _ in 0..12 {
            let mut d = target_def(&mut rng);
            d.position = rng.ground(10.0);
            w.create_target(&d).unwrap();
        }
        w.set_attitude(0, 1, Attitude::Friendly).unwrap();
        let agents: Vec<AgentId> = w.agents().map(|(id, _)| id).collect();
        let targets: Vec<TargetId> = w.targets().map(|(id, _)| id).collect();
        for &a in &agents {
            for &t in &targets {
                let seen = w.can_see(a, t).unwrap();
                let why = w.explain_sight(a, t).unwrap();
                assert_eq!(why.seen, seen.seen, "seed {seed} {a:?} {t:?}");
                assert_eq!(why.point_count, seen.point_count);
                for (p, q) in why.points().iter().zip(seen.points()) {
                    assert_eq!(p.status, q.status, "seed {seed} {a:?} {t:?}");
                    assert_eq!(p.point, q.point);
                    if p.status == PointStatus::Blocked {
                        assert_eq!(p.hit, q.hit);
                        let o = w.occluder(p.occluder).expect("a blocked point names a live occluder");
                        assert!(o.def().layers & w.agent(a).unwrap().sight().obstacle_mask != 0);
                        blocked += 1;
                    }
                    visible += (p.status == PointStatus::Visible) as u32;
                    filtered += (p.status == PointStatus::Filtered) as u32;
                    if p.status == PointStatus::OutOfRange {
                        assert!(p.distance > why.radius.min(p.distance), "out of range beyond some radius");
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 500 && blocked > 20 && visible > 20 && filtered > 20, "{checked} {blocked} {visible} {filtered}");
}

/// A Why pair as read: (agent slot, target slot, statuses, flags, its blocked points' stops as
/// (distance, occluder slot)).
type WhyPair = (u32, u32, u16, u8, Vec<(f32, u32)>);

/// Frame sections of a recording, read as `docs/recording.md` says (a second reader), with the
/// delta sections applied: each frame's agents are all the live agents then.
struct Frame {
    key: bool,
    /// (agent id, flags) of every live agent, and how many records the frame itself held.
    agents: Vec<(u64, u8)>,
    /// Every live agent's Agents record, and the Memory records of those in focus, by agent id.
    records: std::collections::BTreeMap<u64, [u8; 84]>,
    memory: std::collections::BTreeMap<u64, Vec<[u8; 32]>>,
    /// (target id, [position, enabled (0 or 1), team, layers, world check points]) of every target.
    targets: Vec<(u64, Vec<f32>)>,
    agents_written: usize,
    /// Slots of the agents whose sight ticked.
    ticked: Vec<u32>,
    /// (agent slot, target slot) of sight percepts, and of lost sight.
    sight: Vec<(u32, u32)>,
    lost: Vec<(u32, u32)>,
    /// (agent slot, target slot, statuses, flags, blocked stops (distance, occluder slot)).
    why: Vec<WhyPair>,
}

impl Frame {
    fn verdict(statuses: u16, points: usize) -> u8 {
        (0..points).map(|k| (statuses >> (2 * k) & 3) as u8).max().unwrap_or(0)
    }
}

fn frames(bytes: &[u8]) -> Vec<Frame> {
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
    let u64_at = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
    let f32_at = |b: &[u8], at: usize| f32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let slot = |id: u64| id as u32;
    let mut out: Vec<Frame> = Vec::new();
    let mut live: std::collections::BTreeMap<u64, [u8; 84]> = Default::default();
    let mut memory: std::collections::BTreeMap<u64, Vec<[u8; 32]>> = Default::default();
    let mut targets: std::collections::BTreeMap<u64, Vec<f32>> = Default::default();
    for (_, at, len) in chunks(bytes).into_iter().filter(|c| c.0 == 5) {
        let f = &bytes[at..at + len];
        let key = u32_at(f, 16) & 1 != 0;
        if key {
            live.clear();
            targets.clear();
            memory.clear();
        }
        let mut p = 20;
        let mut frame = Frame {
            key,
            agents: Vec::new(),
            records: Default::default(),
            memory: Default::default(),
            targets: Vec::new(),
            agents_written: 0,
            ticked: Vec::new(),
            sight: Vec::new(),
            lost: Vec::new(),
            why: Vec::new(),
        };
        for section in 0..13 {
            let n = u32_at(f, p);
            p += 4;
            for _ in 0..n {
                p += match section {
                    0 => {
                        live.insert(u64_at(f, p), f[p..p + 84].try_into().unwrap());
                        frame.agents_written += 1;
                        84
                    }
                    1 => {
                        live.remove(&u64_at(f, p));
                        memory.remove(&u64_at(f, p));
                        8
                    }
                    2 => {
                        let (first, count) = (u32_at(f, p) as u32, u32_at(f, p + 4) as u32);
                        frame.ticked.extend(first..first + count);
                        12
                    }
                    3 => {
                        // Format 4: team and layers after the pad, then the check points.
                        let mut v = vec![f32_at(f, p + 8), f32_at(f, p + 12), f32_at(f, p + 16), f[p + 20] as f32];
                        v.extend([u32_at(f, p + 24) as f32, u32_at(f, p + 28) as f32]);
                        v.extend((0..3 * f[p + 21] as usize).map(|k| f32_at(f, p + 32 + 4 * k)));
                        targets.insert(u64_at(f, p), v);
                        32 + 12 * f[p + 21] as usize
                    }
                    4 => {
                        targets.remove(&u64_at(f, p));
                        8
                    }
                    6 => {
                        if f[p + 16] == 0 {
                            frame.sight.push((slot(u64_at(f, p)), slot(u64_at(f, p + 8))));
                        }
                        48
                    }
                    7 => 24,
                    8 => {
                        if f[p + 16] == 0 {
                            frame.lost.push((slot(u64_at(f, p)), slot(u64_at(f, p + 8))));
                        }
                        32
                    }
                    11 => {
                        let n = u32_at(f, p + 8);
                        let records = (0..n).map(|k| f[p + 12 + 32 * k..p + 44 + 32 * k].try_into().unwrap());
                        memory.insert(u64_at(f, p), records.collect());
                        12 + 32 * n
                    }
                    12 => {
                        let (agent, pairs) = (u32_at(f, p) as u32, u32_at(f, p + 4));
                        let mut q = p + 8;
                        for _ in 0..pairs {
                            let (target, points, flags) = (u32_at(f, q) as u32, f[q + 4] as usize, f[q + 5]);
                            let statuses = u16::from_le_bytes([f[q + 6], f[q + 7]]);
                            q += 8;
                            let mut stops = Vec::new();
                            for k in 0..points {
                                if statuses >> (2 * k) & 3 == 2 {
                                    stops.push((f32_at(f, q), u32_at(f, q + 4) as u32));
                                    q += 8;
                                }
                            }
                            frame.why.push((agent, target, statuses, flags, stops));
                        }
                        q - p
                    }
                    _ => 32,
                };
            }
        }
        frame.agents = live.iter().map(|(&id, record)| (id, record[61])).collect();
        frame.records = live.clone();
        frame.memory = memory.iter().filter(|(id, _)| live.contains_key(id)).map(|(&id, m)| (id, m.clone())).collect();
        frame.targets = targets.iter().map(|(&id, p)| (id, p.clone())).collect();
        out.push(frame);
    }
    out
}

/// In every frame, a Why pair has a visible point exactly when the step produced a sight
/// percept for it (the explanation is the step's own decision); every sight percept of an agent
/// in focus is explained; with `explain`, some frames explain something else than a sighting.
fn why_agrees_with_the_steps(bytes: &[u8], explain: bool) {
    let (mut visible, mut other) = (0, 0);
    for (k, f) in frames(bytes).iter().enumerate() {
        for (a, t, statuses, _, _) in &f.why {
            let seen = (0..8).any(|k| statuses >> (2 * k) & 3 == 3);
            assert_eq!(seen, f.sight.contains(&(*a, *t)), "frame {k}: {a} {t} statuses {statuses:#b}");
            if seen {
                visible += 1
            } else {
                other += 1
            }
            assert!(f.ticked.contains(a), "frame {k}: agent {a} explained without a tick");
        }
        for &(a, t) in &f.sight {
            let in_focus = f.agents.iter().any(|x| x.0 as u32 == a && x.1 & 8 != 0);
            assert!(!explain || !in_focus || f.why.iter().any(|x| x.0 == a && x.1 == t), "frame {k}");
        }
    }
    assert_eq!(explain, visible > 0 && other > 0, "{visible} visible, {other} not");
}

#[test]
fn the_why_section_follows_the_sight_schedule_and_the_steps_decisions() {
    let mut w = World::default();
    let mut slow = AgentDef::default();
    slow.sight.rate_hz = 2.0;
    slow.sight.view_angle = 360.0;
    let slow = w.create_agent(&slow).unwrap();
    let fast = w.create_agent(&AgentDef { position: Vec3::new(2.0, 0.0, 0.0), ..Default::default() }).unwrap();
    let far = w.create_agent(&AgentDef { position: Vec3::new(0.0, 0.0, -40.0), ..Default::default() }).unwrap();
    let near = w.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 5.0), ..Default::default() }).unwrap();
    let behind_wall = w.create_target(&TargetDef { position: Vec3::new(2.0, 0.0, 8.0), ..Default::default() }).unwrap();
    // Occluders elsewhere first, so the wall's id is not the first (nor its place in any order).
    for k in 0..5 {
        let far_away = Vec3::new(-30.0 - 3.0 * k as f32, 1.0, 40.0 + 7.0 * k as f32);
        w.add_occluder(&OccluderDef::cuboid(far_away, Vec3::new(1.0, 2.0, 1.0))).unwrap();
    }
    let wall = w.add_occluder(&OccluderDef::cuboid(Vec3::new(2.0, 1.0, 6.0), Vec3::new(1.0, 2.0, 0.2))).unwrap();
    assert_eq!(wall.index, 5);
    w.start_recording(&RecordOptions::default()).unwrap();
    for _ in 0..40 {
        w.step(0.05).unwrap();
    }
    let bytes = w.stop_recording().unwrap();
    Replay::new(&bytes).unwrap().run_to_end().unwrap();
    let (mut slow_ticks, mut slow_idle) = (0, 0);
    let fs = frames(&bytes);
    // A key frame, then only what changed (fewer than every agent, once they settle).
    assert!(fs[0].key && fs[0].agents_written == 3 && fs[1..].iter().all(|f| !f.key));
    assert!(fs.iter().any(|f| f.agents_written == 0 && f.agents.len() == 3), "every frame wrote every agent");
    for (k, f) in fs.iter().enumerate() {
        let in_why = |a: AgentId| f.why.iter().any(|x| x.0 == a.index);
        // An agent appears in Why exactly when its sight ticked, given a target in view.
        for a in [slow, fast] {
            assert_eq!(f.ticked.contains(&a.index), in_why(a), "frame {k}, agent {a:?}");
        }
        // The far agent has no target in view.
        assert!(!in_why(far), "frame {k}");
        if f.ticked.contains(&slow.index) {
            slow_ticks += 1
        } else {
            slow_idle += 1
        }
        if f.ticked.contains(&fast.index) {
            let pair = |t: TargetId| f.why.iter().find(|x| x.0 == fast.index && x.1 == t.index).unwrap();
            assert_eq!(Frame::verdict(pair(near).2, 1), 3);
            let (_, _, statuses, _, stops) = pair(behind_wall);
            assert_eq!(Frame::verdict(*statuses, 1), 2);
            // The blocked point names the wall and where the ray stopped (its near face, 5.8 m
            // along z from the eye at z = 0).
            assert_eq!(stops.len(), 1);
            assert_eq!(stops[0].1, wall.index);
            assert!(stops[0].0 > 5.8 && stops[0].0 < 5.9, "{stops:?}");
        }
    }
    // 2 s at 2 Hz from its first tick at the first step: 5 ticks; the other frames leave it
    // out of Why.
    assert_eq!(slow_ticks, 5);
    assert_eq!(slow_idle, 35);
    // The live explanation names the same wall and where the ray stopped.
    let e = w.explain_sight(fast, behind_wall).unwrap();
    assert_eq!(e.verdict, PointStatus::Blocked);
    assert_eq!(e.points()[0].occluder, wall);
    assert!((e.points()[0].hit.z - 5.8).abs() < 0.01, "{:?}", e.points()[0].hit);
    // Out of range: by how much.
    w.set_agent_pose(fast, Vec3::new(2.0, 0.0, -20.0), Vec3::Z).unwrap();
    let e = w.explain_sight(fast, near).unwrap();
    assert_eq!(e.verdict, PointStatus::OutOfRange);
    assert!(e.distance > e.radius && e.radius == 10.0, "{e:?}");
}

#[test]
fn focus_narrows_memory_and_why_and_bad_calls_change_nothing() {
    let mut w = World::default();
    let a = w.create_agent(&AgentDef::default()).unwrap();
    let b = w.create_agent(&AgentDef { position: Vec3::new(1.0, 0.0, 0.0), ..Default::default() }).unwrap();
    w.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 4.0), ..Default::default() }).unwrap();
    assert!(w.stop_recording().is_err());
    assert!(
        w.start_recording(&RecordOptions { focus: vec![AgentId { index: 7, generation: 1 }], explain: true }).is_err()
    );
    assert!(!w.is_recording());
    w.begin_step(0.1).unwrap();
    assert_eq!(w.start_recording(&RecordOptions::default()), Err(Error::StepInProgress));
    w.cancel_step();
    w.start_recording(&RecordOptions { focus: vec![b], explain: true }).unwrap();
    assert!(w.start_recording(&RecordOptions::default()).is_err());
    for _ in 0..10 {
        w.step(0.1).unwrap();
    }
    let bytes = w.stop_recording().unwrap();
    let bits = |i: AgentId| i.index as u64 | (i.generation as u64) << 48;
    let fs = frames(&bytes);
    assert!(fs.iter().any(|f| !f.why.is_empty()));
    for f in &fs {
        assert!(f.why.iter().all(|x| x.0 == b.index), "only the agent in focus is explained");
        assert_eq!(f.agents.iter().find(|x| x.0 == bits(a)).unwrap().1 & 8, 0);
        assert_eq!(f.agents.iter().find(|x| x.0 == bits(b)).unwrap().1 & 8, 8);
    }
    Replay::new(&bytes).unwrap().run_to_end().unwrap();
}

#[test]
fn the_why_section_uses_the_lose_sight_radius_as_the_step_did() {
    let mut w = World::default();
    let mut d = AgentDef::default();
    d.sight.view_radius = 10.0;
    d.sight.lose_sight_radius = 15.0;
    d.sight.rate_hz = 0.0;
    let a = w.create_agent(&d).unwrap();
    let t = w.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 12.0), ..Default::default() }).unwrap();
    w.start_recording(&RecordOptions::default()).unwrap();
    // Not seen at 12 m (beyond the view radius), seen at 8, kept at 12, lost at 16.
    let mut expected = Vec::new();
    for (z, seen, radius) in
        [(12.0, false, 10.0), (8.0, true, 10.0), (12.0, true, 15.0), (16.0, false, 15.0), (12.0, false, 10.0)]
    {
        w.set_target_pose(t, Vec3::new(0.0, 0.0, z), Vec3::Z).unwrap();
        w.step(0.1).unwrap();
        assert_eq!(w.can_see(a, t).unwrap().seen || w.memory_of(a, t).unwrap().is_some_and(|r| r.seen), seen);
        expected.push((seen, radius));
    }
    let bytes = w.stop_recording().unwrap();
    // Listed while in view: seen with the view radius (8 m), then kept through the lose-sight
    // radius (12 m, flag bit 0); at 16 m it is lost (a Seen/Lost record) and, out of range of
    // both, not listed; back at 12 m, not seen before, the view radius applies: not listed.
    let fs = frames(&bytes);
    let got: Vec<Option<(bool, u8)>> =
        fs.iter().map(|f| f.why.first().map(|x| (Frame::verdict(x.2, 1) == 3, x.3))).collect();
    assert_eq!(got, vec![None, Some((true, 0)), Some((true, 1)), None, None]);
    assert_eq!(fs[3].lost, vec![(a.index, t.index)]);
    assert!(expected.iter().zip(&got).all(|(e, g)| e.0 == g.is_some_and(|g| g.0)));
}

/// The fuzz target's idea under `cargo test`: changed, inserted and cut bytes, resealed or not,
/// are refused with `BadSnapshot` or `ReplayMismatch`, never a panic; a sample of each outcome.
#[test]
fn mutated_recordings_are_refused_never_a_panic() {
    let (_, bytes) = scenario(9, 15, Some(RecordOptions::default()), 1);
    let mut rng = Rng(0xDEAD_BEEF);
    let (mut bad, mut mismatch, mut fine) = (0, 0, 0);
    for case in 0..800u32 {
        let mut b = bytes.clone();
        for _ in 0..1 + rng.n(3) {
            let at = rng.n(b.len());
            match rng.n(10) {
                0 => b.truncate(at.max(1)),
                1 => b.insert(at, rng.next() as u8),
                2 => {
                    b.remove(at);
                }
                _ => b[at] ^= 1 << rng.n(8),
            }
        }
        if !case.is_multiple_of(4) {
            argus_core::record::reseal(&mut b);
        }
        let outcome = std::panic::catch_unwind(|| Replay::new(&b).and_then(|mut r| r.run_to_end()));
        match outcome.unwrap_or_else(|_| panic!("case {case} panicked")) {
            Ok(()) => fine += 1,
            Err(Error::BadSnapshot(m)) => {
                assert!(m.starts_with("recording:"), "{m}");
                bad += 1
            }
            Err(Error::ReplayMismatch { .. }) => mismatch += 1,
            Err(other) => panic!("case {case}: {other:?}"),
        }
    }
    assert!(bad > 100 && mismatch > 100, "{bad} refused, {mismatch} mismatched, {fine} replayed");
}

#[test]
fn a_recording_world_stays_send_and_sync() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    let mut w = World::default();
    w.start_recording(&RecordOptions::default()).unwrap();
    send_sync(&w);
    std::thread::scope(|s| {
        s.spawn(|| w.step(0.1).unwrap());
    });
    assert_eq!(Replay::new(&w.stop_recording().unwrap()).unwrap().step_count(), 1);
}

/// A target in view that the agent's filter refuses is listed with why: its layers are not in
/// the target mask (3), or its team is a friend's (4); one it may see is listed with its points.
#[test]
fn the_why_section_names_the_filter_that_refused_a_target() {
    let mut w = World::default();
    let mut d = AgentDef { team: 1, ..Default::default() };
    d.sight.target_mask = 1;
    d.sight.rate_hz = 0.0;
    let a = w.create_agent(&d).unwrap();
    let at = |x: f32| Vec3::new(x, 0.0, 5.0);
    let seen = w.create_target(&TargetDef { position: at(0.0), team: 2, layers: 1, ..Default::default() }).unwrap();
    let masked = w.create_target(&TargetDef { position: at(1.0), team: 2, layers: 2, ..Default::default() }).unwrap();
    let friend = w.create_target(&TargetDef { position: at(-1.0), team: 1, layers: 1, ..Default::default() }).unwrap();
    w.set_attitude(1, 1, Attitude::Friendly).unwrap();
    w.start_recording(&RecordOptions::default()).unwrap();
    w.step(0.1).unwrap();
    let bytes = w.stop_recording().unwrap();
    let f = &frames(&bytes)[0];
    let pair = |t: TargetId| f.why.iter().find(|x| x.0 == a.index && x.1 == t.index).map(|x| (x.2, x.3 >> 4));
    assert_eq!(pair(seen), Some((3, 0)), "seen: its point visible, no filter");
    assert_eq!(pair(masked), Some((0, 3)), "refused by the target mask");
    assert_eq!(pair(friend), Some((0, 4)), "refused by attitude");
    assert_eq!(w.explain_sight(a, masked).unwrap().filter, SightFilterReason::Layers);
    assert_eq!(w.explain_sight(a, friend).unwrap().filter, SightFilterReason::Attitude);
}

/// A recording of several megabytes (gathered by the recording's thread in pieces, its checksum
/// kept as they come) ends with the checksum of all of it and replays exactly.
#[test]
fn a_recording_of_several_megabytes_verifies_and_replays() {
    let mut w = World::default();
    for k in 0..400 {
        let (x, z) = ((k % 20) as f32 * 3.0, (k / 20) as f32 * 3.0);
        let mut d = AgentDef { position: Vec3::new(x, 0.0, z), ..Default::default() };
        d.sight.rate_hz = 0.0;
        w.create_agent(&d).unwrap();
        if k % 4 == 0 {
            w.create_target(&TargetDef { position: Vec3::new(x + 1.0, 0.0, z + 1.5), ..Default::default() }).unwrap();
        }
    }
    w.add_occluder(&OccluderDef::cuboid(Vec3::new(30.0, 1.0, 30.0), Vec3::new(10.0, 2.0, 0.3))).unwrap();
    w.start_recording(&RecordOptions::default()).unwrap();
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    let bytes = w.stop_recording().unwrap();
    assert!(bytes.len() > 4 << 20, "{} bytes", bytes.len());
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().unwrap();
    assert!(replay.world().save().unwrap() == w.save().unwrap());
}

/// An idle agent that remembers nothing is skipped by the frames between key frames; an input
/// that moves it, retunes it or gives it a memory still reaches the next frame's Agents record.
#[test]
fn an_input_to_a_quiet_agent_reaches_the_next_frame() {
    let mut w = World::default();
    let quiet = w.create_agent(&AgentDef { position: Vec3::new(0.0, 0.0, 0.0), ..Default::default() }).unwrap();
    let far = w.create_target(&TargetDef { position: Vec3::new(500.0, 0.0, 0.0), ..Default::default() }).unwrap();
    w.start_recording(&RecordOptions::default()).unwrap();
    for _ in 0..3 {
        w.step(0.1).unwrap();
    }
    w.set_agent_pose(quiet, Vec3::new(4.0, 0.0, 2.0), Vec3::Z).unwrap();
    w.step(0.1).unwrap();
    w.step(0.1).unwrap();
    let mut sight = w.agent(quiet).unwrap().def().sight;
    sight.view_radius = 7.5;
    w.set_agent_sight(quiet, &sight).unwrap();
    w.step(0.1).unwrap();
    w.set_agent_poses(&[quiet], &[Vec3::new(-3.0, 0.0, 1.0)], None).unwrap();
    w.step(0.1).unwrap();
    w.remember(quiet, far, Vec3::new(500.0, 0.0, 0.0), 0.5).unwrap();
    w.step(0.1).unwrap();
    let bytes = w.stop_recording().unwrap();
    // Each frame's Agents records: (position, view radius, memory records in the Memory section).
    let f32_at = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let frames: Vec<Vec<([f32; 3], f32)>> = chunks(&bytes)
        .into_iter()
        .filter(|c| c.0 == 5)
        .map(|(_, at, _)| {
            let agents = at + 20;
            (0..u32_at(agents))
                .map(|k| {
                    let r = agents + 4 + 84 * k;
                    ([f32_at(r + 8), f32_at(r + 12), f32_at(r + 16)], f32_at(r + 44))
                })
                .collect()
        })
        .collect();
    assert_eq!(frames.len(), 8);
    assert_eq!(frames[0].len(), 1, "the first frame is a key frame");
    for k in [1, 2, 4] {
        assert!(frames[k].is_empty(), "frame {k}: nothing changed, yet {:?}", frames[k]);
    }
    let radius = AgentDef::default().sight.view_radius;
    assert_eq!(frames[3], vec![([4.0, 0.0, 2.0], radius)], "the pose of step 3");
    assert_eq!(frames[5], vec![([4.0, 0.0, 2.0], 7.5)], "the sight of step 5");
    assert_eq!(frames[6], vec![([-3.0, 0.0, 1.0], 7.5)], "the poses of step 6");
    // The memory record given by hand changes no Agents field here (no awareness, idle), but the
    // agent is no longer quiet: the replay compares its Memory record.
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().unwrap();
    assert!(replay.world().save().unwrap() == w.save().unwrap());
}

/// The Agents and Memory records a reader rebuilt for a frame say what the world held at that
/// step: pose, brain state, move target, awareness, and each memory record of an agent in focus.
fn records_match_the_world(f: &Frame, w: &World, at: &str) {
    let f32s = |r: &[u8], at: usize, n: usize| -> Vec<f32> {
        (0..n).map(|k| f32::from_le_bytes(r[at + 4 * k..at + 4 * k + 4].try_into().unwrap())).collect()
    };
    for (id, agent) in w.agents() {
        let bits = id.index as u64 | (id.generation as u64 & 0xFFFF) << 48;
        let r = &f.records[&bits];
        assert_eq!(f32s(r, 8, 3), agent.position().to_array(), "{at}: {id:?} position");
        assert_eq!(f32s(r, 20, 3), agent.forward().to_array(), "{at}: {id:?} forward");
        assert_eq!(r[60], agent.brain().state as u8, "{at}: {id:?} brain state");
        let target = w.move_target(id).unwrap();
        assert_eq!(r[61] >> 1 & 1 == 1, target.is_some(), "{at}: {id:?} has a move target");
        assert_eq!(f32s(r, 68, 3), target.unwrap_or(Vec3::ZERO).to_array(), "{at}: {id:?} move target");
        let stage = agent.memory().iter().map(|m| m.stage as u8).max().unwrap_or(0);
        let level = agent.memory().iter().map(|m| m.awareness).fold(0.0f32, f32::max);
        assert_eq!((r[63], f32s(r, 64, 1)[0]), (stage, level), "{at}: {id:?} awareness");
        if r[61] & 8 == 0 {
            continue;
        }
        let memory = f.memory.get(&bits).map_or(&[][..], |m| &m[..]);
        assert_eq!(memory.len(), agent.memory().len(), "{at}: {id:?} memory records");
        for (m, rec) in agent.memory().iter().zip(memory) {
            let tid = u64::from_le_bytes(rec[..8].try_into().unwrap());
            assert_eq!(tid, m.target.index as u64 | (m.target.generation as u64 & 0xFFFF) << 48, "{at}: {id:?}");
            let (p, c, t) = (m.last_known_position.to_array(), m.confidence, m.last_percept_time);
            assert_eq!(f32s(rec, 8, 5), vec![p[0], p[1], p[2], c, t], "{at}: {id:?} memory of {:?}", m.target);
            assert_eq!(rec[28] == 1, m.seen, "{at}: {id:?} memory of {:?} seen", m.target);
        }
    }
}

/// An agent that remembers nothing changes only its brain when it hears a sound with no source:
/// the frame after holds its new state (it was skipped before as unchanged).
#[test]
fn a_brain_change_alone_reaches_the_next_frame() {
    let mut w = World::default();
    let guard = w.create_agent(&AgentDef::default()).unwrap();
    w.start_recording(&RecordOptions::default()).unwrap();
    w.step(0.1).unwrap();
    w.step(0.1).unwrap();
    let sound = SoundDef { position: Vec3::new(2.0, 0.0, 2.0), loudness: 50.0, ..Default::default() };
    w.emit_sound(&sound).unwrap();
    w.step(0.1).unwrap();
    assert!(w.agent(guard).unwrap().memory().is_empty(), "a sound with no source leaves no memory");
    assert_eq!(w.agent(guard).unwrap().brain().state, BrainState::Investigating);
    // Arrived: Searching, then Idle when its timer runs out, the position it searched unchanged.
    w.report_arrived(guard).unwrap();
    let mut states = Vec::new();
    while states.last() != Some(&BrainState::Idle) && states.len() < 50 {
        w.step(1.0).unwrap();
        states.push(w.agent(guard).unwrap().brain().state);
    }
    assert_eq!(states.first(), Some(&BrainState::Searching));
    assert_eq!(states.last(), Some(&BrainState::Idle));
    let bytes = w.stop_recording().unwrap();
    let fs = frames(&bytes);
    assert_eq!(fs.len(), 3 + states.len());
    assert_eq!(fs[1].agents_written, 0, "nothing changed at step 1");
    assert_eq!(fs[2].agents_written, 1, "the brain change of step 2");
    let record = fs[2].records.values().next().unwrap();
    assert_eq!(record[60], BrainState::Investigating as u8);
    assert_eq!(f32::from_le_bytes(record[68..72].try_into().unwrap()), 2.0, "the move target");
    for (k, state) in states.iter().enumerate() {
        let record = fs[3 + k].records.values().next().unwrap();
        assert_eq!(record[60], *state as u8, "step {}: the brain state", 3 + k);
    }
}

/// A START's SCENE ends with the walk graph in force, as the input that sets it would carry it
/// (a grid: call 25 and its definition; a given graph: call 26, snap, nodes, edges; none: 27),
/// so a reader that does not replay (the inspector) knows a graph set before recording began. A
/// SCENE for an occluder's change says nothing of it (0).
#[test]
fn a_start_scene_carries_the_walk_graph_in_force() {
    let scene_walk = |bytes: &[u8]| -> Vec<Vec<u8>> {
        chunks(bytes)
            .into_iter()
            .filter(|c| c.0 == 2)
            .map(|(_, at, len)| {
                let body = &bytes[at..at + len];
                // Skip the occluders: u64 id, u32 layers, polygons of u32 count and (x, z) points.
                let mut p = 4;
                for _ in 0..u32::from_le_bytes(body[0..4].try_into().unwrap()) {
                    let polygons = u32::from_le_bytes(body[p + 12..p + 16].try_into().unwrap());
                    p += 16;
                    for _ in 0..polygons {
                        p += 4 + 8 * u32::from_le_bytes(body[p..p + 4].try_into().unwrap()) as usize;
                    }
                }
                body[p..].to_vec()
            })
            .collect()
    };
    let le = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();

    let mut world = World::default();
    let wall = world.add_occluder(&OccluderDef::cuboid(Vec3::new(3.0, 1.5, 3.0), Vec3::new(1.0, 1.5, 0.2))).unwrap();
    let grid =
        WalkGridDef { origin: Vec3::new(-1.0, 0.0, -2.0), width: 12, depth: 9, cell_size: 0.75, ..Default::default() };
    world.set_walk_grid(&grid).unwrap();
    world.start_recording(&RecordOptions::default()).unwrap();
    world.step(0.1).unwrap();
    world.set_occluder_pose(wall, Vec3::new(4.0, 1.5, 3.0), Quat::IDENTITY).unwrap();
    world.step(0.1).unwrap();
    let scenes = scene_walk(&world.stop_recording().unwrap());
    let f = |x: f32| x.to_bits();
    let mut expected =
        le(&[25, f(-1.0), f(0.0), f(-2.0), 12, 9, f(0.75), f(grid.band_min), f(grid.band_max), u32::MAX, 0]);
    assert_eq!(scenes, vec![expected.clone(), le(&[0])], "the START's scene, then the moved wall's");

    let nodes = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0)];
    world.set_walk_graph(&nodes, &[WalkEdge { a: 0, b: 1, length: 2.5 }], 1.5).unwrap();
    world.start_recording(&RecordOptions::default()).unwrap();
    world.step(0.1).unwrap();
    let scenes = scene_walk(&world.stop_recording().unwrap());
    expected = le(&[26, f(1.5), 2, 0, 0, 0, f(2.0), 0, 0, 1, 0, 1, f(2.5)]);
    assert_eq!(scenes, vec![expected]);

    world.clear_walk_graph().unwrap();
    world.start_recording(&RecordOptions::default()).unwrap();
    world.step(0.1).unwrap();
    assert_eq!(scene_walk(&world.stop_recording().unwrap()), vec![le(&[27])]);
}
