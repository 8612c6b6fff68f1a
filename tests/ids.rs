//! Ids through the C ABI over their whole range, at full count: one slot created and destroyed
//! past 65,536 times (its generation would wrap: the slot is retired instead), 65,536+ worlds
//! created while one stays alive (its tag is never reissued), and the one spelling of null.

use argus::*;
use std::ptr::null_mut;

const AT: ArgusVec3 = ArgusVec3 { x: 1.0, y: 0.0, z: 2.0 };
const FORWARD: ArgusVec3 = ArgusVec3 { x: 0.0, y: 0.0, z: 1.0 };

fn world() -> *mut ArgusWorld {
    let def = argus_default_world_def();
    let mut w = null_mut();
    // SAFETY: valid def and out-pointer.
    assert_eq!(unsafe { argus_world_create(&def, &mut w) }, ArgusResult::Ok);
    w
}

fn agent(w: *mut ArgusWorld) -> ArgusAgentId {
    let def = argus_default_agent_def();
    let mut id = ArgusAgentId::default();
    // SAFETY: a live world, valid def and out-pointer.
    assert_eq!(unsafe { argus_agent_create(w, &def, &mut id) }, ArgusResult::Ok);
    id
}

fn target(w: *mut ArgusWorld) -> ArgusTargetId {
    let def = argus_default_target_def();
    let mut id = ArgusTargetId::default();
    // SAFETY: a live world, valid def and out-pointer.
    assert_eq!(unsafe { argus_target_create(w, &def, &mut id) }, ArgusResult::Ok);
    id
}

fn save(w: *mut ArgusWorld) -> Vec<u8> {
    let mut size = 0u32;
    // SAFETY: a live world; the buffer has `capacity` bytes.
    unsafe {
        assert_eq!(argus_world_save(w, null_mut(), 0, &mut size), ArgusResult::BufferTooSmall);
        let mut bytes = vec![0u8; size as usize];
        assert_eq!(argus_world_save(w, bytes.as_mut_ptr(), size, &mut size), ArgusResult::Ok);
        bytes
    }
}

/// Every generation of one slot is issued once; after the 65,535th the slot is retired, so the
/// first id never names anything again (it used to name the 65,536th agent).
#[test]
fn a_slot_reused_past_65536_times_is_retired_not_wrapped() {
    let w = world();
    // SAFETY: a live world throughout; destroyed at the end.
    unsafe {
        let first_agent = agent(w);
        let first_target = target(w);
        let (mut a, mut t) = (first_agent, first_target);
        for round in 1..=65_536u32 {
            assert_eq!(argus_agent_destroy(w, a), ArgusResult::Ok);
            assert_eq!(argus_target_destroy(w, t), ArgusResult::Ok);
            a = agent(w);
            t = target(w);
            if round < 65_535 {
                assert_eq!((a.index, a.generation as u32), (first_agent.index, round + 1));
                assert_eq!((t.index, t.generation as u32), (first_target.index, round + 1));
            } else {
                assert_ne!(a.index, first_agent.index, "round {round}: the used-up slot is retired");
                assert_ne!(t.index, first_target.index, "round {round}: the used-up slot is retired");
            }
        }
        assert_eq!(argus_agent_set_pose(w, first_agent, AT, FORWARD), ArgusResult::InvalidId);
        assert_eq!(argus_agent_is_valid(w, first_agent), 0);
        assert_eq!(argus_target_set_pose(w, first_target, AT, FORWARD), ArgusResult::InvalidId);
        assert_eq!(argus_target_is_valid(w, first_target), 0);
        assert_eq!(argus_agent_is_valid(w, a), 1);
        // A retired slot survives a save and load: still retired, and the save loads back to
        // the same bytes.
        let bytes = save(w);
        let v = world();
        assert_eq!(argus_world_load(v, bytes.as_ptr(), bytes.len() as u32), ArgusResult::Ok);
        assert_eq!(save(v), bytes);
        let stale = ArgusAgentId { world: argus_world_tag(v), ..first_agent };
        assert_eq!(argus_agent_is_valid(v, stale), 0);
        let live = ArgusAgentId { world: argus_world_tag(v), ..a };
        assert_eq!(argus_agent_destroy(v, live), ArgusResult::Ok);
        let again = agent(v);
        assert_eq!((again.index, again.generation), (a.index, a.generation + 1), "the retired slot stays retired");
        argus_world_destroy(v);
        argus_world_destroy(w);
    }
}

/// A live world's tag is never handed to another world, however many worlds come and go, so
/// its ids are refused by every other world (they used to move the other world's own agent).
#[test]
fn a_live_world_keeps_its_tag_through_65536_world_creations() {
    let a = world();
    // SAFETY: live worlds throughout; each destroyed once.
    unsafe {
        let mine = agent(a);
        let tag = argus_world_tag(a);
        let mut tags_seen = vec![0u32; 0x10000];
        for _ in 0..65_540 {
            let b = world();
            let theirs = agent(b);
            assert_eq!((theirs.index, theirs.generation), (mine.index, mine.generation));
            assert_ne!(argus_world_tag(b), tag, "a live world's tag was reissued");
            tags_seen[argus_world_tag(b) as usize] += 1;
            assert_eq!(argus_agent_set_pose(b, mine, AT, FORWARD), ArgusResult::InvalidId);
            assert_eq!(argus_agent_is_valid(b, mine), 0);
            argus_world_destroy(b);
        }
        assert!(tags_seen.iter().filter(|&&n| n > 0).count() > 60_000, "tags went all the way round");
        assert_eq!(argus_agent_set_pose(a, mine, AT, FORWARD), ArgusResult::Ok);
        argus_world_destroy(a);
    }
}

/// All zero is null and nothing else is: `{0, own tag, 0}` is refused as never issued, where
/// all zero means "none" (a sound without a source) or is refused as null.
#[test]
fn only_all_zero_is_null() {
    let w = world();
    // SAFETY: a live world; destroyed at the end.
    unsafe {
        let tag = argus_world_tag(w);
        let _ = agent(w);
        let almost_null = ArgusAgentId { index: 0, world: tag, generation: 0 };
        assert_eq!(argus_agent_set_pose(w, almost_null, AT, FORWARD), ArgusResult::InvalidId);
        assert!(argus_last_error_text().contains("invalid agent id"), "{}", argus_last_error_text());
        let mut counts = std::mem::zeroed();
        assert_eq!(argus_world_get_counts(w, &mut counts), ArgusResult::Ok);
        assert_eq!(counts.agents, 1, "nothing was created or destroyed");
        let mut sound = argus_default_sound_def();
        assert_eq!(argus_world_emit_sound(w, &sound), ArgusResult::Ok, "all zero: no source");
        sound.source = ArgusTargetId { index: 0, world: tag, generation: 0 };
        assert_eq!(argus_world_emit_sound(w, &sound), ArgusResult::InvalidId);
        sound.source = ArgusTargetId { index: 3, world: tag, generation: 0 };
        assert_eq!(argus_world_emit_sound(w, &sound), ArgusResult::InvalidId);
        argus_world_destroy(w);
    }
}

fn argus_last_error_text() -> String {
    // SAFETY: a NUL-terminated string owned by the library, copied at once.
    unsafe { std::ffi::CStr::from_ptr(argus_last_error()) }.to_string_lossy().into_owned()
}
