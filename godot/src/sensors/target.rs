//! `PerceptionTarget3D` / `PerceptionTarget2D`: what guards perceive (one macro, both classes).

use std::rc::Rc;

use argus_core::{TargetDef, TargetId, Vec3};
use godot::classes::notify::{CanvasItemNotification, Node3DNotification};
use godot::prelude::*;

use super::{WorldNode, find_world};

macro_rules! perception_target {
    (
        vision_doc = $vision_doc:tt, hearing_doc = $hearing_doc:tt, target_doc = $target_doc:tt,
        base = $Base:ident, ibase = $IBase:ident, vector = $Vector:ident, notification = $Notification:ident,
        world = $World:ident, world_group = $world_group:literal,
        vision = $Vision:ident, hearing = $Hearing:ident, target = $Target:ident,
        body = $body:path, to_core = $to_core:path, from_core = $from_core:path,
        eye_height = $eye:literal, check_height = $check:literal,
        agents_group = $agents_group:literal, targets_group = $targets_group:literal,
        mask_flags = $mask_flags:ident, distance_scale = $scale:literal,
    ) => {
        #[doc = $target_doc]
        ///
        /// Its position and facing follow this node; sight rays aim at its check points.
        #[derive(GodotClass)]
        #[class(base = $Base, tool)]
        pub struct $Target {
            /// Team (0..63); guards (team 0) perceive team 1 by default.
            #[export(range = (0.0, 63.0))]
            #[var(set)]
            team: u32,
            /// Layer bits matched against each guard's `target_mask`.
            #[export($mask_flags)]
            #[var(set)]
            layers: u32,
            /// Check points as offsets from this node (1 to 8; empty = one at chest height in 3D, at the node in 2D).
            #[export]
            #[var(set)]
            check_points: Array<$Vector>,
            /// Visible to guards at all (sounds it makes are still heard).
            #[export]
            #[var(set)]
            perceivable: bool,
            id: TargetId,
            world: Option<Gd<crate::$World>>,
            /// Where this node reports transform changes once registered.
            moved: Option<Rc<crate::hub::MovedQueue>>,
            base: Base<$Base>,
        }

        #[godot_api]
        impl $IBase for $Target {
            fn init(base: Base<$Base>) -> Self {
                Self {
                    team: 1,
                    layers: 1,
                    check_points: Array::new(),
                    perceivable: true,
                    id: TargetId::NULL,
                    world: None,
                    moved: None,
                    base,
                }
            }

            fn enter_tree(&mut self) {
                self.base_mut().add_to_group($targets_group);
                self.base_mut().set_notify_transform(true);
            }

            fn on_notification(&mut self, what: $Notification) {
                if what == $Notification::TRANSFORM_CHANGED
                    && let Some(queue) = &self.moved
                {
                    queue.target_moved(self.id);
                }
            }

            fn ready(&mut self) {
                self.register();
            }

            fn get_configuration_warnings(&self) -> PackedStringArray {
                self.configuration_warnings()
            }

            fn exit_tree(&mut self) {
                // `_ready` runs once per node: without this, a node moved to another parent (or
                // taken out of the tree and put back) would stay unregistered.
                self.base_mut().request_ready();
                let mut gone = None;
                if let Some(mut w) = self.world.take().filter(|w| w.is_instance_valid()) {
                    gone = Some(w.bind_mut().hub_mut().remove_target(self.id));
                }
                self.moved = None;
                self.id = TargetId::NULL;
                // Guards that saw it lose it, and forget it (the core drops their memory of it):
                // emitted now, while the node is still alive, with no borrow held.
                if let Some((mut emissions, signals)) = gone.filter(|(e, _)| !e.is_empty()) {
                    let _guard = self.base_mut();
                    crate::signals::emit_all(&mut emissions, &signals);
                }
            }
        }

        #[godot_api]
        impl $Target {
            /// Registers with the world if not yet (the world calls this for targets ready before it).
            #[func]
            pub fn register(&mut self) {
                if crate::sensors::in_editor() || self.live_world().is_some() {
                    return;
                }
                let node = self.to_gd().upcast::<Node>();
                let Some(mut w) = find_world::<crate::$World>(&node, $world_group) else { return };
                let body = $body(self.to_gd().upcast());
                let def = self.def(&body);
                let exclude = body.own_colliders();
                let slot = crate::hub::TargetSlot {
                    node,
                    body,
                    exclude,
                    sent: None,
                    watch: Default::default(),
                    bad_pose: false,
                };
                let added = {
                    let mut w = w.bind_mut();
                    let hub = w.hub_mut();
                    hub.add_target(slot, &def).map(|id| (id, hub.moved_queue()))
                };
                match added {
                    Ok((id, queue)) => {
                        self.id = id;
                        self.moved = Some(queue);
                        self.world = Some(w);
                    }
                    Err(e) => godot_error!(
                        "{}: not registered: its settings are refused ({e}); it registers once they are valid",
                        crate::sensors::node_label(&self.to_gd().upcast())
                    ),
                }
            }

            /// What the editor shows as this node's configuration warnings (also callable from
            /// scripts): no world in reach, or `layers` outside every guard's `target_mask`.
            #[func]
            pub fn configuration_warnings(&self) -> PackedStringArray {
                let mut out = PackedStringArray::new();
                let node = self.to_gd().upcast::<Node>();
                if !node.is_inside_tree() {
                    return out;
                }
                if find_world::<crate::$World>(&node, $world_group).is_none() {
                    out.push(concat!(
                        "No ",
                        stringify!($World),
                        " above this node or in the scene: no guard perceives it."
                    ));
                }
                let masks: Vec<u32> = node
                    .get_tree()
                    .get_nodes_in_group($agents_group)
                    .iter_shared()
                    .filter_map(|n| n.get("target_mask").try_to::<u32>().ok())
                    .collect();
                if !masks.is_empty() && masks.iter().all(|m| m & self.layers == 0) {
                    out.push("Its layers are outside every guard's target_mask: no guard can see it.");
                }
                out
            }

            /// True once registered with a perception world.
            #[func]
            pub fn is_registered(&self) -> bool {
                !self.id.is_null() && self.world.as_ref().is_some_and(|w| w.is_instance_valid())
            }

            /// Makes a sound at this target (a footstep): heard by guards within `loudness` metres.
            #[func]
            pub fn make_sound(&mut self, loudness: f32) {
                let Some((_, mut w)) = self.live_world() else { return };
                let body = $body(self.to_gd().upcast());
                let node = self.to_gd().upcast::<Node>();
                let (position, _) = body.pose();
                if let Err(e) = w.bind_mut().hub_mut().emit_sound(position, loudness, Some(node), None) {
                    godot_error!("{}: {e}", stringify!($Target));
                }
            }

            #[func]
            fn set_team(&mut self, v: u32) {
                self.set_checked(|s| &mut s.team, "team", v);
            }
            #[func]
            fn set_layers(&mut self, v: u32) {
                self.set_checked(|s| &mut s.layers, "layers", v);
            }
            #[func]
            fn set_check_points(&mut self, v: Array<$Vector>) {
                self.set_checked(|s| &mut s.check_points, "check_points", v);
            }
            #[func]
            fn set_perceivable(&mut self, v: bool) {
                self.set_checked(|s| &mut s.perceivable, "perceivable", v);
            }
        }

        impl $Target {
            /// The node properties as the core's target def.
            fn def(&self, body: &crate::hub::Body) -> TargetDef {
                let (position, forward) = body.pose();
                let check_points: Vec<Vec3> = if self.check_points.is_empty() {
                    vec![Vec3::new(0.0, $check, 0.0)]
                } else {
                    self.check_points.iter_shared().map($to_core).collect()
                };
                TargetDef {
                    position,
                    forward: forward.unwrap_or(Vec3::Z),
                    team: self.team,
                    layers: self.layers,
                    check_points,
                    enabled: self.perceivable,
                }
            }

            /// The world this target is registered with; once that world is freed the target
            /// unregisters, reports it once, and waits for the next world.
            fn live_world(&mut self) -> Option<(TargetId, Gd<crate::$World>)> {
                match &self.world {
                    Some(w) if w.is_instance_valid() && !self.id.is_null() => Some((self.id, w.clone())),
                    Some(_) => {
                        (self.world, self.moved, self.id) = (None, None, TargetId::NULL);
                        let label = crate::sensors::node_label(&self.to_gd().upcast());
                        godot_error!(
                            "{label}: its perception world was freed; unregistered until another world appears"
                        );
                        None
                    }
                    None => None,
                }
            }

            /// The settings to the core (`set_target_def` when registered; else, once ready in
            /// the tree, a check of the def and a registration).
            fn push_settings(&mut self) -> Result<(), String> {
                let world = self.live_world();
                if world.is_none() && !(self.base().is_inside_tree() && self.base().is_node_ready()) {
                    return Ok(()); // checked when it registers at `_ready`
                }
                let def = self.def(&$body(self.to_gd().upcast()));
                let Some((id, mut w)) = world else {
                    crate::sensors::check_target_def(&def)?;
                    self.register();
                    return Ok(());
                };
                let mut w = w.bind_mut();
                let hub = w.hub_mut();
                hub.world().set_target_def(id, &def).map_err(|e| e.to_string())?;
                if let Some(slot) = hub.targets.get_mut(&id) {
                    slot.sent = None; // the def moved the core's pose
                }
                Ok(())
            }

            /// Sets one property: kept only when the core accepts it, else the last accepted value
            /// stays and the error names the node and the property (see the vision sensor's).
            fn set_checked<T: Clone + std::fmt::Debug>(&mut self, field: fn(&mut Self) -> &mut T, name: &str, v: T) {
                let ready = self.base().is_inside_tree() && self.base().is_node_ready();
                let was_valid = !ready
                    || self.live_world().is_some()
                    || crate::sensors::check_target_def(&self.def(&$body(self.to_gd().upcast()))).is_ok();
                let old = std::mem::replace(field(self), v.clone());
                if let Err(e) = self.push_settings() {
                    let label = crate::sensors::node_label(&self.to_gd().upcast());
                    if was_valid {
                        *field(self) = old.clone();
                        godot_error!("{label}: {name} = {v:?} refused ({e}); keeping {old:?}");
                    } else {
                        godot_error!("{label}: {name} = {v:?} kept, but its settings are still refused ({e})");
                    }
                }
            }

            /// The core id (null until registered).
            pub fn target_id(&self) -> TargetId {
                self.id
            }
        }
    };
}

perception_target! {
    vision_doc = "A guard's eyes and mind in 3D: an Argus agent whose position and facing follow this node (forward is −Z, what `look_at` faces).",
    hearing_doc = "Ears for the parent VisionSensor3D.",
    target_doc = "Something 3D guards can perceive (the player, a dropped body).",
    base = Node3D, ibase = INode3D, vector = Vector3, notification = Node3DNotification,
    world = PerceptionWorld3D, world_group = "argus_perception_world_3d",
    vision = VisionSensor3D, hearing = HearingSensor3D, target = PerceptionTarget3D,
    body = crate::hub::Body::D3, to_core = crate::convert::to_core, from_core = crate::convert::from_core,
    eye_height = 1.6, check_height = 1.3,
    agents_group = "argus_agents_3d", targets_group = "argus_targets_3d",
    mask_flags = flags_3d_physics, distance_scale = 1.0,
}

perception_target! {
    vision_doc = "A guard's eyes and mind in top-down 2D: an Argus agent whose position and facing follow this node (forward is +X; a 2D point (x, y) is the core's ground-plane point (x, 0, y)).",
    hearing_doc = "Ears for the parent VisionSensor2D.",
    target_doc = "Something 2D guards can perceive (the player, a dropped body).",
    base = Node2D, ibase = INode2D, vector = Vector2, notification = CanvasItemNotification,
    world = PerceptionWorld2D, world_group = "argus_perception_world_2d",
    vision = VisionSensor2D, hearing = HearingSensor2D, target = PerceptionTarget2D,
    body = crate::hub::Body::D2, to_core = crate::convert::plane_to_core, from_core = crate::convert::core_to_plane,
    eye_height = 0.0, check_height = 0.0,
    agents_group = "argus_agents_2d", targets_group = "argus_targets_2d",
    mask_flags = flags_2d_physics, distance_scale = 64.0,
}
