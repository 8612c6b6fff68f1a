//! Coverage-guided: any bytes given to the loader are refused with `BadSnapshot` or give a world
//! that re-saves to exactly those bytes and can step, after which its own save loads and re-saves
//! to the same bytes. The input is resealed (payload length and checksum recomputed) so the fuzzer
//! explores the parser instead of the checksum.
#![no_main]

use argus_core::snapshot::reseal;
use argus_core::{Error, World};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = b"ARGUSSNP".to_vec();
    bytes.extend_from_slice(&argus_core::snapshot::FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(data);
    bytes.extend_from_slice(&[0; 8]);
    reseal(&mut bytes);
    match World::load(&bytes) {
        Err(Error::BadSnapshot(_)) => {}
        Err(other) => panic!("a load failed with {other:?}, not BadSnapshot"),
        Ok(mut world) => {
            assert!(world.save().unwrap() == bytes, "an accepted snapshot re-saves to different bytes");
            let dt = if world.time() + 1.0 <= argus_core::world::MAX_WORLD_TIME { 0.05 } else { 0.0 };
            world.step(dt).unwrap();
            // What the world made of the loaded state saves, loads and re-saves identically.
            let stepped = world.save().expect("a stepped world saves");
            let reloaded = World::load(&stepped).expect("a world's own save loads");
            assert!(reloaded.save().unwrap() == stepped, "a stepped world's save re-saves differently");
        }
    }
});
