//! The editor picture of the selected guard: its vision cone, its near sense (the peripheral
//! cone) and how far it hears a running footstep, drawn over the 2D and 3D editor viewports while
//! a vision sensor (or its hearing sensor) is selected. An `EditorPlugin`, which gdext registers
//! at the editor init level: it exists only in the editor.
//!
//! The lines are the core's own debug picture (`debug_draw`) of a scratch world holding the
//! sensor's agent and one running footstep at its feet, so the editor shows what the core tests.

use argus_core::debug_draw::flags;
use argus_core::{AgentDef, DebugDraw, DebugDrawOptions, DebugLine, SoundDef, World};
use godot::classes::{Control, EditorInterface, EditorPlugin, IEditorPlugin, Node2D, Node3D, Object};
use godot::prelude::*;

use crate::convert::{color_of, core_to_plane, from_core};
use crate::dim::{D2, D3, Dim};
use crate::sensors::hearing::HearingShell;
use crate::sensors::vision::VisionShell;
use crate::sensors::{HearingSensor2D, HearingSensor3D, VisionSensor2D, VisionSensor3D, agent_def};

/// The loudness of the footstep whose reach is drawn: the core's running footstep, in metres
/// (scaled to pixels in 2D). A guard hears it within this × its `hearing_sensitivity`.
pub const FOOTSTEP_LOUDNESS: f32 = 15.0;

/// Draws the selected guard's vision cone, near sense and hearing reach over the editor's 2D and 3D viewports (the add-on adds it in the editor; nothing to set up).
#[derive(GodotClass)]
#[class(tool, init, base = EditorPlugin)]
pub struct ArgusEditorPlugin {
    /// The selected sensor (a vision sensor, or the hearing sensor of one).
    edited: Option<Gd<Node>>,
    base: Base<EditorPlugin>,
}

#[godot_api]
impl IEditorPlugin for ArgusEditorPlugin {
    fn enter_tree(&mut self) {
        // Redraw every editor frame while a sensor is selected: moving it or changing a setting
        // in the inspector shows at once.
        self.base_mut().set_process(true);
    }
    fn process(&mut self, _delta: f64) {
        if self.edited.as_ref().is_some_and(|n| n.is_instance_valid()) {
            self.base().update_overlays();
        }
    }
    fn handles(&self, object: Gd<Object>) -> bool {
        guard_of(&object).is_some()
    }
    fn edit(&mut self, object: Option<Gd<Object>>) {
        self.edited = object.and_then(|o| o.try_cast::<Node>().ok());
        self.base().update_overlays();
    }
    fn make_visible(&mut self, visible: bool) {
        if !visible {
            self.edited = None;
        }
        self.base().update_overlays();
    }
    fn forward_canvas_draw_over_viewport(&mut self, overlay: Option<Gd<Control>>) {
        let (Some(mut overlay), Some(guard)) = (overlay, self.guard()) else { return };
        let Ok(node) = guard.try_cast::<Node2D>() else { return };
        let to_screen = node.get_viewport_transform();
        for line in picture_of(&node.clone().upcast()) {
            let (a, b) = (to_screen * core_to_plane(line.a), to_screen * core_to_plane(line.b));
            overlay.draw_line(a, b, color_of(line.color));
        }
    }
    fn forward_3d_draw_over_viewport(&mut self, overlay: Option<Gd<Control>>) {
        let (Some(mut overlay), Some(guard)) = (overlay, self.guard()) else { return };
        let Ok(node) = guard.try_cast::<Node3D>() else { return };
        // The first 3D viewport's camera (the default single-view layout).
        let Some(viewport) = EditorInterface::singleton().get_editor_viewport_3d() else { return };
        let Some(camera) = viewport.get_camera_3d() else { return };
        for line in picture_of(&node.upcast()) {
            let (a, b) = (from_core(line.a), from_core(line.b));
            if camera.is_position_behind(a) || camera.is_position_behind(b) {
                continue;
            }
            overlay.draw_line(camera.unproject_position(a), camera.unproject_position(b), color_of(line.color));
        }
    }
}

impl ArgusEditorPlugin {
    /// The vision sensor of the selected node, while it is alive.
    fn guard(&self) -> Option<Gd<Node>> {
        let edited = self.edited.as_ref().filter(|n| n.is_instance_valid())?;
        guard_of(&edited.clone().upcast())
    }
}

/// The vision sensor a selected object stands for: itself, or the parent of a hearing sensor.
fn guard_of(object: &Gd<Object>) -> Option<Gd<Node>> {
    let node = object.clone().try_cast::<Node>().ok()?;
    let is_vision = |n: &Gd<Node>| n.is_class(D3::VISION_CLASS) || n.is_class(D2::VISION_CLASS);
    if is_vision(&node) {
        return Some(node);
    }
    if node.is_class("HearingSensor3D") || node.is_class("HearingSensor2D") {
        return node.get_parent().filter(is_vision);
    }
    None
}

/// The picture of a vision sensor node (2D or 3D) as it stands in the edited scene.
fn picture_of(node: &Gd<Node>) -> Vec<DebugLine> {
    if let Ok(v) = node.clone().try_cast::<VisionSensor3D>() {
        let sensitivity = hearing_of::<HearingSensor3D>(node);
        return picture(&def_of(&v), sensitivity.map(|s| s * FOOTSTEP_LOUDNESS));
    }
    if let Ok(v) = node.clone().try_cast::<VisionSensor2D>() {
        let sensitivity = hearing_of::<HearingSensor2D>(node);
        let reach = sensitivity.map(|s| s * FOOTSTEP_LOUDNESS * D2::DISTANCE_SCALE);
        return picture(&def_of(&v), reach);
    }
    Vec::new()
}

/// The hearing sensitivity of a guard's first hearing child of class `H`, if it hears.
fn hearing_of<H: HearingShell + Inherits<Node>>(guard: &Gd<Node>) -> Option<f32> {
    let ears = guard.get_children().iter_shared().find_map(|c| c.try_cast::<H>().ok())?;
    let config = ears.bind().config();
    config.enabled.then_some(config.sensitivity)
}

/// The agent def of a vision sensor node with its settings as set in the inspector.
fn def_of<V: VisionShell + Inherits<Node>>(v: &Gd<V>) -> AgentDef {
    let node: Gd<Node> = v.clone().upcast();
    let (position, forward) = <V::D as Dim>::body(node).pose();
    agent_def(&v.bind().settings().to_core(), None, None, position, forward)
}

/// The core's cones of `def`, and the ring of a sound of loudness `hearing_reach` at its feet (a
/// guard hears a sound within its loudness: the reach is the footstep's loudness × sensitivity).
/// Empty when the core refuses the def (the inspector's error says why).
pub fn picture(def: &AgentDef, hearing_reach: Option<f32>) -> Vec<DebugLine> {
    let mut world = World::default();
    let Ok(agent) = world.create_agent(def) else { return Vec::new() };
    let mut layers = flags::CONES;
    if let Some(loudness) = hearing_reach.filter(|r| *r > 0.0) {
        let sound = SoundDef { position: def.position, loudness, ..Default::default() };
        if world.emit_sound(&sound).is_ok() && world.step(1.0 / 60.0).is_ok() {
            layers |= flags::HEARING;
        }
    }
    let mut out = DebugDraw::default();
    let options = DebugDrawOptions { flags: layers, agent, ..Default::default() };
    if world.debug_draw(&options, &mut out).is_err() {
        return Vec::new();
    }
    out.lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use argus_core::Vec3;

    fn reach(lines: &[DebugLine], color: u32) -> f32 {
        lines.iter().filter(|l| l.color == color).map(|l| l.b.length().max(l.a.length())).fold(0.0, f32::max)
    }

    #[test]
    fn the_picture_is_the_cone_the_near_sense_and_the_footstep_reach() {
        use argus_core::debug_draw::colors;
        let mut def = AgentDef { position: Vec3::ZERO, forward: Vec3::Z, ..Default::default() };
        def.sight.eye_offset = Vec3::ZERO;
        def.sight.peripheral_radius = 1.5;
        def.sight.peripheral_angle = 360.0;
        let lines = picture(&def, Some(15.0));
        assert!((reach(&lines, colors::CONE) - 10.0).abs() < 1e-3, "the 10 m cone");
        assert!((reach(&lines, colors::PERIPHERAL) - 1.5).abs() < 1e-3, "the 1.5 m near sense");
        assert!((reach(&lines, colors::SOUND) - 15.0).abs() < 1e-3, "the footstep's 15 m ring");
        assert!(reach(&picture(&def, None), colors::SOUND) == 0.0, "a deaf guard: no ring");
        def.sight.view_radius = -1.0;
        assert!(picture(&def, None).is_empty(), "a def the core refuses draws nothing");
    }
}
