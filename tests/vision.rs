//! The lesson's vision trace (§2–4) and the vision-cone card's rules, through the Rust API.

mod common;
use argus_core::*;
use common::*;

fn sees(world: &World, agent: AgentId, target: TargetId) -> bool {
    world.can_see(agent, target).unwrap().seen
}

#[test]
fn cos_half_of_a_90_degree_cone_is_0_707() {
    assert!((argus_core::math::cos_half_angle(90.0) - 0.70710677).abs() < 1e-6);
}

#[test]
fn lesson_trace_range_then_cone_then_line_of_sight() {
    let (mut world, agent) = lesson_world();
    // (target, expected) for the agent at the origin facing +Z, radius 10, 90° cone.
    let cases = [
        (Vec3::new(0.0, 0.0, 5.0), true, "straight ahead, 5 m"),
        (Vec3::new(0.0, 0.0, 10.0), true, "ahead at exactly the radius"),
        (Vec3::new(0.0, 0.0, 10.2), false, "just past the radius"),
        (Vec3::new(0.0, 0.0, 15.0), false, "too far"),
        (at_angle(45.0, 8.0), true, "exactly on the cone edge"),
        (at_angle(-45.0, 8.0), true, "exactly on the other cone edge"),
        (at_angle(46.0, 8.0), false, "1 degree past the edge"),
        (at_angle(-46.0, 8.0), false, "1 degree past the other edge"),
        (at_angle(90.0, 5.0), false, "to the side"),
        (Vec3::new(0.0, 0.0, -5.0), false, "behind"),
        (Vec3::ZERO, true, "on the eye"),
    ];
    for (pos, expected, what) in cases {
        let t = world.create_target(&point_target(pos)).unwrap();
        assert_eq!(sees(&world, agent, t), expected, "{what} ({pos})");
        world.destroy_target(t).unwrap();
    }
}

#[test]
fn the_angle_boundary_holds_for_every_cone_width() {
    for angle in [10.0f32, 60.0, 90.0, 120.0, 179.0, 270.0] {
        let (mut world, _) = lesson_world();
        let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
        def.sight.view_angle = angle;
        let agent = world.create_agent(&def).unwrap();
        let edge = world.create_target(&point_target(at_angle(angle / 2.0, 7.0))).unwrap();
        let past = world.create_target(&point_target(at_angle(angle / 2.0 + 1.0, 7.0))).unwrap();
        assert!(sees(&world, agent, edge), "edge of a {angle}° cone");
        assert!(!sees(&world, agent, past), "1° past a {angle}° cone");
    }
}

#[test]
fn a_360_degree_cone_sees_behind() {
    let (mut world, _) = lesson_world();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.view_angle = 360.0;
    let agent = world.create_agent(&def).unwrap();
    let behind = world.create_target(&point_target(Vec3::new(0.0, 0.0, -9.0))).unwrap();
    assert!(sees(&world, agent, behind));
}

#[test]
fn a_wall_blocks_and_reports_where_the_ray_hit_it() {
    let (mut world, agent) = lesson_world();
    world.add_occluder(&wall(Vec3::new(0.0, 0.0, 4.0), Vec3::new(2.0, 2.0, 0.5))).unwrap();
    let hidden = world.create_target(&point_target(Vec3::new(0.0, 0.0, 8.0))).unwrap();
    let result = world.can_see(agent, hidden).unwrap();
    assert!(!result.seen);
    assert_eq!(result.points()[0].status, PointStatus::Blocked);
    let hit = result.points()[0].hit;
    assert!((hit - Vec3::new(0.0, 0.0, 3.5)).length() < 1e-4, "hit at the wall's near face, got {hit}");
    let beside = world.create_target(&point_target(Vec3::new(6.0, 0.0, 7.0))).unwrap();
    assert!(sees(&world, agent, beside), "a target beside the wall is in the clear");
}

#[test]
fn rays_ignore_an_occluder_around_the_eye_but_not_one_around_the_target() {
    let (mut world, agent) = lesson_world();
    // A bush around the guard: he sees out of it.
    world.add_occluder(&OccluderDef::sphere(Vec3::ZERO, 1.5)).unwrap();
    let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 6.0))).unwrap();
    assert!(sees(&world, agent, t));
    // A crate the player crouches inside: the ray enters it before reaching the point.
    world.add_occluder(&wall(Vec3::new(0.0, 0.0, 6.0), Vec3::splat(0.8))).unwrap();
    let r = world.can_see(agent, t).unwrap();
    assert!(!r.seen);
    assert!((r.points()[0].hit.z - 5.2).abs() < 1e-4);
}

#[test]
fn obstacle_mask_picks_which_layers_block() {
    let (mut world, _) = lesson_world();
    let glass = OccluderDef { layers: 1 << 3, ..wall(Vec3::new(0.0, 0.0, 3.0), Vec3::new(2.0, 2.0, 0.1)) };
    world.add_occluder(&glass).unwrap();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.obstacle_mask = !(1 << 3);
    let sees_through_glass = world.create_agent(&def).unwrap();
    let normal = world.create_agent(&lesson_agent(Vec3::ZERO, Vec3::Z)).unwrap();
    let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 6.0))).unwrap();
    assert!(sees(&world, sees_through_glass, t));
    assert!(!sees(&world, normal, t));
}

#[test]
fn target_mask_and_team_filter_every_sense_the_same_way() {
    let (mut world, agent) = lesson_world();
    let ally = world.create_target(&TargetDef { team: 0, ..point_target(Vec3::new(0.0, 0.0, 5.0)) }).unwrap();
    let other_layer =
        world.create_target(&TargetDef { layers: 1 << 5, ..point_target(Vec3::new(0.0, 0.0, 5.0)) }).unwrap();
    let enemy = world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    assert!(!sees(&world, agent, ally), "friendly team is ignored by default");
    assert!(!world.can_see(agent, ally).unwrap().perceivable);
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.target_mask = 1;
    world.set_agent_def(agent, &def).unwrap();
    assert!(!sees(&world, agent, other_layer), "layer outside the target mask");
    assert!(sees(&world, agent, enemy));
    world.set_attitude(0, 1, Attitude::Neutral).unwrap();
    assert!(!sees(&world, agent, enemy), "neutral is not perceived by a hostile-only agent");
    def.detect = argus_core::team::DETECT_ALL;
    world.set_agent_def(agent, &def).unwrap();
    assert!(sees(&world, agent, enemy));
    assert!(sees(&world, agent, ally));
}

#[test]
fn far_targets_do_not_look_more_in_front_direction_is_normalised() {
    // The card's mistake: an unnormalised direction makes dot grow with distance. At 50° and 9 m
    // the raw dot would be 9 × cos 50° ≈ 5.8 > 0.707.
    let (mut world, agent) = lesson_world();
    let t = world.create_target(&point_target(at_angle(50.0, 9.0))).unwrap();
    assert!(!sees(&world, agent, t));
}

#[test]
fn the_cone_uses_half_the_angle() {
    // The card's mistake: comparing with cos(90°) = 0 would double the cone and accept 60°.
    let (mut world, agent) = lesson_world();
    let t = world.create_target(&point_target(at_angle(60.0, 5.0))).unwrap();
    assert!(!sees(&world, agent, t));
}

#[test]
fn eye_height_means_a_knee_high_crate_does_not_hide_a_standing_player() {
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef { forward: Vec3::Z, ..Default::default() }).unwrap();
    let player = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 8.0), ..Default::default() }).unwrap();
    world.add_occluder(&wall(Vec3::new(0.0, 0.25, 4.0), Vec3::new(1.0, 0.25, 0.5))).unwrap();
    assert!(sees(&world, guard, player), "eye at 1.6 m, chest at 1.3 m, crate 0.5 m high");
    // The same crate hides a player lying behind it.
    world.set_target_check_points(player, &[Vec3::new(0.0, 0.2, 0.0)]).unwrap();
    world.set_target_pose(player, Vec3::new(0.0, 0.0, 5.0), Vec3::Z).unwrap();
    assert!(!sees(&world, guard, player));
}

#[test]
fn multi_point_visibility_gives_a_fraction() {
    let (mut world, agent) = lesson_world();
    // A low wall hides the lower two of four points.
    world.add_occluder(&wall(Vec3::new(0.0, 0.5, 4.0), Vec3::new(2.0, 0.5, 0.2))).unwrap();
    let points =
        vec![Vec3::new(0.0, -0.5, 0.0), Vec3::new(0.0, 0.3, 0.0), Vec3::new(0.0, 1.7, 0.0), Vec3::new(0.0, 2.0, 0.0)];
    let mut def = lesson_agent(Vec3::new(0.0, 1.0, 0.0), Vec3::Z);
    def.sight.eye_offset = Vec3::ZERO;
    let agent_high = world.create_agent(&def).unwrap();
    let _ = agent;
    let t = world.create_target(&TargetDef { check_points: points, ..point_target(Vec3::new(0.0, 0.0, 8.0)) }).unwrap();
    let r = world.can_see(agent_high, t).unwrap();
    let statuses: Vec<_> = r.points().iter().map(|p| p.status).collect();
    assert_eq!(statuses, [PointStatus::Blocked, PointStatus::Blocked, PointStatus::Visible, PointStatus::Visible]);
    assert_eq!(r.fraction, 0.5);
    assert!(r.seen);
}

#[test]
fn peripheral_cone_sees_wide_but_short() {
    let (mut world, _) = lesson_world();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.peripheral_radius = 4.0;
    def.sight.peripheral_angle = 180.0;
    let agent = world.create_agent(&def).unwrap();
    let near_side = world.create_target(&point_target(at_angle(80.0, 3.0))).unwrap();
    let far_side = world.create_target(&point_target(at_angle(80.0, 6.0))).unwrap();
    let far_ahead = world.create_target(&point_target(at_angle(10.0, 9.0))).unwrap();
    assert!(sees(&world, agent, near_side));
    assert!(!sees(&world, agent, far_side));
    assert!(sees(&world, agent, far_ahead));
}

#[test]
fn visible_targets_lists_exactly_the_seen_ones_in_slot_order() {
    let (mut world, agent) = lesson_world();
    world.add_occluder(&wall(Vec3::new(-3.0, 0.0, 5.0), Vec3::new(2.0, 1.0, 0.2))).unwrap();
    let a = world.create_target(&point_target(Vec3::new(0.0, 0.0, 4.0))).unwrap();
    let _behind = world.create_target(&point_target(Vec3::new(0.0, 0.0, -4.0))).unwrap();
    let _hidden = world.create_target(&point_target(Vec3::new(-3.0, 0.0, 8.0))).unwrap();
    let b = world.create_target(&point_target(Vec3::new(2.0, 0.0, 6.0))).unwrap();
    let mut out = Vec::new();
    world.visible_targets(agent, &mut out).unwrap();
    assert_eq!(out, vec![a, b]);
}

#[test]
fn disabled_targets_are_invisible() {
    let (mut world, agent) = lesson_world();
    let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 4.0))).unwrap();
    world.set_target_enabled(t, false).unwrap();
    assert!(!sees(&world, agent, t));
    world.set_target_enabled(t, true).unwrap();
    assert!(sees(&world, agent, t));
}

#[test]
fn every_occluder_shape_blocks() {
    let shapes = [
        OccluderShape::Box { half_extents: Vec3::new(1.0, 1.0, 0.3) },
        OccluderShape::Sphere { radius: 0.8 },
        OccluderShape::Capsule { half_height: 1.0, radius: 0.5 },
        OccluderShape::Mesh {
            vertices: vec![Vec3::new(-2.0, -2.0, 0.0), Vec3::new(2.0, -2.0, 0.0), Vec3::new(0.0, 2.0, 0.0)],
            indices: vec![[0, 1, 2]],
        },
    ];
    for shape in shapes {
        let (mut world, agent) = lesson_world();
        let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 8.0))).unwrap();
        let id = world
            .add_occluder(&OccluderDef {
                shape: shape.clone(),
                position: Vec3::new(0.0, 0.0, 4.0),
                ..Default::default()
            })
            .unwrap();
        assert!(!sees(&world, agent, t), "{shape:?} should block");
        // Moving it aside clears the line.
        world.set_occluder_pose(id, Vec3::new(6.0, 0.0, 4.0), Quat::IDENTITY).unwrap();
        assert!(sees(&world, agent, t), "{shape:?} moved aside");
        world.remove_occluder(id).unwrap();
    }
}

#[test]
fn rotated_boxes_block_where_they_are() {
    let (mut world, agent) = lesson_world();
    // A thin wall along X, rotated 90° about Y so it runs along Z beside the sight line.
    let rotated = OccluderDef {
        rotation: Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        ..wall(Vec3::new(1.0, 0.0, 5.0), Vec3::new(3.0, 1.0, 0.1))
    };
    world.add_occluder(&rotated).unwrap();
    let straight = world.create_target(&point_target(Vec3::new(0.0, 0.0, 8.0))).unwrap();
    let across = world.create_target(&point_target(Vec3::new(2.0, 0.0, 5.0))).unwrap();
    assert!(sees(&world, agent, straight));
    assert!(!sees(&world, agent, across));
}

#[test]
fn the_occluder_tree_survives_removals_and_many_moves() {
    // parry3d's bulk build assumes leaf ids 0 and 1 for tiny sets; slot 0 freed used to panic.
    for keep in 1..=4 {
        let (mut world, agent) = lesson_world();
        let ids: Vec<_> = (0..=keep)
            .map(|i| world.add_occluder(&wall(Vec3::new(30.0 + i as f32 * 3.0, 0.0, 0.0), Vec3::ONE)).unwrap())
            .collect();
        world.remove_occluder(ids[0]).unwrap();
        let door = ids[1];
        for i in 0..200 {
            world.set_occluder_pose(door, Vec3::new(0.0, 0.0, 4.0 + (i % 2) as f32 * 30.0), Quat::IDENTITY).unwrap();
            world.step(0.1).unwrap();
        }
        let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 8.0))).unwrap();
        world.set_occluder_pose(door, Vec3::new(0.0, 0.0, 4.0), Quat::IDENTITY).unwrap();
        world.step(0.1).unwrap();
        assert!(!sees(&world, agent, t), "the door blocks after {keep} occluders and 200 moves");
        let restored = World::load(&world.save().unwrap()).unwrap();
        assert!(!restored.can_see(agent, t).unwrap().seen);
    }
}

#[test]
fn agents_with_the_same_settings_share_one_tuning_and_changes_are_their_own() {
    let mut world = World::default();
    let ids: Vec<_> =
        (0..100).map(|i| world.create_agent(&lesson_agent(Vec3::new(i as f32, 0.0, 0.0), Vec3::Z)).unwrap()).collect();
    assert_eq!(world.distinct_tunings(), 1);
    let mut wide = lesson_agent(Vec3::ZERO, Vec3::Z);
    wide.sight.view_angle = 200.0;
    world.set_agent_def(ids[3], &wide).unwrap();
    assert_eq!(world.distinct_tunings(), 2);
    assert_eq!(world.agent(ids[3]).unwrap().def().sight.view_angle, 200.0);
    assert_eq!(world.agent(ids[4]).unwrap().def().sight.view_angle, 90.0, "the others keep theirs");
    world.destroy_agent(ids[3]).unwrap();
    assert_eq!(world.distinct_tunings(), 1, "an unused tuning is dropped");
    for id in &ids[..3] {
        world.destroy_agent(*id).unwrap();
    }
    assert_eq!(world.distinct_tunings(), 1);
}
