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
    ) => {
        #[doc = $target_doc]
        ///
        /// Its position and facing follow this node; sight rays aim at its check points.
        #[derive(GodotClass)]
        #[class(base = $Base)]
        pub struct $Target {
            /// Team (0..63); guards (team 0) perceive team 1 by default.
            #[export(range = (0.0, 63.0))]
            #[var(set)]
            team: u32,
            /// Layer bits matched against each guard's `target_mask`.
            #[export(flags_3d_physics)]
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

            fn exit_tree(&mut self) {
                // `_ready` runs once per node: without this, a node moved to another parent (or
                // taken out of the tree and put back) would stay unregistered.
                self.base_mut().request_ready();
                if let Some(mut w) = self.world.take().filter(|w| w.is_instance_valid()) {
                    w.bind_mut().hub_mut().remove_target(self.id);
                }
                self.moved = None;
                self.id = TargetId::NULL;
            }
        }

        #[godot_api]
        impl $Target {
            /// Registers with the world if not yet (the world calls this for targets ready before it).
            #[func]
            pub fn register(&mut self) {
                if !self.id.is_null() {
                    return;
                }
                let node = self.to_gd().upcast::<Node>();
                let Some(mut w) = find_world::<crate::$World>(&node, $world_group) else { return };
                let body = $body(self.to_gd().upcast());
                let def = self.def(&body);
                let exclude = body.own_colliders();
                let slot = crate::hub::TargetSlot { node, body, exclude, sent: None, watch: Default::default() };
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
                    Err(e) => godot_error!("{}: {e}", stringify!($Target)),
                }
            }

            /// True once registered with a perception world.
            #[func]
            pub fn is_registered(&self) -> bool {
                !self.id.is_null()
            }

            /// Makes a sound at this target (a footstep): heard by guards within `loudness` metres.
            #[func]
            pub fn make_sound(&mut self, loudness: f32) {
                let Some(mut w) = self.world.clone() else { return };
                let body = $body(self.to_gd().upcast());
                let node = self.to_gd().upcast::<Node>();
                let (position, _) = body.pose();
                if let Err(e) = w.bind_mut().hub_mut().emit_sound(position, loudness, Some(node), None) {
                    godot_error!("{}: {e}", stringify!($Target));
                }
            }

            #[func]
            fn set_team(&mut self, v: u32) {
                self.team = v;
                self.apply_settings();
            }
            #[func]
            fn set_layers(&mut self, v: u32) {
                self.layers = v;
                self.apply_settings();
            }
            #[func]
            fn set_check_points(&mut self, v: Array<$Vector>) {
                self.check_points = v;
                self.apply_settings();
            }
            #[func]
            fn set_perceivable(&mut self, v: bool) {
                self.perceivable = v;
                self.apply_settings();
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

            fn apply_settings(&mut self) {
                let (id, Some(mut w)) = (self.id, self.world.clone()) else { return };
                let def = self.def(&$body(self.to_gd().upcast()));
                let mut w = w.bind_mut();
                let hub = w.hub_mut();
                if let Some(slot) = hub.targets.get_mut(&id) {
                    slot.sent = None; // the def below moves the core's pose
                }
                if let Err(e) = hub.world().set_target_def(id, &def) {
                    godot_error!("{}: {e}", stringify!($Target));
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
}
