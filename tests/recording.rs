//! Recording and replay through the C ABI, called the way C calls it. A world using every feature
//! (sight with peripheral cones, hearing, memory, brains, awareness, layers and attitudes, every
//! occluder shape moving and re-layered, targets disabled, sounds, influence maps, cover and
//! flank queries, things created and destroyed while recording), in a built-in world and in an
//! engine-ray world (callback steps and two-phase steps): its recording verifies, and a world
//! rebuilt from it at any step saves to exactly the bytes the original saved at that step, with
//! the same events. Truncated, corrupted and damaged recordings, wrong defs, NULL pointers and
//! calls out of order are refused with their code, changing nothing.

use std::ffi::{CStr, c_void};
use std::ptr::{null, null_mut};

use ArgusResult as R;
use argus::*;

/// The tests of this file take turns: they count the process's live worlds.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn v(x: f32, y: f32, z: f32) -> ArgusVec3 {
    ArgusVec3 { x, y, z }
}

fn last_error() -> String {
    // SAFETY: a static or thread-local string, copied at once.
    unsafe { CStr::from_ptr(argus_last_error()) }.to_string_lossy().into_owned()
}

/// A world destroyed when dropped.
struct W(*mut ArgusWorld);

impl Drop for W {
    fn drop(&mut self) {
        // SAFETY: created by this test, destroyed once.
        unsafe { argus_world_destroy(self.0) };
    }
}

impl W {
    fn new(engine: bool) -> W {
        let mut def = argus_default_world_def();
        if engine {
            def.ray_backend = ArgusRayBackend::Engine.into();
        }
        def.sound_occlusion = 0.5;
        let mut p = null_mut();
        // SAFETY: locals.
        assert_eq!(unsafe { argus_world_create(&def, &mut p) }, R::Ok);
        W(p)
    }

    fn from_recording(bytes: &[u8], steps: u32) -> Result<W, ArgusResult> {
        let mut p = null_mut();
        // SAFETY: `bytes` readable; a local out-pointer.
        match unsafe { argus_world_create_from_recording(bytes.as_ptr(), bytes.len() as u64, steps, &mut p) } {
            R::Ok => Ok(W(p)),
            r => {
                assert!(p.is_null(), "a refused create_from_recording wrote its out-parameter");
                Err(r)
            }
        }
    }

    fn save(&self) -> Vec<u8> {
        let mut size = 0;
        // SAFETY: NULL with capacity 0 asks for the size; then a buffer of that size.
        unsafe {
            assert_eq!(argus_world_save(self.0, null_mut(), 0, &mut size), R::BufferTooSmall);
            let mut bytes = vec![0u8; size as usize];
            assert_eq!(argus_world_save(self.0, bytes.as_mut_ptr(), size, &mut size), R::Ok);
            bytes
        }
    }

    fn recording(&self) -> Vec<u8> {
        let mut size = 0;
        // SAFETY: as `save`.
        unsafe {
            assert_eq!(argus_world_get_recording(self.0, null_mut(), 0, &mut size), R::BufferTooSmall);
            let mut bytes = vec![0u8; size as usize];
            assert_eq!(argus_world_get_recording(self.0, bytes.as_mut_ptr(), size, &mut size), R::Ok);
            assert_eq!(size as usize, bytes.len());
            bytes
        }
    }

    fn is_recording(&self) -> bool {
        // SAFETY: a live world.
        unsafe { argus_world_is_recording(self.0) != 0 }
    }

    fn start(&self, def: &ArgusRecordDef) -> ArgusResult {
        // SAFETY: a live world and a local def.
        unsafe { argus_world_start_recording(self.0, def) }
    }

    fn stop(&self) -> ArgusResult {
        // SAFETY: a live world.
        unsafe { argus_world_stop_recording(self.0) }
    }

    /// Every event of the latest step, as text: ids without their world tag (each world stamps
    /// its own) and without `user_data` (the engine's, not recorded).
    fn events(&self) -> String {
        fn items<T: Copy>(items: *const T, count: u32) -> Vec<T> {
            if count == 0 {
                return Vec::new();
            }
            // SAFETY: the world's array of `count` items, valid until the next step.
            unsafe { std::slice::from_raw_parts(items, count as usize) }.to_vec()
        }
        macro_rules! plain {
            ($e:ident) => {{
                $e.agent.world = 0;
                $e.target.world = 0;
                $e.agent_user_data = 0;
                $e.target_user_data = 0;
                format!("{:?}\n", $e)
            }};
        }
        let p = self.0;
        let mut out = String::new();
        // SAFETY: a live world; locals.
        unsafe {
            let mut a = ArgusPerceptArray { items: null(), count: 0 };
            assert_eq!(argus_world_get_percepts(p, &mut a), R::Ok);
            out.extend(items(a.items, a.count).into_iter().map(|mut e| plain!(e)));
            let mut b = ArgusBrainEventArray { items: null(), count: 0 };
            assert_eq!(argus_world_get_brain_events(p, &mut b), R::Ok);
            out.extend(items(b.items, b.count).into_iter().map(|mut e| plain!(e)));
            let mut f = ArgusForgetEventArray { items: null(), count: 0 };
            assert_eq!(argus_world_get_forget_events(p, &mut f), R::Ok);
            out.extend(items(f.items, f.count).into_iter().map(|mut e| plain!(e)));
            let mut w = ArgusAwarenessEventArray { items: null(), count: 0 };
            assert_eq!(argus_world_get_awareness_events(p, &mut w), R::Ok);
            out.extend(items(w.items, w.count).into_iter().map(|mut e| plain!(e)));
            let mut s = ArgusSightEventArray { items: null(), count: 0 };
            assert_eq!(argus_world_get_seen_events(p, &mut s), R::Ok);
            out.extend(items(s.items, s.count).into_iter().map(|mut e| plain!(e)));
            assert_eq!(argus_world_get_lost_events(p, &mut s), R::Ok);
            out.extend(items(s.items, s.count).into_iter().map(|mut e| plain!(e)));
        }
        out
    }

    fn counts(&self) -> ArgusWorldCounts {
        let mut c = ArgusWorldCounts::default();
        // SAFETY: a live world and a local.
        assert_eq!(unsafe { argus_world_get_counts(self.0, &mut c) }, R::Ok);
        c
    }
}

/// The engine of the engine-ray world: a deterministic answer per ray, hit halfway or clear.
unsafe extern "C" fn engine_cast(
    rays: *const ArgusRay,
    count: u32,
    hits: *mut ArgusRayHit,
    _: *mut c_void,
) -> RawResult {
    for i in 0..count as usize {
        // SAFETY: the library hands `count` rays and `count` hits.
        let (ray, hit) = unsafe { (&*rays.add(i), &mut *hits.add(i)) };
        let blocked = (ray.origin.x.to_bits() ^ ray.direction.z.to_bits()).count_ones() % 3 == 0;
        *hit = ArgusRayHit { hit: blocked as u32, distance: ray.max_distance * 0.5 };
    }
    ArgusResult::Ok.into()
}

/// The ids of the scene, to drive it.
struct Scene {
    agents: Vec<ArgusAgentId>,
    targets: Vec<ArgusTargetId>,
    occluders: Vec<ArgusOccluderId>,
    map: ArgusInfluenceMapId,
    engine: bool,
}

fn ok(r: ArgusResult) {
    assert_eq!(r, R::Ok, "{}", last_error());
}

/// Guards, targets, walls of every shape and a danger map, with every sense and option in use.
fn build(w: &W, engine: bool) -> Scene {
    let p = w.0;
    let mut s =
        Scene { agents: vec![], targets: vec![], occluders: vec![], map: ArgusInfluenceMapId::default(), engine };
    // SAFETY: a live world; locals.
    unsafe {
        ok(argus_world_set_attitude(p, 0, 2, ArgusAttitude::Neutral.into()));
        for i in 0..6 {
            let mut d = argus_default_agent_def();
            d.position = v(-8.0 + 3.0 * i as f32, 0.0, -6.0 + (i % 3) as f32 * 4.0);
            d.forward = if i % 2 == 0 { v(0.0, 0.0, 1.0) } else { v(1.0, 0.0, 0.0) };
            d.user_data = 100 + i;
            d.sight.view_radius = 12.0;
            d.sight.rate_hz = [0.0, 10.0, 5.0][i as usize % 3];
            d.sight.peripheral_radius = if i % 2 == 1 { 5.0 } else { 0.0 };
            d.sight.lose_sight_radius = if i == 2 { 15.0 } else { 0.0 };
            d.awareness.enabled = (i == 3) as u8;
            d.hearing.sensitivity = 1.5;
            d.detect_mask = if i == 4 { ARGUS_DETECT_HOSTILE | ARGUS_DETECT_NEUTRAL } else { ARGUS_DETECT_HOSTILE };
            let mut id = ArgusAgentId::default();
            ok(argus_agent_create(p, &d, &mut id));
            s.agents.push(id);
        }
        for i in 0..4 {
            let mut d = argus_default_target_def();
            d.position = v(-6.0 + 4.0 * i as f32, 0.0, 4.0);
            d.team = if i == 3 { 2 } else { 1 };
            d.check_point_count = 2;
            d.check_point_offsets[4] = 1.5;
            d.user_data = 200 + i;
            let mut id = ArgusTargetId::default();
            ok(argus_target_create(p, &d, &mut id));
            s.targets.push(id);
        }
        let mesh_vertices = [v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0), v(2.0, 2.0, 0.0)];
        let mesh_indices = [0u32, 1, 2, 1, 3, 2];
        for (i, shape) in [ArgusShapeKind::Box, ArgusShapeKind::Sphere, ArgusShapeKind::Capsule, ArgusShapeKind::Mesh]
            .into_iter()
            .enumerate()
        {
            let mut d = argus_default_occluder_def();
            d.shape = shape.into();
            d.position = v(-5.0 + 3.5 * i as f32, 1.0, 0.0);
            d.half_extents = v(1.0, 1.0, 0.3);
            d.radius = 0.6;
            d.layers = 1 << (i % 2);
            d.vertices = mesh_vertices.as_ptr();
            d.indices = mesh_indices.as_ptr();
            d.vertex_count = 4;
            d.index_count = 6;
            d.movable = 1;
            let mut id = ArgusOccluderId::default();
            ok(argus_occluder_create(p, &d, &mut id));
            s.occluders.push(id);
        }
        let mut m = argus_default_influence_map_def();
        m.width = 16;
        m.height = 12;
        m.cell_size = 1.5;
        m.origin = v(-12.0, 0.0, -9.0);
        m.layer_count = 2;
        ok(argus_influence_map_create(p, &m, &mut s.map));
        if engine {
            ok(argus_world_set_ray_callback(p, Some(engine_cast), null_mut()));
        }
    }
    s
}

/// Step `k`'s inputs, then the step (engine worlds alternate callback and two-phase steps).
fn drive(w: &W, s: &mut Scene, k: u32) {
    let p = w.0;
    let t = k as f32 * 0.1;
    // SAFETY: a live world; locals.
    unsafe {
        let positions: Vec<ArgusVec3> = s
            .agents
            .iter()
            .enumerate()
            .map(|(i, _)| v(-8.0 + 3.0 * i as f32 + (t + i as f32).sin(), 0.0, -6.0 + t.cos()))
            .collect();
        let forwards: Vec<ArgusVec3> = s
            .agents
            .iter()
            .enumerate()
            .map(|(i, _)| v((t * 0.7 + i as f32).sin(), 0.0, (t * 0.7 + i as f32).cos()))
            .collect();
        ok(argus_agent_set_poses(
            p,
            s.agents.as_ptr(),
            positions.as_ptr(),
            if k.is_multiple_of(4) { null() } else { forwards.as_ptr() },
            s.agents.len() as u32,
        ));
        for (i, &target) in s.targets.iter().enumerate() {
            ok(argus_target_set_pose(
                p,
                target,
                v(-6.0 + 4.0 * i as f32 + (t * 1.3).sin() * 3.0, 0.0, 4.0 - t * 0.5),
                v(0.0, 0.0, -1.0),
            ));
        }
        let mut sound = argus_default_sound_def();
        sound.position = v((t * 2.0).sin() * 5.0, 0.0, 2.0);
        sound.loudness = 8.0;
        sound.source = s.targets[k as usize % s.targets.len()];
        if k.is_multiple_of(3) {
            ok(argus_world_emit_sound(p, &sound));
        }
        match k % 10 {
            1 => ok(argus_occluder_set_pose(
                p,
                s.occluders[0],
                v(-5.0 + t.sin(), 1.0, 0.5),
                ArgusQuat { x: 0.0, y: 0.38268343, z: 0.0, w: 0.9238795 },
            )),
            2 => ok(argus_occluder_set_layers(p, s.occluders[1], 1 + (k / 10) % 2)),
            3 => ok(argus_target_set_enabled(p, s.targets[1], (k / 10 % 2) as u8)),
            4 => ok(argus_agent_remember(p, s.agents[5], s.targets[0], v(1.0, 0.0, 1.0), 0.7)),
            5 => {
                let _ = argus_agent_report_arrived(p, s.agents[0]);
                ok(argus_influence_map_add_influence(p, s.map, 0, v(t.sin() * 4.0, 0.0, 0.0), 1.0, 3));
                ok(argus_influence_map_blur(p, s.map, 0, 1));
            }
            6 => {
                let mut sight = ArgusSightSettings::default();
                ok(argus_agent_get_sight(p, s.agents[1], &mut sight));
                sight.view_radius = 9.0 + (k % 7) as f32;
                ok(argus_agent_set_sight(p, s.agents[1], &sight));
            }
            7 => {
                // Things made and destroyed while recording.
                let mut d = argus_default_target_def();
                d.position = v(2.0, 0.0, 6.0 - t);
                let mut extra = ArgusTargetId::default();
                ok(argus_target_create(p, &d, &mut extra));
                s.targets.push(extra);
                if s.targets.len() > 6 {
                    ok(argus_target_destroy(p, s.targets.remove(4)));
                }
                let mut o = argus_default_occluder_def();
                o.position = v(0.0, 1.0, 2.0 + t * 0.1);
                let mut wall = ArgusOccluderId::default();
                ok(argus_occluder_create(p, &o, &mut wall));
                ok(argus_occluder_destroy(p, wall));
            }
            8 => {
                let threat = ArgusThreat {
                    position: positions[0],
                    eye: v(positions[0].x, 1.6, positions[0].z),
                    forward: v(0.0, 0.0, 1.0),
                };
                let mut q = argus_default_cover_query();
                q.candidates.kind = ArgusCandidateKind::Grid.into();
                q.candidates.center = v(0.0, 0.0, 1.0);
                q.candidates.spacing = 1.0;
                q.candidates.half_count = 3;
                q.threats = &threat;
                q.threat_count = 1;
                q.self_position = v(0.0, 0.0, 4.0);
                q.map = s.map;
                q.top_k = 3;
                let mut results = [ArgusTacticalResult::default(); 8];
                let (mut n, mut answer) = (0u32, ArgusTacticalAnswer::default());
                ok(argus_world_find_cover(p, &q, results.as_mut_ptr(), 8, &mut n, &mut answer));
                let mut f = argus_default_flank_query();
                f.candidates = q.candidates;
                f.threat = threat;
                f.top_k = 2;
                ok(argus_world_find_flank(p, &f, results.as_mut_ptr(), 8, &mut n, &mut answer));
            }
            9 if k >= 20 && s.agents.len() > 5 => {
                ok(argus_agent_destroy(p, s.agents.pop().unwrap()));
                let mut d = argus_default_agent_def();
                d.position = v(4.0, 0.0, -2.0);
                d.sight.rate_hz = 0.0;
                let mut id = ArgusAgentId::default();
                ok(argus_agent_create(p, &d, &mut id));
                s.agents.push(id);
            }
            _ => {}
        }
        let dt = [0.1, 0.05, 1.0 / 30.0][k as usize % 3];
        if s.engine && k % 2 == 1 {
            let mut rays = ArgusRayArray { items: null(), count: 0 };
            ok(argus_world_step_begin(p, dt, &mut rays));
            let mut hits = vec![ArgusRayHit::default(); rays.count as usize];
            if rays.count > 0 {
                assert_eq!(engine_cast(rays.items, rays.count, hits.as_mut_ptr(), null_mut()).0, 0);
            }
            ok(argus_world_step_finish(p, hits.as_ptr(), rays.count));
        } else {
            ok(argus_world_step(p, dt));
        }
    }
}

const STEPS: u32 = 40;

/// A recorded run: the recording, and the original's save and events after each step (index 0:
/// when recording started).
struct Run {
    bytes: Vec<u8>,
    saves: Vec<Vec<u8>>,
    events: Vec<String>,
    event_total: usize,
}

fn record(engine: bool, def: &ArgusRecordDef) -> Run {
    let w = W::new(engine);
    let mut s = build(&w, engine);
    for k in 0..5 {
        drive(&w, &mut s, k);
    }
    assert_eq!(w.start(def), R::Ok, "{}", last_error());
    assert!(w.is_recording());
    let (mut saves, mut events) = (vec![w.save()], vec![w.events()]);
    let mut event_total = 0;
    for k in 5..5 + STEPS {
        drive(&w, &mut s, k);
        saves.push(w.save());
        events.push(w.events());
        event_total += events.last().unwrap().lines().count();
    }
    assert_eq!(w.stop(), R::Ok, "{}", last_error());
    assert!(!w.is_recording());
    let bytes = w.recording();
    assert_eq!(&bytes[..8], b"ARGUSREC");
    assert_eq!(bytes, w.recording(), "the world keeps the bytes");
    Run { bytes, saves, events, event_total }
}

fn verify(bytes: &[u8]) -> (ArgusResult, ArgusReplayReport) {
    let mut report = ArgusReplayReport { step_count: 0xAAAA, steps_replayed: 0xBBBB, mismatch_step: 0xCCCC };
    // SAFETY: `bytes` readable; a local report.
    let r = unsafe {
        argus_replay_verify(if bytes.is_empty() { null() } else { bytes.as_ptr() }, bytes.len() as u64, &mut report)
    };
    (r, report)
}

const UNTOUCHED: ArgusReplayReport =
    ArgusReplayReport { step_count: 0xAAAA, steps_replayed: 0xBBBB, mismatch_step: 0xCCCC };

#[test]
fn a_recording_replays_and_rebuilds_every_step_exactly() {
    let _turn = serial();
    for engine in [false, true] {
        let run = record(engine, &argus_default_record_def());
        assert!(run.event_total > 100, "the scene exercises the senses ({} events)", run.event_total);
        let (r, report) = verify(&run.bytes);
        assert_eq!(r, R::Ok, "engine={engine}: {}", last_error());
        assert_eq!(
            report,
            ArgusReplayReport { step_count: STEPS, steps_replayed: STEPS, mismatch_step: ARGUS_NO_STEP }
        );
        let live = argus_live_world_count();
        for k in [0, 1, 2, 9, 17, 18, 33, STEPS - 1, STEPS, u32::MAX] {
            let at = k.min(STEPS) as usize;
            let rebuilt =
                W::from_recording(&run.bytes, k).unwrap_or_else(|r| panic!("step {k}: {r:?} {}", last_error()));
            assert!(
                rebuilt.save() == run.saves[at],
                "engine={engine}: the world rebuilt at step {k} saves to other bytes"
            );
            if at > 0 {
                assert!(rebuilt.events() == run.events[at], "engine={engine}: step {k}'s events differ");
            }
            assert!(!rebuilt.is_recording());
            assert_eq!(argus_live_world_count(), live + 1);
        }
        assert_eq!(argus_live_world_count(), live);
    }
}

#[test]
fn a_rebuilt_world_steps_on_like_the_original() {
    let _turn = serial();
    let original = W::new(false);
    let mut s = build(&original, false);
    assert_eq!(original.start(&argus_default_record_def()), R::Ok);
    for k in 0..10 {
        drive(&original, &mut s, k);
    }
    assert_eq!(original.stop(), R::Ok);
    let rebuilt = W::from_recording(&original.recording(), u32::MAX).unwrap();
    // The same ids, in the rebuilt world's own tag, drive both onwards.
    // SAFETY: live worlds.
    let tag = unsafe { argus_world_tag(rebuilt.0) };
    let mut t = Scene {
        agents: s.agents.iter().map(|a| ArgusAgentId { world: tag, ..*a }).collect(),
        targets: s.targets.iter().map(|a| ArgusTargetId { world: tag, ..*a }).collect(),
        occluders: s.occluders.iter().map(|a| ArgusOccluderId { world: tag, ..*a }).collect(),
        map: ArgusInfluenceMapId { world: tag, ..s.map },
        engine: false,
    };
    for k in 10..30 {
        drive(&original, &mut s, k);
        drive(&rebuilt, &mut t, k);
        assert!(original.events() == rebuilt.events(), "step {k}");
    }
    assert!(original.save() == rebuilt.save());
}

#[test]
fn focus_and_explain_shape_the_recording_and_it_still_verifies() {
    let _turn = serial();
    let full = record(false, &argus_default_record_def());
    // A fresh world issues the same ids, so the first agent is known before it exists.
    let first = {
        let w = W::new(false);
        build(&w, false).agents[0]
    };
    let w = W::new(false);
    let s = build(&w, false);
    assert_eq!(s.agents[0].index, first.index);
    let mut def = argus_default_record_def();
    def.focus = &s.agents[0];
    def.focus_count = 1;
    def.explain = 0;
    assert_eq!(w.start(&def), R::Ok, "{}", last_error());
    let mut s = s;
    for k in 0..STEPS {
        drive(&w, &mut s, k + 5);
    }
    assert_eq!(w.stop(), R::Ok);
    let narrow = w.recording();
    assert!(
        narrow.len() < full.bytes.len(),
        "{} bytes focused without why, {} in full",
        narrow.len(),
        full.bytes.len()
    );
    let (r, report) = verify(&narrow);
    assert_eq!(r, R::Ok, "{}", last_error());
    assert_eq!(report.steps_replayed, STEPS);
}

/// The END chunk's checksum (FNV-1a over every byte before the END chunk), rewritten so that the
/// damage must be caught by the replay itself.
fn resign(bytes: &mut [u8]) {
    let end = bytes.len() - 24;
    let sum =
        bytes[..end].iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3));
    let n = bytes.len();
    bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
}

/// Offsets of each chunk's payload of `kind`.
fn chunks(bytes: &[u8], kind: u8) -> Vec<(usize, usize)> {
    let mut at = 16;
    let mut out = Vec::new();
    while at + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if bytes[at] == kind {
            out.push((at + 8, len));
        }
        at += 8 + len;
    }
    out
}

#[test]
fn truncated_and_corrupted_recordings_are_refused_and_create_nothing() {
    let _turn = serial();
    let run = record(true, &argus_default_record_def());
    let bytes = &run.bytes;
    let live = argus_live_world_count();
    let refused = |damaged: &[u8], what: &str| {
        let (r, report) = verify(damaged);
        assert_eq!(r, R::BadRecording, "{what}: verify");
        assert_eq!(report, UNTOUCHED, "{what}: the report was written");
        assert!(!last_error().is_empty());
        assert_eq!(W::from_recording(damaged, u32::MAX).err(), Some(R::BadRecording), "{what}: create");
        assert_eq!(argus_live_world_count(), live, "{what}: a world was left behind");
    };
    // Every short prefix, then a spread of lengths, and the last bytes one by one.
    let mut lengths: Vec<usize> = (0..64).collect();
    lengths.extend((64..bytes.len()).step_by((bytes.len() / 300).max(1)));
    lengths.extend(bytes.len() - 40..bytes.len());
    for len in lengths {
        refused(&bytes[..len], &format!("a {len}-byte prefix of {}", bytes.len()));
    }
    let mut rng = 0x1234_5678_9ABC_DEF1u64;
    for i in 0..300 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mut damaged = bytes.clone();
        let at = (rng % damaged.len() as u64) as usize;
        damaged[at] ^= 1 << (i % 8);
        refused(&damaged, &format!("a bit flipped at {at}"));
    }
    refused(b"ARGUSSNP\x01\0\0\0\0\0\0\0", "a snapshot's magic");
    let mut version = bytes.clone();
    version[8] = 7;
    resign(&mut version);
    refused(&version, "format version 7");
    // The END chunk's pad (after the bytes its checksum covers): each of its bits.
    for bit in 0..24 {
        let mut pad = bytes.clone();
        let at = pad.len() - 23 + bit / 8;
        pad[at] ^= 1 << (bit % 8);
        refused(&pad, &format!("END pad bit {bit}"));
    }
    // A chunk that runs past the end, checksum intact.
    let mut long = bytes.clone();
    let (start, _) = chunks(&long, 1)[0];
    long[start - 4..start].copy_from_slice(&u32::MAX.to_le_bytes());
    resign(&mut long);
    refused(&long, "a chunk longer than the file");
}

#[test]
fn a_step_that_replays_differently_is_named() {
    let _turn = serial();
    let run = record(false, &argus_default_record_def());
    let frames = chunks(&run.bytes, 5);
    assert_eq!(frames.len() as u32, STEPS);
    let k = 13;
    let mut damaged = run.bytes.clone();
    // The frame's world time (its first 8 bytes) is an output the replay checks.
    let (at, _) = frames[k];
    damaged[at] ^= 0x40;
    resign(&mut damaged);
    let (r, report) = verify(&damaged);
    assert_eq!(r, R::ReplayMismatch, "{}", last_error());
    assert!(last_error().contains(&k.to_string()), "the error names step {k}: {}", last_error());
    assert_eq!(report, ArgusReplayReport { step_count: STEPS, steps_replayed: k as u32, mismatch_step: k as u32 });
    // Up to the step before, the rebuilt world is fine; through it, refused.
    let before = W::from_recording(&damaged, k as u32).unwrap();
    assert!(before.save() == run.saves[k]);
    let live = argus_live_world_count();
    assert_eq!(W::from_recording(&damaged, k as u32 + 1).err(), Some(R::ReplayMismatch));
    assert_eq!(W::from_recording(&damaged, u32::MAX).err(), Some(R::ReplayMismatch));
    assert_eq!(argus_live_world_count(), live);
}

#[test]
fn misuse_is_refused_with_its_code_and_changes_nothing() {
    let _turn = serial();
    let w = W::new(false);
    let other = W::new(false);
    let s = build(&w, false);
    let theirs = build(&other, false);
    let def = argus_default_record_def();
    let expect = |r: ArgusResult, code: ArgusResult, what: &str| {
        assert_eq!(r, code, "{what}: {}", last_error());
        assert!(!last_error().is_empty(), "{what}: no message");
    };
    // SAFETY: live worlds, locals, NULLs the library must refuse.
    unsafe {
        expect(argus_world_start_recording(w.0, null()), R::InvalidArgument, "NULL def");
        expect(argus_world_start_recording(null_mut(), &def), R::InvalidArgument, "NULL world");
        let mut bad = def;
        bad.internal_cookie = 0;
        expect(w.start(&bad), R::DefNotInitialized, "no cookie");
        let mut bad = def;
        bad.focus_count = 3;
        expect(w.start(&bad), R::InvalidArgument, "NULL focus with a count");
        let mut bad = def;
        bad.focus = &theirs.agents[0];
        bad.focus_count = 1;
        expect(w.start(&bad), R::InvalidId, "another world's agent");
        let live = s.agents[5];
        let mut d = argus_default_agent_def();
        d.position = v(20.0, 0.0, 20.0);
        let mut gone = ArgusAgentId::default();
        ok(argus_agent_create(w.0, &d, &mut gone));
        ok(argus_agent_destroy(w.0, gone));
        let saved = w.save();
        let mut bad = def;
        let focus = [live, gone];
        bad.focus = focus.as_ptr();
        bad.focus_count = 2;
        expect(w.start(&bad), R::InvalidId, "a destroyed agent");
        bad.focus_count = ARGUS_MAX_BATCH + 1;
        expect(w.start(&bad), R::InvalidArgument, "a huge focus count");
        assert!(!w.is_recording());
        assert!(w.save() == saved, "refused starts changed the world");
        let mut size = 77u64;
        expect(argus_world_get_recording(w.0, null_mut(), 0, &mut size), R::InvalidArgument, "nothing recorded yet");
        assert_eq!(size, 77);
        expect(w.stop(), R::InvalidArgument, "stop when not recording");
        expect(argus_world_stop_recording(null_mut()), R::InvalidArgument, "stop NULL");
        assert_eq!(argus_world_is_recording(null()), 0);

        // Recording: a second start and an early get are refused; the recording goes on.
        assert_eq!(w.start(&def), R::Ok);
        expect(w.start(&def), R::InvalidArgument, "start twice");
        assert!(w.is_recording());
        expect(argus_world_get_recording(w.0, null_mut(), 0, &mut size), R::InvalidArgument, "get while recording");
        assert!(last_error().contains("stop"), "{}", last_error());
        ok(argus_world_step(w.0, 0.1));
        // A pending two-phase step: neither stop nor start.
        let mut rays = ArgusRayArray { items: null(), count: 0 };
        ok(argus_world_step_begin(w.0, 0.1, &mut rays));
        expect(w.stop(), R::StepInProgress, "stop with a step pending");
        assert!(w.is_recording());
        let hits = vec![ArgusRayHit::default(); rays.count as usize];
        ok(argus_world_step_finish(w.0, hits.as_ptr(), rays.count));
        assert_eq!(w.stop(), R::Ok);
        let bytes = w.recording();
        expect(w.stop(), R::InvalidArgument, "stop twice");
        assert!(bytes == w.recording(), "a refused stop kept the bytes");
        let (r, report) = verify(&bytes);
        assert_eq!(r, R::Ok, "{}", last_error());
        assert_eq!(report.step_count, 2);

        // Copying out: too small, NULL buffer, NULL size.
        let mut small = vec![0u8; 10];
        let mut n = 0u64;
        expect(argus_world_get_recording(w.0, small.as_mut_ptr(), 10, &mut n), R::BufferTooSmall, "too small");
        assert_eq!(n as usize, bytes.len());
        assert!(small.iter().all(|&b| b == 0), "a too-small buffer was written");
        expect(argus_world_get_recording(w.0, null_mut(), n, &mut n), R::InvalidArgument, "NULL buffer");
        expect(argus_world_get_recording(w.0, small.as_mut_ptr(), 10, null_mut()), R::InvalidArgument, "NULL size");

        // Replays: NULL bytes with a size, NULL out, steps beyond the recording.
        let mut report = UNTOUCHED;
        expect(argus_replay_verify(null(), 16, &mut report), R::InvalidArgument, "verify NULL bytes");
        expect(
            argus_replay_verify(bytes.as_ptr(), bytes.len() as u64, null_mut()),
            R::InvalidArgument,
            "verify NULL out",
        );
        assert_eq!(report, UNTOUCHED);
        expect(argus_replay_verify(null(), 0, &mut report), R::BadRecording, "verify nothing");
        let mut p = null_mut();
        expect(
            argus_world_create_from_recording(bytes.as_ptr(), bytes.len() as u64, 0, null_mut()),
            R::InvalidArgument,
            "NULL out_world",
        );
        expect(
            argus_world_create_from_recording(bytes.as_ptr(), bytes.len() as u64, 3, &mut p),
            R::InvalidArgument,
            "3 steps of 2",
        );
        assert!(p.is_null());
        assert!(last_error().contains('2'), "{}", last_error());

        // A new start drops the kept bytes.
        assert_eq!(w.start(&def), R::Ok);
        expect(argus_world_get_recording(w.0, null_mut(), 0, &mut size), R::InvalidArgument, "after a new start");
        assert_eq!(w.stop(), R::Ok);
        assert!(w.recording() != bytes);
    }
    assert_eq!(w.counts().agents, 6);
}

#[test]
fn result_names_of_the_new_codes() {
    let _turn = serial();
    // SAFETY: static strings.
    unsafe {
        assert_eq!(CStr::from_ptr(argus_result_name(15)).to_str().unwrap(), "ARGUS_RESULT_BAD_RECORDING");
        assert_eq!(CStr::from_ptr(argus_result_name(16)).to_str().unwrap(), "ARGUS_RESULT_REPLAY_MISMATCH");
        assert_eq!(CStr::from_ptr(argus_result_name(17)).to_str().unwrap(), "ARGUS_RESULT_WRITE_FAILED");
        assert_eq!(CStr::from_ptr(argus_result_name(18)).to_str().unwrap(), "ARGUS_RESULT_UNKNOWN");
    }
    assert_eq!(R::BadRecording as u32, 15);
    assert_eq!(R::ReplayMismatch as u32, 16);
    assert_eq!(R::WriteFailed as u32, 17);
}
