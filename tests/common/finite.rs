//! Checks that nothing a world reports is infinite or NaN.

use argus_core::*;

/// Every number a world reports after a step and a round of queries is finite.
pub fn assert_world_outputs_finite(world: &World) {
    let e = world.events();
    for p in &e.percepts {
        assert!(p.position.is_finite() && p.time.is_finite() && p.strength.is_finite(), "percept {p:?}");
    }
    for f in &e.forgotten {
        assert!(f.position.is_finite() && f.time.is_finite(), "forget event {f:?}");
    }
    for a in &e.awareness {
        assert!(a.level.is_finite() && a.time.is_finite(), "awareness event {a:?}");
    }
    assert!(world.time().is_finite());
    let targets: Vec<TargetId> = world.targets().map(|(id, _)| id).take(4).collect();
    for (id, agent) in world.agents() {
        assert!(agent.position().is_finite() && agent.forward().is_finite() && agent.eye().is_finite());
        let b = agent.brain();
        assert!(b.investigate_position.is_finite() && b.timer.is_finite(), "brain {b:?}");
        for r in agent.memory() {
            assert!(r.last_known_position.is_finite() && r.confidence.is_finite() && r.last_percept_time.is_finite());
        }
        if let Ok(Some(p)) = world.move_target(id) {
            assert!(p.is_finite());
        }
        for &t in &targets {
            let s = world.can_see(id, t).unwrap();
            assert!(s.eye.is_finite() && s.fraction.is_finite(), "sight {s:?}");
            for p in &s.points[..s.point_count as usize] {
                assert!(p.point.is_finite() && p.hit.is_finite(), "sight point {p:?}");
            }
        }
    }
}
