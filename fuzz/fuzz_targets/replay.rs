//! Coverage-guided: any bytes given to the replay, and valid recordings with bytes changed,
//! inserted or cut (then resealed, so the damage reaches the parser instead of stopping at the
//! checksum), are refused with `BadSnapshot` or `ReplayMismatch`, or replay; never a panic, an
//! abort or an unbounded allocation. The valid recordings: a built-in-ray world's, an
//! engine-ray world's whose ray batches failed at some steps while it recorded, and a flight
//! recorder's saved window of a walk-hearing world (a START cut mid-way, Hearing records with
//! walks); each checked to replay whole before it is damaged.
#![no_main]

use std::sync::OnceLock;

use argus_core::record::reseal;
use argus_core::*;
use libfuzzer_sys::fuzz_target;

/// A small recording with every kind of chunk and most input calls.
fn recording() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut w = World::default();
        let wall = w.add_occluder(&OccluderDef::cuboid(Vec3::new(2.0, 1.0, 4.0), Vec3::new(1.0, 1.0, 0.2))).unwrap();
        let mut d = AgentDef::default();
        d.sight.lose_sight_radius = 14.0;
        let a = w.create_agent(&d).unwrap();
        let t = w.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 6.0), ..Default::default() }).unwrap();
        let map = w
            .create_influence_map(&InfluenceMapDef {
                width: 4,
                height: 3,
                cell_size: 1.0,
                layer_count: 1,
                ..Default::default()
            })
            .unwrap();
        w.start_recording(&RecordOptions::default()).unwrap();
        for k in 0..6 {
            w.set_target_pose(t, Vec3::new(k as f32, 0.0, 6.0), Vec3::Z).unwrap();
            w.emit_sound(&SoundDef {
                position: Vec3::new(1.0, 0.0, 1.0),
                loudness: 5.0,
                source: t,
                ..Default::default()
            })
            .unwrap();
            w.set_occluder_pose(wall, Vec3::new(2.0 - k as f32 * 0.3, 1.0, 4.0), Quat::IDENTITY).unwrap();
            w.influence_map_mut(map).unwrap().set_cell(0, 1, 1, k as f32 * 0.1).unwrap();
            if k == 3 {
                let b = w.create_agent(&AgentDef { position: Vec3::new(1.0, 0.0, 0.0), ..Default::default() }).unwrap();
                w.remember(b, t, Vec3::ONE, 0.5).unwrap();
                w.report_arrived(a).unwrap();
            }
            w.step(0.1).unwrap();
        }
        let bytes = w.stop_recording().unwrap();
        Replay::new(&bytes).and_then(|mut r| r.run_to_end()).expect("the seed replays whole");
        bytes
    })
}

/// An engine whose physics scene is gone for a while: every batch of rays fails.
struct Gone;

impl RaySource for Gone {
    fn cast_rays(&mut self, _: &[RayQuery], _: &mut [RayHit]) -> Result<()> {
        Err(Error::RaySourceFailed("the physics scene is gone".into()))
    }
}

/// An engine-ray world's recording with failed ray batches inside (they change nothing and
/// leave nothing in it), inputs between them, and the sight decisions explained.
fn engine_recording() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut w = World::new(&WorldDef { ray_backend: RayBackend::Engine, ..Default::default() }).unwrap();
        w.create_agent(&AgentDef { forward: Vec3::Z, ..Default::default() }).unwrap();
        let t = w.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 5.0), ..Default::default() }).unwrap();
        w.start_recording(&RecordOptions { explain: true, ..Default::default() }).unwrap();
        let mut half = |rays: &[RayQuery], hits: &mut [RayHit]| {
            for (k, hit) in hits.iter_mut().enumerate().take(rays.len()) {
                *hit = RayHit { hit: k % 2 == 1, distance: 0.0 };
            }
        };
        for k in 0..6 {
            w.set_target_pose(t, Vec3::new(k as f32 * 0.3, 0.0, 5.0), Vec3::Z).unwrap();
            if k % 2 == 1 {
                assert!(w.step_with(0.1, Rays::Engine(&mut Gone)).is_err());
                w.emit_sound(&SoundDef { position: Vec3::ONE, source: t, ..Default::default() }).unwrap();
            }
            w.step_with(0.1, Rays::Engine(&mut half)).unwrap();
        }
        let bytes = w.stop_recording().unwrap();
        Replay::new(&bytes).and_then(|mut r| r.run_to_end()).expect("the seed replays whole");
        bytes
    })
}

/// A flight recorder's last second of 8, saved (cut at the key frame of step 60), of a world that
/// hears along a walk grid: footsteps behind a wall heard round its end, every other one too
/// quiet to come round.
fn flight_recording() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut w = World::new(&WorldDef { hearing_path: HearingPath::Walk, ..Default::default() }).unwrap();
        w.add_occluder(&OccluderDef::cuboid(Vec3::new(3.0, 1.5, 5.0), Vec3::new(3.0, 1.5, 0.1))).unwrap();
        w.set_walk_grid(&WalkGridDef { width: 20, depth: 20, cell_size: 0.5, ..Default::default() }).unwrap();
        w.create_agent(&AgentDef { position: Vec3::new(2.0, 0.0, 3.0), ..Default::default() }).unwrap();
        let t = w.create_target(&TargetDef { position: Vec3::new(2.0, 0.0, 7.0), ..Default::default() }).unwrap();
        w.start_recording_to(&RecordOptions::default(), RecordTo::Flight { seconds: 1.0 }).unwrap();
        for k in 0..80 {
            let loudness = if k % 2 == 0 { 20.0 } else { 5.0 };
            w.emit_sound(&SoundDef { position: Vec3::new(2.0, 0.0, 7.0), loudness, source: t, ..Default::default() })
                .unwrap();
            w.step(0.1).unwrap();
        }
        let mut bytes = Vec::new();
        w.save_flight_recording(&mut bytes).unwrap();
        Replay::new(&bytes).and_then(|mut r| r.run_to_end()).expect("the seed replays whole");
        bytes
    })
}

fn replay(bytes: &[u8]) {
    match Replay::new(bytes) {
        Err(Error::BadSnapshot(_)) => {}
        Err(other) => panic!("a recording was refused with {other:?}, not BadSnapshot"),
        Ok(mut r) => match r.run_to_end() {
            Ok(()) | Err(Error::BadSnapshot(_)) | Err(Error::ReplayMismatch { .. }) => {}
            Err(other) => panic!("a replay failed with {other:?}"),
        },
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode & 1 == 0 {
        replay(rest);
        return;
    }
    // Edits of a valid recording (mode bit 2: the engine-ray one; bit 3: the flight recorder's
    // window): 5 bytes each, `u32` offset and a byte to XOR, insert or cut at.
    let seed = match (mode & 4 != 0, mode & 8 != 0) {
        (_, true) => flight_recording(),
        (true, false) => engine_recording(),
        (false, false) => recording(),
    };
    let mut bytes = seed.to_vec();
    for edit in rest.chunks_exact(5) {
        let at = u32::from_le_bytes(edit[..4].try_into().unwrap()) as usize % bytes.len().max(1);
        match edit[4] {
            0 => bytes.truncate(at),
            1 => bytes.insert(at, edit[0]),
            v => bytes[at] ^= v,
        }
        if bytes.is_empty() {
            break;
        }
    }
    if mode & 2 == 0 {
        reseal(&mut bytes);
    }
    replay(&bytes);
});
