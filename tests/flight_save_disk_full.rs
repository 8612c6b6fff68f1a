//! A flight save that fails part way (a full disk; here a file size limit of 1,000 bytes) leaves
//! the file already at its path (the last save) as it was, and no partial file behind.
//!
//! One test only, on Linux only: the file size limit is process-wide (another test writing a
//! file meanwhile would fail too), and the web and phone builds have no such limit to set. The
//! same save's success path runs on every platform in tests/c/recording_streams.c.

#![cfg(target_os = "linux")]

use ArgusResult as R;
use argus::*;
use std::ffi::CString;
use std::ptr::null_mut;

fn v(x: f32, y: f32, z: f32) -> ArgusVec3 {
    ArgusVec3 { x, y, z }
}

/// A guard and a walking player, recorded to a flight recorder for two seconds.
fn recording_world() -> *mut ArgusWorld {
    let mut world = null_mut();
    let mut player = ArgusTargetId::default();
    let mut guard = ArgusAgentId::default();
    let record = ArgusRecordDef { to: ArgusRecordTo::Flight.into(), ..argus_default_record_def() };
    // SAFETY: locals; the world is live from its creation on.
    unsafe {
        assert_eq!(argus_world_create(&argus_default_world_def(), &mut world), R::Ok);
        assert_eq!(argus_agent_create(world, &argus_default_agent_def(), &mut guard), R::Ok);
        let target = ArgusTargetDef { position: v(4.0, 0.0, 7.0), ..argus_default_target_def() };
        assert_eq!(argus_target_create(world, &target, &mut player), R::Ok);
        assert_eq!(argus_world_start_recording(world, &record), R::Ok);
        for k in 0..120 {
            let x = 4.0 - 0.05 * k as f32;
            assert_eq!(argus_target_set_pose(world, player, v(x, 0.0, 7.0), v(-1.0, 0.0, 0.0)), R::Ok);
            assert_eq!(argus_world_step(world, 1.0 / 60.0), R::Ok);
        }
    }
    world
}

/// Runs `f` with files limited to `bytes` (writing past it fails with EFBIG instead of killing
/// the process with SIGXFSZ), then lifts the limit again.
fn with_file_size_limit<T>(bytes: u64, f: impl FnOnce() -> T) -> T {
    // SAFETY: plain libc calls on locals; the signal disposition and the limit are restored.
    unsafe {
        let mut before: libc::rlimit = std::mem::zeroed();
        assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &mut before), 0);
        let small = libc::rlimit { rlim_cur: bytes, ..before };
        let handler = libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &small), 0);
        let out = f();
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &before), 0);
        libc::signal(libc::SIGXFSZ, handler);
        out
    }
}

#[test]
fn a_flight_save_that_fails_part_way_keeps_the_last_save() {
    let dir = std::env::temp_dir().join(format!("argus-flight-disk-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("flight.argusrec");
    let partial = dir.join("flight.argusrec.partial");
    let c_path = CString::new(path.to_str().unwrap()).unwrap();
    let world = recording_world();
    let mut saved = 0u64;
    // SAFETY: a live world, a NUL-terminated path, a local size.
    let save = |size: *mut u64| unsafe { argus_world_save_flight_recording(world, c_path.as_ptr(), size) };

    assert_eq!(save(&mut saved), R::Ok);
    assert!(saved > 1000, "the window must be larger than the limit below ({saved} bytes)");
    assert_eq!(std::fs::metadata(&path).unwrap().len(), saved);

    let last = b"the last save";
    std::fs::write(&path, last).unwrap();
    assert_eq!(with_file_size_limit(1000, || save(null_mut())), R::WriteFailed);
    assert_eq!(std::fs::read(&path).unwrap(), last, "the file at the path changed");
    assert!(!partial.exists(), "the partial file was left behind");

    // The recorder goes on, and the next save (with room again) replaces the last one whole.
    assert_eq!(save(&mut saved), R::Ok);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), saved);
    // SAFETY: the world is live and not used afterwards.
    unsafe {
        assert_eq!(argus_world_is_recording(world), 1);
        argus_world_destroy(world);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
