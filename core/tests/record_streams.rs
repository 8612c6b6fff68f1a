//! Where a recording goes: streamed as it is made (the same bytes as in memory), or kept as the
//! flight recorder's last seconds, whose saved windows replay on their own; a recording started
//! on a world that has been stepping replays exactly.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use argus_core::*;

mod common;
use common::scenario::*;

/// A stream's bytes, readable by the test once the world is done with the stream.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Streamed(Shared);

impl Recording for Streamed {
    fn start(&mut self, world: &mut World) {
        world.start_recording_to(&RecordOptions::default(), RecordTo::Stream(Box::new(self.0.clone()))).unwrap();
    }
    fn stop(&mut self, world: &mut World) -> Vec<u8> {
        assert!(world.stop_recording().unwrap().is_empty(), "a stream's bytes went to the stream");
        std::mem::take(&mut *self.0.0.lock().unwrap())
    }
}

#[test]
fn a_streamed_recording_is_the_recording_kept_in_memory() {
    // Seeds 2 and 4 load a snapshot into the recording world (a second START).
    for seed in 1..=4 {
        let (_, in_memory) = scenario(seed, 90, Some(RecordOptions::default()), 1);
        let (_, streamed) = scenario_recorded(seed, 90, 1, Some(&mut Streamed(Shared::default())));
        assert!(streamed == in_memory, "seed {seed}: the stream's bytes differ from the memory's");
        Replay::new(&streamed).unwrap().run_to_end().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

/// Accepts `room` bytes, then fails every write.
struct Full {
    room: usize,
}

impl Write for Full {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.len() > self.room {
            return Err(io::Error::other("disk full"));
        }
        self.room -= bytes.len();
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_stream_that_fails_ends_the_recording_with_write_failed() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    world.create_agent(&AgentDef::default()).unwrap();
    world.start_recording_to(&RecordOptions::default(), RecordTo::Stream(Box::new(Full { room: 100 }))).unwrap();
    for _ in 0..30 {
        world.step(0.1).unwrap();
    }
    match world.stop_recording() {
        Err(Error::WriteFailed(why)) => assert!(why.contains("disk full"), "{why}"),
        other => panic!("a failed stream ended with {other:?}"),
    }
    assert!(!world.is_recording());
}

/// The flight recorder's windows, saved after some steps.
struct Flight {
    seconds: f32,
    save_after: Vec<usize>,
    started_at: f64,
    /// Each window, the world clock when saved, and the steps since recording started.
    windows: Vec<(Vec<u8>, f64, usize)>,
    held: usize,
}

impl Recording for Flight {
    fn start(&mut self, world: &mut World) {
        self.started_at = world.time();
        world.start_recording_to(&RecordOptions::default(), RecordTo::Flight { seconds: self.seconds }).unwrap();
    }
    fn after_step(&mut self, world: &mut World, step: usize) {
        if self.save_after.contains(&step) {
            let mut bytes = Vec::new();
            let n = world.save_flight_recording(&mut bytes).unwrap();
            assert_eq!(n, bytes.len() as u64);
            self.windows.push((bytes, world.time(), step + 1));
        }
        self.held = self.held.max(world.flight_recorder_bytes().unwrap());
    }
    fn stop(&mut self, world: &mut World) -> Vec<u8> {
        assert!(world.stop_recording().unwrap().is_empty());
        Vec::new()
    }
}

/// Each FRAME's (time, step, dt) of a recording.
fn frame_headers(bytes: &[u8]) -> Vec<(f64, u32, f32)> {
    let (mut at, mut out) = (16, Vec::new());
    while at + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if bytes[at] == 5 {
            let p = &bytes[at + 8..];
            let time = f64::from_le_bytes(p[0..8].try_into().unwrap());
            let step = u32::from_le_bytes(p[8..12].try_into().unwrap());
            out.push((time, step, f32::from_le_bytes(p[12..16].try_into().unwrap())));
        }
        at += 8 + len;
    }
    out
}

#[test]
fn flight_recorder_windows_replay_on_their_own_and_cover_their_seconds() {
    for seed in 1..=4 {
        let (_, full) = scenario(seed, 400, Some(RecordOptions::default()), 1);
        let mut flight =
            Flight { seconds: 2.0, save_after: vec![10, 150, 260, 399], started_at: 0.0, windows: Vec::new(), held: 0 };
        scenario_recorded(seed, 400, 1, Some(&mut flight));
        assert_eq!(flight.windows.len(), 4);
        for (bytes, now, steps_so_far) in &flight.windows {
            let mut replay = Replay::new(bytes).unwrap_or_else(|e| panic!("seed {seed}, {steps_so_far} steps: {e}"));
            replay.run_to_end().unwrap_or_else(|e| panic!("seed {seed}, window after {steps_so_far} steps: {e}"));
            let frames = frame_headers(bytes);
            assert_eq!(frames.len() as u32, replay.step_count());
            assert!(frames.iter().enumerate().all(|(k, f)| f.1 == k as u32), "seed {seed}: steps not counted from 0");
            // Seconds stepped, not the world clock: seeds 2 and 4 load a snapshot, which sets
            // the clock back.
            let stepped: f64 = frames.iter().map(|f| f.2 as f64).sum();
            let whole = frames.len() == *steps_so_far;
            assert!(whole || stepped >= 2.0 - 1e-6, "seed {seed}: a window of {stepped} s, not 2 s");
            let (first_time, _, first_dt) = frames[0];
            assert!(!whole || (first_time - first_dt as f64 - flight.started_at).abs() < 1e-6);
            assert!(frames.last().unwrap().0 == *now, "seed {seed}: the window does not end at the last step");
        }
        // The early window is the whole recording; the later ones hold a part of it.
        assert_eq!(frame_headers(&flight.windows[0].0).len(), 11);
        let last = &flight.windows[3].0;
        assert!(frame_headers(last).len() < 400, "seed {seed}: the ring kept every step");
        assert!(last.len() < full.len() / 2, "seed {seed}: a window of {} bytes of {}", last.len(), full.len());
        assert!(flight.held > 0);
    }
}

#[test]
fn flight_recorder_settings_and_saves_refused() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    for seconds in [0.0, -1.0, f32::NAN, f32::INFINITY, MAX_FLIGHT_SECONDS * 2.0] {
        let to = RecordTo::Flight { seconds };
        assert!(matches!(world.start_recording_to(&RecordOptions::default(), to), Err(Error::InvalidArgument(_))));
        assert!(!world.is_recording());
    }
    assert!(matches!(world.save_flight_recording(&mut Vec::new()), Err(Error::InvalidArgument(_))));
    world.start_recording(&RecordOptions::default()).unwrap();
    assert!(matches!(world.save_flight_recording(&mut Vec::new()), Err(Error::InvalidArgument(_))));
    assert_eq!(world.flight_recorder_bytes(), None);
    world.stop_recording().unwrap();
    // A window saved before any step: the state when recording started, no step.
    world.start_recording_to(&RecordOptions::default(), RecordTo::Flight { seconds: 1.0 }).unwrap();
    let mut bytes = Vec::new();
    world.save_flight_recording(&mut bytes).unwrap();
    let mut replay = Replay::new(&bytes).unwrap();
    assert_eq!(replay.step_count(), 0);
    replay.run_to_end().unwrap();
}

/// A guard remembers the wall that blocked its ray to a target and tries it first at its next
/// tick; a world loaded from a snapshot has no such memory. Where walls overlap along a ray, the
/// replay (which starts from the recording's snapshot) names the wall its walk meets first: the
/// recorded world, which had been stepping before it started recording, must name the same.
#[test]
fn a_recording_started_after_stepping_names_the_walls_its_replay_names() {
    for seed in 1..=20u64 {
        let mut rng = common::Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut world = World::new(&WorldDef::default()).unwrap();
        for _ in 0..60 {
            let half = Vec3::new(rng.f(0.2, 1.0), 2.0, rng.f(0.2, 1.0));
            let def = OccluderDef {
                shape: OccluderShape::Box { half_extents: half },
                position: rng.ground(12.0) + Vec3::Y * 2.0,
                ..Default::default()
            };
            world.add_occluder(&def).unwrap();
        }
        let agents: Vec<AgentId> = (0..10)
            .map(|_| {
                world.create_agent(&AgentDef { position: rng.ground(12.0), forward: rng.dir(), ..Default::default() })
            })
            .collect::<Result<_>>()
            .unwrap();
        let targets: Vec<TargetId> = (0..10)
            .map(|_| world.create_target(&TargetDef { position: rng.ground(12.0), ..Default::default() }))
            .collect::<Result<_>>()
            .unwrap();
        let walk = |world: &mut World, rng: &mut common::Rng| {
            for &t in &targets {
                let p = world.target(t).unwrap().position() + rng.ground(0.5);
                world.set_target_pose(t, p, Vec3::Z).unwrap();
            }
            for &a in &agents {
                world.set_agent_pose(a, world.agent(a).unwrap().position(), rng.dir()).unwrap();
            }
            world.step(0.1).unwrap();
        };
        for _ in 0..10 {
            walk(&mut world, &mut rng);
        }
        world.start_recording(&RecordOptions::default()).unwrap();
        for _ in 0..10 {
            walk(&mut world, &mut rng);
        }
        let bytes = world.stop_recording().unwrap();
        Replay::new(&bytes).unwrap().run_to_end().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}
