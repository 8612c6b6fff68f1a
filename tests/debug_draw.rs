//! The debug-draw buffer, read back as an engine (or the courtyard SVG) would: colours, styles,
//! where rays start and end, what each flag draws, alpha from memory confidence, sound circles,
//! the agent filter and id validation.

use argus_core::debug_draw::{colors, flags};
use argus_core::*;

/// A guard at the origin facing +Z with the default sight (eye 1.6 m up, 10 m, 90°).
fn guard_world() -> (World, AgentId) {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let guard = world.create_agent(&AgentDef::default()).unwrap();
    (world, guard)
}

/// A target standing at (x, 0, z) with the default chest-height check point.
fn player(world: &mut World, x: f32, z: f32) -> TargetId {
    world.create_target(&TargetDef { position: Vec3::new(x, 0.0, z), ..Default::default() }).unwrap()
}

fn draw(world: &World, flags: u32) -> DebugDraw {
    draw_for(world, flags, AgentId::NULL)
}

fn draw_for(world: &World, flags: u32, agent: AgentId) -> DebugDraw {
    let mut out = DebugDraw::default();
    world.debug_draw(&DebugDrawOptions { flags, agent, ..Default::default() }, &mut out).unwrap();
    out
}

fn lines_of(d: &DebugDraw, color: u32) -> Vec<DebugLine> {
    d.lines.iter().copied().filter(|l| l.color == color).collect()
}

fn points_of(d: &DebugDraw, color: u32) -> Vec<DebugPoint> {
    d.points.iter().copied().filter(|p| p.color == color).collect()
}

fn close(a: Vec3, b: Vec3) -> bool {
    a.distance(b) < 1e-4
}

const CHEST: Vec3 = Vec3::new(0.0, target::CHEST_HEIGHT, 0.0);

#[test]
fn a_seen_target_gets_a_green_line_from_the_eye_and_a_solid_green_point() {
    let (mut world, guard) = guard_world();
    player(&mut world, 1.0, 6.0);
    let eye = world.agent(guard).unwrap().eye();
    let check_point = Vec3::new(1.0, 0.0, 6.0) + CHEST;
    let d = draw(&world, flags::SIGHT);
    let seen = lines_of(&d, colors::SEEN);
    assert_eq!(seen.len(), 1, "{d:?}");
    assert!(close(seen[0].a, eye) && close(seen[0].b, check_point), "{:?}", seen[0]);
    assert_eq!(d.points.len(), 1);
    let p = d.points[0];
    assert_eq!((p.color, p.style), (colors::SEEN, PointStyle::Solid));
    assert!(close(p.position, check_point));
    assert!(lines_of(&d, colors::BLOCKED).is_empty());
}

#[test]
fn a_hidden_target_gets_a_red_ray_ending_on_the_wall_a_red_dot_there_and_a_solid_grey_point() {
    let (mut world, guard) = guard_world();
    player(&mut world, 0.0, 6.0);
    // A 2.5 m high wall across the line of sight, its near face at z = 2.8.
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(0.0, 1.25, 3.0), Vec3::new(2.0, 1.25, 0.2))).unwrap();
    let eye = world.agent(guard).unwrap().eye();
    let check_point = Vec3::new(0.0, 0.0, 6.0) + CHEST;
    let d = draw(&world, flags::SIGHT);

    assert!(lines_of(&d, colors::SEEN).is_empty(), "nothing is seen: {d:?}");
    let red = lines_of(&d, colors::BLOCKED);
    assert_eq!(red.len(), 1, "{d:?}");
    assert!(close(red[0].a, eye));
    let hit = red[0].b;
    assert!((hit.z - 2.8).abs() < 1e-3, "the ray ends on the wall's near face, got {hit}");
    // ... on the way to the check point, not past the wall.
    let along = (hit - eye).normalize();
    assert!(along.dot((check_point - eye).normalize()) > 0.9999);
    assert!(hit.distance(eye) < check_point.distance(eye));

    let dots: Vec<_> = points_of(&d, colors::BLOCKED);
    assert_eq!(dots.len(), 1);
    assert_eq!(dots[0].style, PointStyle::Solid);
    assert!(close(dots[0].position, hit), "the red dot sits where the ray stopped");
    let grey = points_of(&d, colors::HIDDEN);
    assert_eq!(grey.len(), 1);
    assert_eq!(grey[0].style, PointStyle::Solid);
    assert!(close(grey[0].position, check_point));
}

#[test]
fn a_target_outside_the_cone_is_a_dim_wire_point_with_no_ray() {
    let (mut world, _) = guard_world();
    player(&mut world, 0.0, -5.0); // behind
    player(&mut world, 7.0, 3.0); // in range, 67° off the forward axis
    player(&mut world, 0.0, 30.0); // straight ahead, out of range
    let d = draw(&world, flags::SIGHT);
    assert!(d.lines.is_empty(), "no rays for targets outside the cone: {:?}", d.lines);
    assert_eq!(d.points.len(), 3);
    for p in &d.points {
        assert_eq!((p.color, p.style), (colors::OUTSIDE, PointStyle::Wire), "{p:?}");
    }
}

#[test]
fn cone_outline_lines_start_at_the_eye_and_the_arc_lies_on_the_view_radius() {
    let (world, guard) = guard_world();
    let agent = world.agent(guard).unwrap();
    let (eye, forward, position) = (agent.eye(), agent.forward(), agent.position());
    let d = draw(&world, flags::CONES);

    let body = points_of(&d, colors::AGENT);
    assert_eq!(body.len(), 1);
    assert_eq!(body[0].style, PointStyle::Solid);
    assert!(close(body[0].position, position));
    let arrow = lines_of(&d, colors::AGENT);
    assert_eq!(arrow.len(), 1);
    assert!(close(arrow[0].a, eye));
    assert!((arrow[0].b - eye).normalize().dot(forward) > 0.9999, "the arrow points forward");

    let cone = lines_of(&d, colors::CONE);
    let (edges, arc): (Vec<DebugLine>, Vec<DebugLine>) = cone.iter().partition(|l| close(l.a, eye));
    assert_eq!(edges.len(), 2, "two straight edges from the eye: {cone:?}");
    let half = 45f32.to_radians().cos();
    for e in &edges {
        assert!((e.b.distance(eye) - 10.0).abs() < 1e-3);
        assert!(((e.b - eye).normalize().dot(forward) - half).abs() < 1e-4, "edges at ±45°");
    }
    assert!(!arc.is_empty());
    for l in &arc {
        assert!((l.a.distance(eye) - 10.0).abs() < 1e-3 && (l.b.distance(eye) - 10.0).abs() < 1e-3);
    }
    assert!(lines_of(&d, colors::PERIPHERAL).is_empty(), "no peripheral cone by default");
}

#[test]
fn a_peripheral_cone_is_drawn_in_its_own_colour_from_the_eye() {
    let mut world = World::default();
    let mut def = AgentDef::default();
    def.sight.peripheral_radius = 4.0;
    let guard = world.create_agent(&def).unwrap();
    let eye = world.agent(guard).unwrap().eye();
    let d = draw(&world, flags::CONES);
    let outline = lines_of(&d, colors::PERIPHERAL);
    assert_eq!(outline.iter().filter(|l| close(l.a, eye)).count(), 2);
    assert!(outline.iter().filter(|l| !close(l.a, eye)).all(|l| (l.b.distance(eye) - 4.0).abs() < 1e-3));
}

#[test]
fn flags_filter_what_is_drawn() {
    let (mut world, _) = guard_world();
    player(&mut world, 0.0, 5.0);
    let half = Vec3::new(1.0, 1.5, 0.5);
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(5.0, 1.5, 5.0), half)).unwrap();

    let d = draw(&world, flags::OCCLUDERS);
    assert_eq!(d.lines.len(), 12, "a box is 12 edges");
    assert!(d.points.is_empty());
    assert!(d.lines.iter().all(|l| l.color == colors::OCCLUDER));
    let mut lengths: Vec<f32> = d.lines.iter().map(|l| l.a.distance(l.b)).collect();
    lengths.sort_by(f32::total_cmp);
    let expect = [1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0];
    assert!(lengths.iter().zip(expect).all(|(a, b)| (a - b).abs() < 1e-4), "{lengths:?}");

    assert!(draw(&world, 0).lines.is_empty() && draw(&world, 0).points.is_empty());
    let cones = draw(&world, flags::CONES);
    assert!(cones.lines.iter().all(|l| l.color == colors::CONE || l.color == colors::AGENT));
    let sight = draw(&world, flags::SIGHT);
    assert!(sight.lines.iter().all(|l| l.color == colors::SEEN) && sight.points.len() == 1);
    let all = draw(&world, flags::ALL);
    assert_eq!(all.lines.len(), 12 + cones.lines.len() + sight.lines.len());
}

#[test]
fn memory_markers_fade_with_confidence() {
    let (mut world, guard) = guard_world();
    let far = player(&mut world, 0.0, 50.0);
    let near = player(&mut world, 3.0, -3.0);
    let (p_far, p_near) = (Vec3::new(1.0, 0.0, 2.0), Vec3::new(-4.0, 0.0, 1.0));
    world.remember(guard, far, p_far, 1.0).unwrap();
    world.remember(guard, near, p_near, 0.25).unwrap();
    let d = draw(&world, flags::MEMORY);
    let alpha = |c: u32| c & 0xFF;
    let rgb = |c: u32| c & 0xFFFF_FF00;
    assert_eq!(d.points.len(), 2);
    for p in &d.points {
        assert_eq!(rgb(p.color), rgb(colors::MEMORY));
        assert_eq!(p.style, PointStyle::Wire);
    }
    let at = |pos: Vec3| d.points.iter().find(|p| close(p.position, pos)).copied().unwrap();
    assert_eq!(alpha(at(p_far).color), 255);
    assert_eq!(alpha(at(p_near).color), 64, "0.25 × 255 rounded");
    // A fainter line from the guard to each remembered spot.
    assert_eq!(d.lines.len(), 2);
    assert!(d.lines.iter().all(|l| close(l.a, Vec3::ZERO) && rgb(l.color) == rgb(colors::MEMORY)));
    let line_to = |pos: Vec3| d.lines.iter().find(|l| close(l.b, pos)).unwrap().color;
    assert!(alpha(line_to(p_near)) < alpha(line_to(p_far)));

    // Decayed confidence (0.2 per second by default) shows as a lower alpha.
    world.step(2.5).unwrap();
    let conf = world.memory_of(guard, far).unwrap().unwrap().confidence;
    assert!((conf - 0.5).abs() < 1e-5);
    let d = draw(&world, flags::MEMORY);
    let faded = alpha(d.points.iter().find(|p| close(p.position, p_far)).unwrap().color);
    assert_eq!(faded, (conf * 255.0).round() as u32);
    assert!((127..=128).contains(&faded));
    assert!(d.points.iter().all(|p| !close(p.position, p_near)), "forgotten records are not drawn");
}

#[test]
fn sound_circles_appear_after_the_step_that_processed_the_sound() {
    let (mut world, guard) = guard_world();
    let centre = Vec3::new(3.0, 0.0, 0.0);
    world.emit_sound(&SoundDef { position: centre, loudness: 6.0, ..Default::default() }).unwrap();
    assert!(draw(&world, flags::HEARING).lines.is_empty(), "a pending sound is not drawn yet");

    world.step(0.1).unwrap();
    let d = draw(&world, flags::HEARING);
    let sound = lines_of(&d, colors::SOUND);
    let (heard, circle): (Vec<DebugLine>, Vec<DebugLine>) =
        sound.iter().partition(|l| close(l.b, world.agent(guard).unwrap().position()));
    assert_eq!(circle.len(), 32, "one full circle of the default 32 segments");
    for l in &circle {
        assert!((l.a.distance(centre) - 6.0).abs() < 1e-4 && (l.b.distance(centre) - 6.0).abs() < 1e-4);
        assert!(l.a.y == 0.0 && l.b.y == 0.0, "flat on the ground plane");
    }
    assert_eq!(heard.len(), 1, "a line from the sound to the guard that heard it");
    assert!(close(heard[0].a, centre));

    world.step(0.1).unwrap();
    assert!(draw(&world, flags::HEARING).lines.is_empty(), "gone once a step passed without sound");
}

#[test]
fn circle_segments_set_the_circle_resolution_within_limits() {
    let (mut world, _) = guard_world();
    world.emit_sound(&SoundDef { position: Vec3::new(50.0, 0.0, 0.0), loudness: 2.0, ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    let mut out = DebugDraw::default();
    let max = argus_core::debug_draw::MAX_CIRCLE_SEGMENTS as usize;
    for (asked, drawn) in [(12, 12), (3, 3), (0, 3), (u32::MAX, max)] {
        let options = DebugDrawOptions { flags: flags::HEARING, circle_segments: asked, ..Default::default() };
        world.debug_draw(&options, &mut out).unwrap();
        assert_eq!(out.lines.len(), drawn, "{asked} segments asked");
    }
}

#[test]
fn move_targets_show_where_the_brain_wants_to_go() {
    let (mut world, guard) = guard_world();
    assert!(draw(&world, flags::MOVE_TARGETS).lines.is_empty(), "idle: nowhere to go");
    let noise = Vec3::new(-2.0, 0.0, -3.0);
    world.emit_sound(&SoundDef { position: noise, loudness: 15.0, ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    assert_eq!(world.agent(guard).unwrap().brain().state, BrainState::Investigating);
    let d = draw(&world, flags::MOVE_TARGETS);
    assert_eq!(d.lines.len(), 1);
    assert!(close(d.lines[0].a, Vec3::ZERO) && close(d.lines[0].b, noise));
    assert_eq!(d.points.len(), 1);
    assert!(close(d.points[0].position, noise));
    assert_eq!((d.points[0].color, d.points[0].style), (colors::MOVE_TARGET, PointStyle::Solid));
}

#[test]
fn the_agent_filter_draws_one_agent_only() {
    let (mut world, a) = guard_world();
    let b_pos = Vec3::new(0.0, 0.0, 12.0);
    let b = world.create_agent(&AgentDef { position: b_pos, forward: -Vec3::Z, ..Default::default() }).unwrap();
    player(&mut world, 0.0, 6.0); // both see it
    let (eye_a, eye_b) = (world.agent(a).unwrap().eye(), world.agent(b).unwrap().eye());

    let both = draw(&world, flags::CONES | flags::SIGHT);
    assert_eq!(points_of(&both, colors::AGENT).len(), 2);
    assert_eq!(lines_of(&both, colors::SEEN).len(), 2);

    let only_b = draw_for(&world, flags::CONES | flags::SIGHT, b);
    let bodies = points_of(&only_b, colors::AGENT);
    assert_eq!(bodies.len(), 1);
    assert!(close(bodies[0].position, b_pos));
    let seen = lines_of(&only_b, colors::SEEN);
    assert_eq!(seen.len(), 1);
    assert!(close(seen[0].a, eye_b));
    assert!(only_b.lines.iter().all(|l| !close(l.a, eye_a)), "nothing starts at the other guard's eye");
    assert!(only_b.lines.iter().filter(|l| l.color == colors::CONE).all(|l| l.a.distance(eye_b) <= 10.001));
}

#[test]
fn an_unknown_agent_in_the_options_is_an_invalid_id_and_leaves_the_buffer_alone() {
    let (mut world, guard) = guard_world();
    let mut out = DebugDraw::default();
    world.debug_draw(&DebugDrawOptions::default(), &mut out).unwrap();
    let before = out.clone();
    assert!(!before.lines.is_empty());

    let never = AgentId { index: 7, generation: 1 };
    let options = DebugDrawOptions { agent: never, ..Default::default() };
    assert!(matches!(world.debug_draw(&options, &mut out), Err(Error::InvalidId(_))));
    world.destroy_agent(guard).unwrap();
    let stale = DebugDrawOptions { agent: guard, ..Default::default() };
    assert!(matches!(world.debug_draw(&stale, &mut out), Err(Error::InvalidId(_))));
    assert_eq!(out.lines, before.lines);
    assert_eq!(out.points, before.points);
}

#[test]
fn the_buffer_is_cleared_by_each_draw() {
    let (mut world, _) = guard_world();
    player(&mut world, 0.0, 5.0);
    let mut out = DebugDraw::default();
    world.debug_draw(&DebugDrawOptions::default(), &mut out).unwrap();
    let first = (out.lines.len(), out.points.len());
    world.debug_draw(&DebugDrawOptions::default(), &mut out).unwrap();
    assert_eq!((out.lines.len(), out.points.len()), first);
    world.debug_draw(&DebugDrawOptions { flags: flags::SIGHT, ..Default::default() }, &mut out).unwrap();
    assert_eq!((out.lines.len(), out.points.len()), (1, 1));
}

#[test]
fn the_walk_graph_is_drawn_on_its_own_bit_one_line_per_edge() {
    let mut world = World::default();
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(1.5, 1.0, 1.5), Vec3::new(0.4, 1.0, 0.4))).unwrap();
    assert!(draw(&world, flags::WALK_GRAPH).lines.is_empty(), "no graph, nothing drawn");
    world.set_walk_grid(&WalkGridDef { width: 4, depth: 4, cell_size: 1.0, ..Default::default() }).unwrap();
    let d = draw(&world, flags::WALK_GRAPH);
    let graph = world.walk_graph().unwrap();
    assert!(!graph.is_open(5), "the box blocks cell (1, 1)");
    assert_eq!(d.lines.len(), graph.edges().len());
    assert!(d.lines.iter().all(|l| l.color == colors::WALK_GRAPH && (l.a.y - 0.05).abs() < 1e-6));
    // No line touches the blocked cell's centre.
    assert!(
        d.lines
            .iter()
            .all(|l| l.a.distance(Vec3::new(1.5, 0.05, 1.5)) > 0.1 && l.b.distance(Vec3::new(1.5, 0.05, 1.5)) > 0.1)
    );
    assert_eq!(flags::ALL & flags::WALK_GRAPH, 0, "not in the default");
    assert_eq!(draw(&world, flags::ALL).lines.len(), draw(&world, flags::ALL & !flags::OCCLUDERS).lines.len() + 12);
}
