//! The Rust half of the C# benchmark (bindings/csharp/bench/run.sh): the `town` scene driven
//! through the C ABI exactly as bindings/csharp/bench/Town.cs drives it from C# (bulk poses of
//! every agent and target, one step, every event read), so the ratio of the two is the cost of
//! the C# layer. Usage: `town AGENTS STEPS`; prints `ns_per_step N checksum C`.

use std::time::Instant;

use argus::*;

/// The seeded xorshift of benches/report/scenes.rs, repeated in Town.cs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// How many frames of poses are computed ahead.
const FRAMES: usize = 120;

fn v3(x: f32, y: f32, z: f32) -> ArgusVec3 {
    ArgusVec3 { x, y, z }
}

fn ok(r: ArgusResult) {
    assert!(matches!(r, ArgusResult::Ok), "a C ABI call failed");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2_000);
    let steps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    let side = 256.0 * (n as f32 / 10_000.0).sqrt();
    let mut rng = Rng(7 | 1);
    // SAFETY: every pointer handed to the C ABI points at live locals or vectors of the stated length.
    unsafe {
        let mut world: *mut ArgusWorld = std::ptr::null_mut();
        ok(argus_world_create(&argus_default_world_def(), &mut world));
        for _ in 0..n / 5 {
            let mut def = argus_default_occluder_def();
            let half = v3(rng.f(0.5, 3.5), rng.f(0.5, 3.5), rng.f(0.5, 3.5));
            def.shape = ArgusShapeKind::Box.into();
            def.half_extents = half;
            def.position = v3(rng.f(0.0, side), half.y, rng.f(0.0, side));
            let a = rng.f(0.0, std::f32::consts::TAU) as f64 / 2.0;
            def.rotation = ArgusQuat { x: 0.0, y: a.sin() as f32, z: 0.0, w: a.cos() as f32 };
            let mut id: ArgusOccluderId = std::mem::zeroed();
            ok(argus_occluder_create(world, &def, &mut id));
        }
        let mut agents = Vec::with_capacity(n);
        let mut positions = Vec::with_capacity(n);
        let mut angles = Vec::with_capacity(n);
        for _ in 0..n {
            let mut def = argus_default_agent_def();
            def.position = v3(rng.f(0.0, side), 0.0, rng.f(0.0, side));
            let a = rng.f(0.0, std::f32::consts::TAU);
            def.forward = v3((a as f64).sin() as f32, 0.0, (a as f64).cos() as f32);
            def.sight.view_radius = 15.0;
            def.sight.view_angle = 110.0;
            def.sight.rate_hz = 10.0;
            let mut id: ArgusAgentId = std::mem::zeroed();
            ok(argus_agent_create(world, &def, &mut id));
            agents.push(id);
            positions.push(def.position);
            angles.push(a);
        }
        let mut targets = Vec::with_capacity(n / 10);
        let mut homes = Vec::with_capacity(n / 10);
        for _ in 0..n / 10 {
            let mut def = argus_default_target_def();
            def.position = v3(rng.f(0.0, side), 0.0, rng.f(0.0, side));
            let mut id: ArgusTargetId = std::mem::zeroed();
            ok(argus_target_create(world, &def, &mut id));
            targets.push(id);
            homes.push(def.position);
        }
        let mut forwards = vec![v3(0.0, 0.0, 1.0); n];
        let mut tpositions = homes.clone();
        let tforwards = vec![v3(1.0, 0.0, 0.0); homes.len()];
        // The game's side of a frame, computed ahead and copied in (as Town.cs does).
        let forward_frames: Vec<Vec<ArgusVec3>> = (0..FRAMES)
            .map(|f| {
                (0..n)
                    .map(|i| {
                        let a = angles[i] as f64 + f as f64 * 0.02;
                        v3(a.sin() as f32, 0.0, a.cos() as f32)
                    })
                    .collect()
            })
            .collect();
        let target_frames: Vec<Vec<ArgusVec3>> = (0..FRAMES)
            .map(|f| {
                homes
                    .iter()
                    .enumerate()
                    .map(|(i, home)| v3(home.x + ((f as f64) * 0.05 + i as f64).sin() as f32 * 3.0, 0.0, home.z))
                    .collect()
            })
            .collect();
        let mut checksum: u64 = 0;
        let mut frame = |f: usize, checksum: &mut u64| {
            forwards.copy_from_slice(&forward_frames[f % FRAMES]);
            tpositions.copy_from_slice(&target_frames[f % FRAMES]);
            ok(argus_agent_set_poses(world, agents.as_ptr(), positions.as_ptr(), forwards.as_ptr(), n as u32));
            ok(argus_target_set_poses(
                world,
                targets.as_ptr(),
                tpositions.as_ptr(),
                tforwards.as_ptr(),
                targets.len() as u32,
            ));
            ok(argus_world_step(world, 1.0 / 60.0));
            let mut p = ArgusPerceptArray { items: std::ptr::null(), count: 0 };
            ok(argus_world_get_percepts(world, &mut p));
            for k in 0..p.count as usize {
                let e = &*p.items.add(k);
                *checksum += (e.agent.index + e.target.index) as u64;
            }
            let mut b = ArgusBrainEventArray { items: std::ptr::null(), count: 0 };
            ok(argus_world_get_brain_events(world, &mut b));
            for k in 0..b.count as usize {
                *checksum += (*b.items.add(k)).to as u64;
            }
            let mut g = ArgusForgetEventArray { items: std::ptr::null(), count: 0 };
            ok(argus_world_get_forget_events(world, &mut g));
            for k in 0..g.count as usize {
                *checksum += (*g.items.add(k)).target.index as u64;
            }
            let mut w = ArgusAwarenessEventArray { items: std::ptr::null(), count: 0 };
            ok(argus_world_get_awareness_events(world, &mut w));
            for k in 0..w.count as usize {
                *checksum += (*w.items.add(k)).to as u64;
            }
        };
        for f in 0..60 {
            frame(f, &mut checksum);
        }
        let start = Instant::now();
        for f in 60..60 + steps {
            frame(f, &mut checksum);
        }
        let ns = start.elapsed().as_nanos() as f64 / steps as f64;
        println!("ns_per_step {ns:.0} checksum {checksum}");
        argus_world_destroy(world);
    }
}
