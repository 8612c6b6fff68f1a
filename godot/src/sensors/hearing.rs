//! `HearingSensor3D` / `HearingSensor2D`: ears for the parent vision sensor (one macro, both classes).

use argus_core::HearingConfig;
use godot::prelude::*;

use super::vision::{VisionSensor2D, VisionSensor3D};

macro_rules! hearing_sensor {
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
        #[doc = $hearing_doc]
        ///
        /// A sound from `emit_sound` is heard when the guard is within loudness ×
        /// hearing_sensitivity of it (the lesson's rule; walls do not muffle it unless the
        /// world's sound_occlusion is below 1).
        #[derive(GodotClass)]
        #[class(base = Node, tool)]
        pub struct $Hearing {
            /// Multiplier on every sound's loudness radius (1 = normal hearing).
            #[export(range = (0.0, 10.0, or_greater))]
            #[var(set)]
            hearing_sensitivity: f32,
            /// Layers of sounds this guard listens to.
            #[export($mask_flags)]
            #[var(set)]
            sound_mask: u32,
            /// Hearing is tested at all.
            #[export]
            #[var(set)]
            hearing_enabled: bool,
            /// Physics layers whose occluders muffle sounds, when the world's sound_occlusion is below 1.
            #[export($mask_flags)]
            #[var(set)]
            muffle_mask: u32,
            base: Base<Node>,
        }

        #[godot_api]
        impl INode for $Hearing {
            fn init(base: Base<Node>) -> Self {
                let h = HearingConfig::default();
                Self {
                    hearing_sensitivity: h.sensitivity,
                    sound_mask: h.sound_mask,
                    hearing_enabled: true,
                    muffle_mask: h.obstacle_mask,
                    base,
                }
            }

            fn get_configuration_warnings(&self) -> PackedStringArray {
                self.configuration_warnings()
            }

            fn enter_tree(&mut self) {
                let _ = self.notify_parent(None);
            }

            fn exit_tree(&mut self) {
                // The guard goes deaf (the child is still listed while it leaves).
                let me = self.to_gd().upcast::<Node>();
                let _ = self.notify_parent(Some(me.instance_id()));
            }
        }

        #[godot_api]
        impl $Hearing {
            /// The guard heard a sound: where, its loudness radius, and the node that made it (null if anonymous).
            /// Configuration warnings (also callable from scripts): a parent that is not a vision sensor.
            #[func]
            pub fn configuration_warnings(&self) -> PackedStringArray {
                let mut out = PackedStringArray::new();
                if self.base().get_parent().is_some_and(|p| p.try_cast::<$Vision>().is_err()) {
                    out.push(concat!("Its parent is not a ", stringify!($Vision), ": these ears belong to no guard."));
                }
                out
            }

            #[signal]
            fn sound_heard(position: $Vector, loudness: f32, source: Gd<Node>);

            #[func]
            fn set_hearing_sensitivity(&mut self, v: f32) {
                self.set_checked(|s| &mut s.hearing_sensitivity, "hearing_sensitivity", v);
            }
            #[func]
            fn set_sound_mask(&mut self, v: u32) {
                self.set_checked(|s| &mut s.sound_mask, "sound_mask", v);
            }
            #[func]
            fn set_hearing_enabled(&mut self, v: bool) {
                self.set_checked(|s| &mut s.hearing_enabled, "hearing_enabled", v);
            }
            #[func]
            fn set_muffle_mask(&mut self, v: u32) {
                self.set_checked(|s| &mut s.muffle_mask, "muffle_mask", v);
            }
        }

        impl $Hearing {
            /// The node properties as the core's hearing config.
            pub fn config(&self) -> HearingConfig {
                HearingConfig {
                    enabled: self.hearing_enabled,
                    sensitivity: self.hearing_sensitivity,
                    sound_mask: self.sound_mask,
                    obstacle_mask: self.muffle_mask,
                }
            }

            /// Pushes the parent sensor's settings again (`leaving`: without this node).
            fn notify_parent(&mut self, leaving: Option<InstanceId>) -> Result<(), String> {
                if let Some(mut p) = self.base().get_parent().and_then(|p| p.try_cast::<$Vision>().ok()) {
                    // The parent reads this node's settings back: release our own borrow first.
                    let _guard = self.base_mut();
                    return p.bind_mut().push_settings(leaving);
                }
                Ok(())
            }

            /// Sets one property: kept only when the core accepts it (alone, and in the parent
            /// sensor's settings), else the last accepted value stays and the error names the
            /// node and the property.
            fn set_checked<T: Clone + std::fmt::Debug>(&mut self, field: fn(&mut Self) -> &mut T, name: &str, v: T) {
                let old = std::mem::replace(field(self), v.clone());
                let alone = argus_core::AgentDef { hearing: self.config(), ..Default::default() };
                let result = super::check_agent_def(&alone).and_then(|()| self.notify_parent(None));
                if let Err(e) = result {
                    *field(self) = old.clone();
                    let label = super::node_label(&self.to_gd().upcast());
                    godot_error!("{label}: {name} = {v:?} refused ({e}); keeping {old:?}");
                }
            }
        }
    };
}

hearing_sensor! {
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

hearing_sensor! {
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
